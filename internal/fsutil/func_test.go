package fsutil

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/upkdeps/upkdeps/internal/testutil"
)

func TestWriteAtomicFunc(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "Core.u")
	write(t, p, "old")
	// The callback may read back what it wrote before it is published.
	err := WriteAtomicFunc(p, 0o644, func(f *os.File) error {
		if _, err := f.WriteString("new data"); err != nil {
			return err
		}
		b := make([]byte, 3)
		if _, err := f.ReadAt(b, 4); err != nil || string(b) != "dat" {
			t.Errorf("read back: %q, %v", b, err)
		}
		return nil
	})
	if err != nil || read(t, p) != "new data" {
		t.Fatalf("have %v, content %q", err, read(t, p))
	}
	// Its error is returned as it is, and nothing is published or left.
	refuse := errors.New("checked and refused")
	err = WriteAtomicFunc(p, 0o644, func(f *os.File) error {
		io.WriteString(f, "bad")
		return refuse
	})
	if err != refuse {
		t.Errorf("have %v, want the callback's error itself", err)
	}
	if have := read(t, p); have != "new data" {
		t.Errorf("after a refusal: %q", have)
	}
	if have := testutil.DirNames(t, dir); len(have) != 1 {
		t.Errorf("temporary file left behind: %v", have)
	}
}
