//go:build unix

package format

import (
	"errors"
	"io/fs"
	"path/filepath"
	"syscall"
	"testing"
)

// TestOpenNotRegular: a named pipe or a folder named like a package is
// refused without blocking, with the error type this package exports, so
// a caller outside the module can errors.As it.
func TestOpenNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "Core.u")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("cannot make a named pipe: %v", err)
	}
	for path, mode := range map[string]fs.FileMode{fifo: fs.ModeNamedPipe, dir: fs.ModeDir} {
		_, err := Open(path)
		var nr *NotRegularError
		if !errors.As(err, &nr) || !errors.Is(err, ErrNotRegular) || nr.Mode&mode == 0 {
			t.Errorf("%s: have %v, want a *NotRegularError of mode %v", path, err, mode)
		}
	}
}
