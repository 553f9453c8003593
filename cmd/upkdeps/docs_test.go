package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/spf13/cobra/doc"
)

// TestCommandDocs keeps docs/commands, one Markdown page per command
// generated from the cobra tree, equal to what --help says: it fails when
// a flag, a usage line or a description changed without the pages.
// Regenerate with go generate ./cmd/upkdeps (this test with -update).
func TestCommandDocs(t *testing.T) {
	dir := filepath.Join(goldenRoot, "..", "..", "..", "docs", "commands")
	fresh := t.TempDir()
	if err := writeCommandDocs(fresh); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		if err := os.CopyFS(dir, os.DirFS(fresh)); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, have := readDir(t, fresh), readDir(t, dir)
	for _, name := range sortedKeys(want) {
		if have[name] != want[name] {
			t.Errorf("docs/commands/%s is stale: run go generate ./cmd/upkdeps", name)
		}
	}
	for _, name := range sortedKeys(have) {
		if _, ok := want[name]; !ok {
			t.Errorf("docs/commands/%s is no command's page: run go generate ./cmd/upkdeps", name)
		}
	}
}

// writeCommandDocs writes the Markdown page of every command under dir.
func writeCommandDocs(dir string) error {
	root := newRootCmd(&app{})
	root.DisableAutoGenTag = true // no date: the pages change only with the commands
	root.InitDefaultCompletionCmd()
	root.InitDefaultHelpCmd()
	return doc.GenMarkdownTree(root, dir)
}

func readDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = string(b)
	}
	return out
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
