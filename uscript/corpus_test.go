package uscript

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/internal/testutil"
)

// TestCorpus scans every .uc file and reads every .upkg file of the
// real-file corpus. Whatever they hold, the scan must not fail on a file
// with a class declaration, and references must carry text.
func TestCorpus(t *testing.T) {
	dir := testutil.Corpus(t)
	var ucs, upkgs []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch {
		case hasSuffixFold(path, ".uc"):
			ucs = append(ucs, path)
		case hasSuffixFold(path, ".upkg"):
			upkgs = append(upkgs, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("corpus: %d .uc files, %d .upkg files", len(ucs), len(upkgs))
	for _, path := range upkgs {
		if _, err := ReadUpkg(path); err != nil {
			t.Errorf("%s: %v", path, err)
		}
	}
	for _, path := range ucs {
		c, err := ScanFile(path)
		if err != nil {
			data, _ := os.ReadFile(path)
			if strings.Contains(strings.ToLower(string(data)), "class") {
				t.Errorf("%s: %v", path, err)
			}
			continue
		}
		for _, r := range c.Refs {
			if r.Text == "" {
				t.Errorf("%s:%d: %s reference without text", path, r.Line, r.Kind)
			}
		}
	}
	if len(ucs) == 0 {
		t.Skip("the corpus holds no .uc files (only the .upkg files were checked)")
	}
}
