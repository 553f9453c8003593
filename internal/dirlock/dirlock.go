package dirlock

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gofrs/flock"

	"github.com/upkdeps/upkdeps/internal/fsutil"
)

// Name is the lock file a command that changes a cache or redirect folder
// holds in that folder while it plans and writes (fsutil.LockName, a
// control file the file helpers never take for a package). It stays when
// the command ends (removing it would let two writers lock two different
// files); it is empty or holds a line naming its last holder.
const Name = fsutil.LockName

// ErrLocked is matched (errors.Is) by a *LockedError.
var ErrLocked = errors.New("folder locked by another upkdeps process")

// LockedError reports that another process holds a folder's lock.
type LockedError struct {
	Dir    string
	Holder string // the holder's own description ("pid 123: upkdeps cache clean, since ..."), or ""
}

func (e *LockedError) Error() string {
	holder := e.Holder
	if holder == "" {
		holder = "another upkdeps process"
	}
	return fmt.Sprintf("%s is being changed by %s (lock file %s): try again when it has finished",
		e.Dir, holder, Name)
}

// Is makes errors.Is(err, ErrLocked) true.
func (e *LockedError) Is(target error) bool { return target == ErrLocked }

// Lock is a held folder lock.
type Lock struct {
	fl *flock.Flock
}

// Dir takes the lock of folder dir for the command what (shown to a
// second writer), without waiting: when another process holds it, it
// returns a *LockedError naming that process. The lock is an operating
// system file lock (flock on Unix, LockFileEx on Windows, through
// github.com/gofrs/flock), so it dies with its process: a killed writer
// never leaves a folder locked. Readers do not take it.
func Dir(dir, what string) (*Lock, error) {
	path := filepath.Join(dir, Name)
	if err := controlFileOK(path); err != nil {
		return nil, err
	}
	fl := flock.New(path, flock.SetPermissions(0o644))
	ok, err := fl.TryLock()
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, unwrapPath(err))
	}
	if !ok {
		return nil, &LockedError{Dir: dir, Holder: readHolder(path)}
	}
	// Say who holds it, for the message a second writer prints. Best
	// effort: on Windows the locked range cannot be written through a
	// second handle, and the lock works without it.
	line := fmt.Sprintf("pid %d: %s, since %s\n", os.Getpid(), what, time.Now().Format(time.RFC3339))
	if w, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0); err == nil {
		w.WriteString(line)
		w.Close()
	}
	return &Lock{fl: fl}, nil
}

// controlFileOK refuses a lock path that is not a regular file (a pipe
// would block the open; a folder cannot be locked).
func controlFileOK(path string) error {
	st, err := os.Lstat(path)
	if err != nil || st.Mode().IsRegular() {
		return nil
	}
	return &fsutil.NotRegularError{Path: path, Mode: st.Mode()}
}

// readHolder returns the first line of the lock file, printable, or "".
func readHolder(path string) string {
	b, err := fsutil.ReadRegular(path, 4096)
	if err != nil {
		return ""
	}
	line, _, _ := strings.Cut(string(b), "\n")
	line = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, line)
	return strings.TrimSpace(line)
}

// Unlock releases the lock. The lock file stays.
func (l *Lock) Unlock() error {
	if l == nil || l.fl == nil {
		return nil
	}
	err := l.fl.Unlock() // also closes its file
	l.fl = nil
	return err
}

// unwrapPath returns the cause of a path error, whose message would name
// the lock file again.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
