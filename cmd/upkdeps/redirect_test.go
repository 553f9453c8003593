package main

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/internal/demo"
	"github.com/upkdeps/upkdeps/internal/testutil"
)

type redirectFinding struct {
	Kind, Severity, Package, File, Message string
}

func verifyJSONOf(t *testing.T, out string) (errs []string, kinds map[string]int) {
	t.Helper()
	var rep struct {
		SchemaVersion int               `json:"schema_version"`
		Findings      []redirectFinding `json:"findings"`
		Summary       struct {
			Errors int `json:"errors"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if rep.SchemaVersion != 1 {
		t.Errorf("schema_version %d", rep.SchemaVersion)
	}
	kinds = map[string]int{}
	for _, f := range rep.Findings {
		kinds[f.Kind]++
		if f.Severity == "error" {
			errs = append(errs, f.Kind+":"+f.File)
		}
	}
	if rep.Summary.Errors != len(errs) {
		t.Errorf("summary.errors %d, findings %d", rep.Summary.Errors, len(errs))
	}
	return errs, kinds
}

// TestRedirectDemo builds and verifies the demo's redirect folder, then
// damages three files and checks that verify names all three.
func TestRedirectDemo(t *testing.T) {
	chdirDemo(t)
	ini := []string{"--ini", demo.Ini}
	run := func(code int, args ...string) string {
		t.Helper()
		out, errOut, have := runCLI(t, append(args, ini...)...)
		if have != code {
			t.Errorf("%v: code %d, want %d (stderr %q)", args, have, code, errOut)
		}
		return out
	}
	golden(t, "redirect-build-dry.txt", run(exitOK, "redirect", "build", "-o", "redir", "--dry-run"))
	if _, err := os.Stat("redir"); err == nil {
		t.Fatalf("--dry-run created the folder")
	}
	// The demo's packages are tiny: their .uz are larger than they are.
	out := run(exitFindings, "redirect", "build", "-o", "redir")
	if !strings.Contains(out, "ERROR bigger_than_source") {
		t.Errorf("build without --allow-bigger: %s", out)
	}
	if !testutil.CaseSensitive(t, ".") {
		// A lower-case copy would be the file itself: none is planned.
		out := run(exitOK, "redirect", "build", "-o", "redir", "--allow-bigger", "--lowercase", "--dry-run")
		if !strings.Contains(out, "WARNING lowercase_folded: lower-case copies not written") || strings.Contains(out, "copy of") {
			t.Errorf("--lowercase on a case-insensitive file system:\n%s", out)
		}
		t.Skip("the rest compares --lowercase builds with transcripts holding the lower-case copies a case-insensitive file system cannot")
	}
	golden(t, "redirect-build.txt", run(exitOK, "redirect", "build", "-o", "redir", "--allow-bigger", "--lowercase"))
	golden(t, "redirect-build-again.json", run(exitOK, "redirect", "build", "-o", "redir", "--allow-bigger", "--lowercase", "--json"))
	golden(t, "redirect-verify.txt", run(exitOK, "redirect", "verify", "-o", "redir"))

	// Delete one file, corrupt another, replace a third with an older
	// version (another package's data under its name).
	for _, f := range []string{"redir/DemoGame.u.uz", "redir/demogame.u.uz"} {
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile("redir/DemoTex.utx.uz")
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0x08
	writeFile(t, "redir/DemoTex.utx.uz", data)
	writeFile(t, "old/DM-Second.unr", readFile(t, "Maps/DM-Demo.unr"))
	if _, errOut, code := runCLI(t, "uz", "compress", "--allow-bigger", "--force", "-o", "redir", "old/DM-Second.unr"); code != exitOK {
		t.Fatal(errOut)
	}
	writeFile(t, "redir/stray.txt", []byte("?"))
	out = run(exitFindings, "redirect", "verify", "-o", "redir", "--json")
	golden(t, "redirect-verify-damaged.json", out)
	errs, kinds := verifyJSONOf(t, out)
	want := []string{"corrupt:DemoTex.utx.uz", "missing:DemoGame.u.uz", "outdated:DM-Second.unr.uz"}
	if !slices.Equal(errs, want) {
		t.Errorf("verify after damage: errors %v, want %v", errs, want)
	}
	if kinds["extra"] != 1 {
		t.Errorf("stray.txt not reported: %v", kinds)
	}
	golden(t, "redirect-verify-damaged.txt", run(exitFindings, "redirect", "verify", "-o", "redir"))

	// A build repairs them; verify is clean again.
	out = run(exitOK, "redirect", "build", "-o", "redir", "--allow-bigger", "--lowercase")
	for _, want := range []string{"create  DemoGame.u.uz", "update  DemoTex.utx.uz", "update  DM-Second.unr.uz"} {
		if !strings.Contains(out, want) {
			t.Errorf("repair build lacks %q:\n%s", want, out)
		}
	}
	out = run(exitOK, "redirect", "verify", "-o", "redir", "--json")
	if errs, _ := verifyJSONOf(t, out); len(errs) > 0 {
		t.Errorf("verify after repair: %v", errs)
	}
}

func TestRedirectUsage(t *testing.T) {
	chdirDemo(t)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"redirect", "build"}, exitError, "-o"},
		{[]string{"redirect", "build", "-o", "r", "--maps", "[x"}, exitError, "--maps"},
		{[]string{"redirect", "build", "-o", "r", "--maps", "CTF-*"}, exitError, "matches none"},
		{[]string{"redirect", "verify"}, exitError, "-o DIR (--output) is required"},
		{[]string{"redirect", "verify", "-o", "a", "b"}, exitError, "given twice"},
		{[]string{"redirect", "verify", "-o", "nosuchdir"}, exitError, "nosuchdir"},
		{[]string{"redirect", "verify", "nosuchdir"}, exitError, "redirect verify DIR is deprecated: use -o DIR\n"},
	} {
		_, errOut, code := runCLI(t, append(tc.args, "--ini", demo.Ini)...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: code %d, stderr %q; want %d and %q", tc.args, code, errOut, tc.code, tc.want)
		}
	}
	// --maps selects: DM-Second needs none of DemoGame's packages.
	out, errOut, code := runCLI(t, "redirect", "build", "--ini", demo.Ini, "-o", "r", "--maps", "dm-sec*", "--dry-run", "--json")
	if code != exitOK {
		t.Fatalf("--maps: code %d, %q", code, errOut)
	}
	var rep struct {
		Maps    []string `json:"maps"`
		Actions []struct {
			File string `json:"file"`
		} `json:"actions"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, a := range rep.Actions {
		files = append(files, a.File)
	}
	if !slices.Equal(rep.Maps, []string{"DM-Second"}) || slices.Contains(files, "DM-Demo.unr.uz") || !slices.Contains(files, "DemoTex.utx.uz") {
		t.Errorf("--maps dm-sec*: maps %v, files %v", rep.Maps, files)
	}
}
