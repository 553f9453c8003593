package fsutil

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestStop: Stop removes the temporary file of a write under way, that
// write then fails with context.Canceled leaving nothing at its
// destination, and so does every later write.
func TestStop(t *testing.T) {
	defer func() { live.Lock(); live.stopped = false; live.Unlock() }()
	dir := t.TempDir()
	dst := filepath.Join(dir, "out.html")
	var removed []string
	err := WriteAtomicFunc(dst, 0o644, func(f *os.File) error {
		f.WriteString("half")
		removed = Stop()
		f.WriteString(" of it")
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("the write under way: have %v, want context.Canceled", err)
	}
	switch {
	case runtime.GOOS == "windows":
		// Windows removes no file that is open (Go opens without delete
		// sharing): the write removes its own when it is refused below.
		if len(removed) != 0 {
			t.Errorf("Stop removed %q while the write held it open", removed)
		}
	case len(removed) != 1 || !IsTempFor(filepath.Base(removed[0]), dst):
		t.Errorf("Stop removed %q, want the write's temporary file", removed)
	}
	if err := WriteFileAtomic(dst, []byte("x"), 0o644); !errors.Is(err, context.Canceled) {
		t.Errorf("a write after Stop: have %v, want context.Canceled", err)
	}
	if names, _ := os.ReadDir(dir); len(names) != 0 {
		t.Errorf("left %v", names)
	}
}
