// Package archive walks the members of the archives mods are shipped in —
// .zip, .umod (Unreal's own installer), .7z and .rar — and of the archives
// nested one level inside them, without extracting anything to disk.
//
// # Security
//
// An archive is untrusted input. Walk checks a member's name with
// filepath.IsLocal before anything else (an absolute name, a drive letter or
// a ".." element makes the member an error of its own, reported through
// Member.Err, and it cannot be opened); the member count is checked against
// Limits.MaxMembers before the members are listed; a member whose declared
// size exceeds Limits.MaxMemberSize cannot be opened; a member's reader fails
// as soon as it yields more bytes than the member declared or the limit
// allows (a zip bomb stops at the first byte over), and the bytes read from
// one archive are capped by Limits.MaxTotal. A UMOD's directory is read only
// when it is at most 64 MiB, and each of its counts and ranges is checked
// against the file before use. A nested archive is read only when it is
// at most Limits.MaxNestedSize bytes. A nested .rar is streamed from its
// outer member; so is a nested .zip whose outer archive can read the
// member twice (not a .rar): the first read keeps the zip's last 16 MiB,
// its directory, the second yields its members in the order they are
// stored, each at the offset the directory gives (a member stored inside
// the one before it, as in an overlapping bomb, is an error of its own).
// Another nested archive is read into memory, once. The tails and held
// archives are counted against NestedBudget, which all walks of a process
// share; archives are nested once: an archive inside a nested archive is a
// plain member. The .7z and .rar decoders' memory is
// capped by MaxDictionary (see sevenzip.go: the .7z coders are registered
// with github.com/bodgit/sevenzip for the whole process).
package archive
