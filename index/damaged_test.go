package index

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDamagedIndexSaysRebuild: a file that is not a database, or a
// database whose pages are garbage, is an error naming the file that
// says deleting it and adding the sources again rebuilds it, when opened
// to write and (the file that is no database; a read-only open reads no
// page past the header) read-only.
func TestDamagedIndexSaysRebuild(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.db")
	os.WriteFile(junk, []byte(strings.Repeat("not an index ", 400)), 0o644)
	good := filepath.Join(dir, "corrupt.db")
	d, err := Open(good)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	for _, suffix := range []string{"-wal", "-shm"} {
		os.Remove(good + suffix)
	}
	b, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	for i := 100; i < len(b); i++ { // the header stays; every page is garbage
		b[i] = byte(i * 7)
	}
	os.WriteFile(good, b, 0o644)
	for _, path := range []string{junk, good} {
		for name, open := range map[string]func(string) (*DB, error){"Open": Open, "OpenReadOnly": OpenReadOnly} {
			d, err := open(path)
			if err == nil && name == "OpenReadOnly" && path == good {
				d.Close()
				continue
			}
			if err == nil {
				d.Close()
				t.Errorf("%s(%s): no error", name, filepath.Base(path))
				continue
			}
			if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "delete the file and run upkdeps index add") {
				t.Errorf("%s(%s): %v", name, filepath.Base(path), err)
			}
		}
	}
}
