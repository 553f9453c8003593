package demo

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/upkdeps/upkdeps/internal/testutil"
)

// TestDemoUpToDate regenerates the demo and compares it with the committed
// testdata/demo, file by file.
func TestDemoUpToDate(t *testing.T) {
	root, err := testutil.ProjectRoot()
	if err != nil {
		t.Fatal(err)
	}
	committed := filepath.Join(root, "testdata", "demo")
	fresh := t.TempDir()
	if err := Write(fresh); err != nil {
		t.Fatal(err)
	}
	list := func(dir string) map[string][]byte {
		out := map[string][]byte{}
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			b, _ := os.ReadFile(p)
			out[filepath.ToSlash(rel)] = b
			return nil
		})
		return out
	}
	want, have := list(fresh), list(committed)
	for name, b := range want {
		if !bytes.Equal(have[name], b) {
			t.Errorf("testdata/demo/%s differs from the generator's: run go run ./internal/demo/gendemo testdata/demo", name)
		}
	}
	for name := range have {
		if _, ok := want[name]; !ok {
			t.Errorf("testdata/demo/%s is not made by the generator", name)
		}
	}
}
