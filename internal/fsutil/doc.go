// Package fsutil holds the file-system helpers upkdeps uses when it changes
// an installation: atomic writes and copies (a temporary file in the same
// folder, fsync, rename, fsync of the folder), a content comparison, and a
// check that a name taken from an untrusted file is a plain file name, the
// opening of files to read that refuses anything but a regular file without
// blocking (OpenRegular: a named pipe called Core.u must not hang a scan)
// and the one bounded read of a whole file (ReadRegular). The folder lock
// is apart, in internal/dirlock, so that readers do not pull its library in.
//
// An atomic write leaves either the old file or the complete new one at the
// destination, never a truncated mix, even when the process dies or the disk
// fills up half way. A failed write removes its temporary file.
//
// # Security
//
// File names read from files (cache.ini values, names embedded in .uz
// headers) are untrusted. SafeFileName accepts only a name that stays in the
// folder it is joined to on every operating system the games run on: no
// separators, no drive or stream colon, no "." or "..", no Windows device
// names, no control or Windows-reserved characters, no trailing dot or space
// (Windows strips them, so "Core.u." would overwrite "Core.u"), at most 255
// bytes of valid UTF-8. CopyFileAtomic never replaces a different existing
// file unless told to.
package fsutil
