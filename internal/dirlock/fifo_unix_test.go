//go:build unix

package dirlock

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/upkdeps/upkdeps/internal/fsutil"
)

// TestDirFIFO refuses a lock file that is a pipe instead of blocking.
func TestDirFIFO(t *testing.T) {
	dir := t.TempDir()
	mkfifo(t, filepath.Join(dir, Name))
	if _, err := Dir(dir, "test"); !errors.Is(err, fsutil.ErrNotRegular) {
		t.Errorf("have %v, want fsutil.ErrNotRegular", err)
	}
}

// mkfifo makes a named pipe at path, or skips the test.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("cannot make a named pipe: %v", err)
	}
}
