//go:build unix

package fsutil

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Mkfifo makes a named pipe at path, or skips the test.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("cannot make a named pipe: %v", err)
	}
}

// TestOpenRegularFIFO opens a named pipe nobody writes to: an error at
// once, where os.Open would block forever.
func TestOpenRegularFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "X.u")
	mkfifo(t, fifo)
	done := make(chan error, 1)
	go func() {
		f, err := OpenRegular(fifo)
		if err == nil {
			f.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		var ne *NotRegularError
		if !errors.As(err, &ne) || !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "named pipe") {
			t.Errorf("have %v, want a *NotRegularError for a named pipe", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("OpenRegular blocked on a named pipe")
	}
	if _, err := ReadRegular(fifo, 100); !errors.Is(err, ErrNotRegular) {
		t.Errorf("ReadRegular: have %v", err)
	}
	// A link to the pipe is the pipe.
	link := filepath.Join(dir, "L.u")
	if err := os.Symlink(fifo, link); err == nil {
		if _, err := OpenRegular(link); !errors.Is(err, ErrNotRegular) {
			t.Errorf("link to a pipe: have %v", err)
		}
	}
	// Copies and comparisons refuse it too, and do not block.
	reg := filepath.Join(dir, "R.u")
	write(t, reg, "data")
	if err := CopyFileAtomic(fifo, filepath.Join(dir, "out.u"), false); !errors.Is(err, ErrNotRegular) {
		t.Errorf("copy from a pipe: have %v", err)
	}
	if err := CopyFileAtomic(reg, fifo, true); !errors.Is(err, ErrNotRegular) {
		t.Errorf("copy onto a pipe: have %v", err)
	}
	if _, err := SameContent(reg, fifo); !errors.Is(err, ErrNotRegular) {
		t.Errorf("compare with a pipe: have %v", err)
	}
	if _, err := OpenRegular("/dev/null"); !errors.Is(err, ErrNotRegular) {
		t.Errorf("/dev/null: have %v", err)
	}
}
