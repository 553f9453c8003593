package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestIndexFlagOneName: every command that reads the package index takes
// it as --index FILE; --db, the old name of fix, find and index, still
// works with a note on stderr (stdout unchanged, so --json stays JSON);
// --index default (or "") is the config key index, else the cache
// folder's; the old config key db still works.
func TestIndexFlagOneName(t *testing.T) {
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Flags().Lookup("db") != nil || c.InheritedFlags().Lookup("db") != nil {
			if c.Flags().Lookup("index") == nil && c.InheritedFlags().Lookup("index") == nil {
				t.Errorf("%s has --db but no --index", c.CommandPath())
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	root := newRootCmd(&app{})
	walk(root)
	for _, path := range [][]string{{"check"}, {"report"}, {"plan"}, {"fix"}, {"find"}, {"index", "add"}, {"index", "list"}, {"index", "remove"}, {"index", "stats"}} {
		c, _, err := root.Find(path)
		if err != nil || c.Flags().Lookup("index") == nil && c.InheritedFlags().Lookup("index") == nil {
			t.Errorf("%v: no --index flag (%v)", path, err)
		}
	}

	dir := t.TempDir()
	t.Chdir(dir)
	db := filepath.Join(dir, "mine.db")
	if _, errOut, code := runCLI(t, "index", "add", "--index", db, "--no-progress", dir); code != exitOK {
		t.Fatalf("index add: exit %d, %s", code, errOut)
	}
	newOut, newErr, newCode := runCLI(t, "index", "stats", "--index", db, "--json")
	oldOut, oldErr, oldCode := runCLI(t, "index", "stats", "--db", db, "--json")
	if newCode != exitOK || newErr != "" || !strings.Contains(newOut, `"schema_version"`) {
		t.Errorf("--index: exit %d, stderr %q, stdout %q", newCode, newErr, newOut)
	}
	if oldCode != exitOK || oldOut != newOut || oldErr != "upkdeps: --db is deprecated: use --index\n" {
		t.Errorf("--db: exit %d, stderr %q, stdout %q; want %q on stdout", oldCode, oldErr, oldOut, newOut)
	}

	load := func(args ...string) Config {
		t.Helper()
		a := &app{stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}
		root := newRootCmd(a)
		root.SetArgs(args)
		root.Execute()
		return a.cfg
	}
	for _, tc := range []struct {
		yaml string
		args []string
		want string
	}{
		{"", []string{"index", "stats"}, ""},
		{"", []string{"index", "stats", "--index", "default"}, ""},
		{"index: cfg.db\n", []string{"index", "stats"}, "cfg.db"},
		{"index: cfg.db\n", []string{"index", "stats", "--index", "default"}, "cfg.db"},
		{"index: cfg.db\n", []string{"index", "stats", "--index", ""}, "cfg.db"},
		{"index: cfg.db\n", []string{"index", "stats", "--index", "flag.db"}, "flag.db"},
		{"index: cfg.db\n", []string{"index", "stats", "--db", "flag.db"}, "flag.db"},
		{"index: cfg.db\n", []string{"check", "--index", "default"}, "cfg.db"},
		{"index: cfg.db\n", []string{"plan", "--index", "default"}, "cfg.db"},
		{"db: old.db\n", []string{"fix", "--index", "default"}, "old.db"},
		{"index: default\n", []string{"find", "x"}, ""},
	} {
		if err := os.WriteFile("upkdeps.yaml", []byte(tc.yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		if c := load(tc.args...); c.DB != tc.want {
			t.Errorf("config %q, %v: index %q, want %q", tc.yaml, tc.args, c.DB, tc.want)
		}
	}
}
