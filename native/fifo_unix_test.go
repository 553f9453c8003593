//go:build unix

package native

import (
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/upkdeps/upkdeps/format"
)

func TestFIFODoesNotBlock(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "X.so")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := ReadBinary(p)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, format.ErrNotRegular) || !strings.Contains(err.Error(), "native: "+p+": not a regular file (a named pipe)") {
			t.Errorf("ReadBinary(fifo) = %v, want a format.NotRegularError naming the file once", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ReadBinary blocked on a FIFO")
	}
	got, err := FindBinaries([]string{dir})
	if err != nil || len(got) != 0 {
		t.Errorf("FindBinaries listed a FIFO: %q, %v", got, err)
	}
}
