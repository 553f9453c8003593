// Package dirlock is the folder lock of the commands that change a cache or
// redirect folder (or an installation, for fix): an operating-system file
// lock on the file Name in that folder, through github.com/gofrs/flock, so
// that it dies with its process. It is apart from the file helpers
// (internal/fsutil) so that the packages that only read files, format first
// of all, do not pull the lock library in.
//
// Dir takes a lock without waiting; a folder another process holds is a
// *LockedError naming the holder (errors.Is ErrLocked). The packages that
// lock (cache, redirect) export the type under their own names.
package dirlock
