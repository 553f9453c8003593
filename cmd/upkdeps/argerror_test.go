package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/internal/demo"
)

// TestArgErrorsNameFlags: what the libraries report as the caller's
// mistake (install.ArgError, check.BaselineVersionError) names no flag
// there; the command says it with its flag, exit 2 and, for an
// ArgError, the usage hint.
func TestArgErrorsNameFlags(t *testing.T) {
	chdirDemo(t)
	noCache := filepath.Join("System", "NoCache.ini")
	data, err := os.ReadFile(demo.Ini)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(data), "\r\n") {
		if !strings.HasPrefix(l, "CachePath=") {
			lines = append(lines, l)
		}
	}
	writeText(t, noCache, strings.Join(lines, "\r\n"))
	writeText(t, "notes.txt", "not a mod")
	writeText(t, "old-baseline.json", `{"schema_version": 0, "findings": []}`)
	empty := t.TempDir()
	hint := "Run 'upkdeps --help' for usage."
	for _, c := range []struct {
		args []string
		want string
		hint bool
	}{
		{[]string{"check", "--ini", demo.Ini, "--game", "nosuchgame"}, `unknown game "nosuchgame"`, true},
		{[]string{"check", "--ini", demo.Ini, "--platform", "amiga"}, `unknown platform "amiga"`, true},
		{[]string{"check", "--ini", demo.Ini, "--with", "notes.txt"}, "--with notes.txt: not a folder or an archive", true},
		{[]string{"check", "--ini", noCache, "--with-cache"}, "--with-cache: the ini sets no CachePath; give the folder with --cache DIR", true},
		{[]string{"report", "--ini", noCache, "--with-cache", "-o", "-"}, "--with-cache: the ini sets no CachePath", true},
		{[]string{"check", "--ini", demo.Ini, "--preset", "No/Such"}, "No/Such", true},
		{[]string{"order", "--ini", empty}, "--ini " + empty + " is a folder", true},
		{[]string{"check", "--ini", demo.Ini, "--baseline", "old-baseline.json"}, "schema_version 0, want 1 (write it again with --write-baseline)", false},
	} {
		_, errOut, code := runCLI(t, append(c.args, "--no-progress")...)
		if code != exitError || !strings.Contains(errOut, c.want) || strings.Contains(errOut, hint) != c.hint {
			t.Errorf("%s: code %d, stderr %q; want 2, %q (usage hint %v)", strings.Join(c.args, " "), code, errOut, c.want, c.hint)
		}
	}
	t.Chdir(empty)
	if _, errOut, code := runCLI(t, "order"); code != exitError || !strings.Contains(errOut, "no --ini given and ") || !strings.Contains(errOut, hint) {
		t.Errorf("order in an empty folder: code %d, stderr %q", code, errOut)
	}
}
