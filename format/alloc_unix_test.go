//go:build unix

package format

import (
	"os"
	"path/filepath"
	"testing"
)

// TestReaderAllocs checks what a Reader allocates a package once its
// memory has grown: its own file, header bytes, generation table and
// tables are reused, which leaves the path's two conversions to a C
// string (for the stat and the open).
func TestReaderAllocs(t *testing.T) {
	b := NewBuilder(69, 0)
	actor := b.ImportPath("Engine.Actor", "Core", "Class")
	b.Export(0, "MyActor", 0, actor, 100)
	b.Export(0, "Ünïcödé", 0, actor, 10)
	b.File.Generations = []Generation{{1, 2}, {3, 4}, {5, 6}}
	img, err := Marshal(b.File)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "X.u")
	if err := os.WriteFile(path, img, 0o644); err != nil {
		t.Fatal(err)
	}
	var rd Reader
	d := OpenDir(filepath.Dir(path))
	defer d.Close()
	for name, read := range map[string]func() error{
		"View":   func() error { _, err := rd.View(path); return err },
		"ViewIn": func() error { _, err := rd.ViewIn(d, path); return err },
		"Open":   func() error { _, err := rd.Open(path); return err },
	} {
		if err := read(); err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(20, func() {
			if err := read(); err != nil {
				t.Fatal(err)
			}
		}); n > 2 {
			t.Errorf("Reader.%s: %v allocations a package, want 2 at most", name, n)
		}
	}
}
