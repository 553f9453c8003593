package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/internal/demo"
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
	os.Remove("upkdeps.yaml")
	t.Setenv("UPKDEPS_DB", "env-old.db")
	if c := load("find", "x"); c.DB != "env-old.db" {
		t.Errorf("UPKDEPS_DB: index %q", c.DB)
	}
	t.Setenv("UPKDEPS_INDEX", "env.db")
	if c := load("find", "x"); c.DB != "env.db" {
		t.Errorf("UPKDEPS_INDEX over UPKDEPS_DB: index %q", c.DB)
	}
}

// TestOutFolderOneName: redirect build and verify name the redirect folder
// -o/--output DIR, as graph, report, headers and uz name what they write;
// the old spellings (--out DIR, verify DIR) print the same with a note on
// stderr.
func TestOutFolderOneName(t *testing.T) {
	chdirDemo(t)
	build, errOut, code := runCLI(t, "redirect", "build", "--ini", demo.Ini, "-o", "redir", "--allow-bigger", "--dry-run")
	if code != exitOK || errOut != "" {
		t.Fatalf("build -o: exit %d, %s", code, errOut)
	}
	old, oldErr, oldCode := runCLI(t, "redirect", "build", "--ini", demo.Ini, "--out", "redir", "--allow-bigger", "--dry-run")
	if oldCode != code || old != build || oldErr != "upkdeps: --out is deprecated: use -o (--output)\n" {
		t.Errorf("build --out: exit %d, stderr %q, stdout %q; want stdout %q", oldCode, oldErr, old, build)
	}
	if _, errOut, code := runCLI(t, "redirect", "build", "--ini", demo.Ini, "--output", "redir", "--allow-bigger"); code != exitOK {
		t.Fatalf("build --output: exit %d, %s", code, errOut)
	}
	out, errOut, code := runCLI(t, "redirect", "verify", "--ini", demo.Ini, "-o", "redir")
	if code != exitOK || errOut != "" || !strings.Contains(out, "redir") {
		t.Errorf("verify -o: exit %d, stderr %q, stdout %q", code, errOut, out)
	}
	for _, args := range [][]string{{"redir"}, {"--out", "redir"}} {
		old, oldErr, oldCode := runCLI(t, append([]string{"redirect", "verify", "--ini", demo.Ini}, args...)...)
		if oldCode != code || old != out || !strings.Contains(oldErr, "deprecated: use -o") {
			t.Errorf("verify %v: exit %d, stderr %q, stdout %q; want stdout %q", args, oldCode, oldErr, old, out)
		}
	}
	for _, c := range []string{"graph", "report", "headers", "uz compress", "uz decompress", "redirect build", "redirect verify"} {
		cmd, _, err := newRootCmd(&app{}).Find(strings.Fields(c))
		if f := cmd.Flags().Lookup("output"); err != nil || f == nil || f.Shorthand != "o" {
			t.Errorf("%s: no -o/--output flag", c)
		}
	}
}

// TestIniFolder: --ini takes the game folder or its System folder and finds
// the game's ini there as the lookup without --ini does; a folder without
// one is a usage error listing what was tried.
func TestIniFolder(t *testing.T) {
	dir := chdirDemo(t)
	if err := os.Rename(filepath.Join("System", "Demo.ini"), filepath.Join("System", "UnrealTournament.ini")); err != nil {
		t.Fatal(err)
	}
	want, wantErr, wantCode := runCLI(t, "check", "--ini", filepath.Join(dir, "System", "UnrealTournament.ini"))
	if wantCode != exitFindings {
		t.Fatalf("check --ini FILE: exit %d, %s", wantCode, wantErr)
	}
	for _, folder := range []string{dir, filepath.Join(dir, "System"), dir + string(filepath.Separator)} {
		out, errOut, code := runCLI(t, "check", "--ini", folder)
		if code != wantCode || out != want {
			t.Errorf("check --ini %s: exit %d, stderr %q\n%s\nwant the output of --ini FILE:\n%s", folder, code, errOut, out, want)
		}
	}
	empty := t.TempDir()
	_, errOut, code := runCLI(t, "check", "--ini", empty)
	if code != exitError || !strings.Contains(errOut, "is a folder") || !strings.Contains(errOut, filepath.Join(empty, "System", "UnrealTournament.ini")) {
		t.Errorf("check --ini EMPTYDIR: exit %d, stderr %q", code, errOut)
	}
}
