// Package testutil holds helpers shared by upkdeps tests.
package testutil

import (
	"os"
	"path/filepath"
	"testing"
)

// Corpus returns the path of ../shared/corpus beside the project root (the
// folder holding go.mod), skipping the test with a clear message when it is
// absent. UPKDEPS_CORPUS overrides the location.
func Corpus(t testing.TB) string {
	t.Helper()
	dir, ok := CorpusDir()
	if !ok {
		t.Skipf("real-file corpus not found at %s: skipping (it lives in ../shared/corpus beside the project)", dir)
	}
	return dir
}

// CorpusDir returns where the corpus should be and whether it is there.
func CorpusDir() (string, bool) {
	dir := os.Getenv("UPKDEPS_CORPUS")
	if dir == "" {
		root, err := ProjectRoot()
		if err != nil {
			return "../shared/corpus", false
		}
		dir = filepath.Join(root, "..", "shared", "corpus")
	}
	st, err := os.Stat(dir)
	return dir, err == nil && st.IsDir()
}

// CorpusFile returns the path of a file in the corpus, skipping when absent.
func CorpusFile(t testing.TB, rel string) string {
	t.Helper()
	p := filepath.Join(Corpus(t), filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		t.Skipf("corpus file %s not present: %v", rel, err)
	}
	return p
}

// ProjectRoot walks up from the working directory to the folder with go.mod.
func ProjectRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}

// DirNames lists the names in dir (sorted, as os.ReadDir returns them),
// failing the test when dir cannot be read.
func DirNames(t testing.TB, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}
