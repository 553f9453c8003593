// Package testutil holds helpers shared by upkdeps tests.
package testutil

import (
	"os"
	"path/filepath"
	"strings"
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

// CaseSensitive reports whether the file system holding dir (a folder of
// the test's own) tells file names apart by case, as Linux's do and
// Windows' and macOS's (by default) do not.
func CaseSensitive(t testing.TB, dir string) bool {
	t.Helper()
	f, err := os.CreateTemp(dir, "case-probe-a")
	if err != nil {
		t.Fatal(err)
	}
	name := f.Name()
	f.Close()
	defer os.Remove(name)
	base := filepath.Base(name)
	_, err = os.Stat(filepath.Join(dir, strings.ToUpper(base)))
	return err != nil
}

// SkipCaseInsensitive skips t when the file system of dir cannot hold two
// names differing only in case (Windows, macOS by default); what names the
// files the test needs.
func SkipCaseInsensitive(t testing.TB, dir, what string) {
	t.Helper()
	if !CaseSensitive(t, dir) {
		t.Skipf("needs %s, which a case-insensitive file system cannot hold", what)
	}
}

// Symlink makes a symbolic link at to pointing at from, skipping t when
// links cannot be made here: when os.Symlink fails (Windows without the
// privilege) and when it reports success but made nothing, as wine 8's
// CreateSymbolicLinkW does.
func Symlink(t testing.TB, from, to string) {
	t.Helper()
	if err := os.Symlink(from, to); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if _, err := os.Lstat(to); err != nil {
		t.Skipf("the symbolic link was reported made but is not there (wine's CreateSymbolicLinkW): %v", err)
	}
}

// FullEnv names the variable that, set to 1, runs the tests that stand for
// a size (the memory bombs of cmd/upkdeps and their peers) at the size
// their comments and docs/security.md quote. Without it they run a smaller
// one that proves the same bound in a fraction of the time, so that
// `go test ./...` stays short; the race detector's runs use the small ones
// too.
const FullEnv = "UPKDEPS_TEST_FULL"

// Full reports whether FullEnv is set to 1.
func Full() bool { return os.Getenv(FullEnv) == "1" }
