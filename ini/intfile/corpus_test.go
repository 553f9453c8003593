package intfile

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/internal/testutil"
)

// TestCorpus reads every localisation file of the corpus (UT2004's System
// folder holds 160-odd .int files, ANSI and UTF-16): each parses, and every
// Object= line of a class names Pkg.Class with a MetaClass.
func TestCorpus(t *testing.T) {
	root := testutil.Corpus(t)
	var files, objects, classes int
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.EqualFold(filepath.Ext(path), ".int") {
			return err
		}
		f, err := Load(path)
		if err != nil {
			t.Errorf("%v", err)
			return nil
		}
		files++
		for _, o := range f.Objects {
			objects++
			if o.Err != "" {
				t.Errorf("%s:%d: %s", path, o.Line, o.Err)
				continue
			}
			if o.IsClass() {
				classes++
				if _, c, ok := strings.Cut(o.Name, "."); !ok || c == "" || o.MetaClass == "" {
					t.Errorf("%s:%d: class entry %q without Pkg.Class or MetaClass", path, o.Line, o.Value)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files == 0 {
		t.Skip("no .int file in the corpus")
	}
	t.Logf("%d .int files, %d Object= lines, %d of classes", files, objects, classes)
}

// TestCorpusLoadPublicOnly: Load, which has ini.v1 parse the [Public] keys
// alone (ini.LoadSections), gives every corpus localisation file the
// Object= lines a parse of the whole file gives, or the same error.
func TestCorpusLoadPublicOnly(t *testing.T) {
	root := testutil.Corpus(t)
	n := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.EqualFold(filepath.Ext(path), ".int") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		whole, werr := Parse(path, data)
		part, perr := Load(path)
		n++
		switch {
		case (werr == nil) != (perr == nil) || werr != nil && werr.Error() != perr.Error():
			t.Errorf("%s: errors %v and %v", path, werr, perr)
		case werr == nil && !reflect.DeepEqual(whole.Objects, part.Objects):
			t.Errorf("%s: Objects differ:\n%v\n%v", path, whole.Objects, part.Objects)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Skip("no .int file in the corpus")
	}
}
