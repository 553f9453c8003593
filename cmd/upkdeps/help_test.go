package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigUnknownKey: a misspelt key of upkdeps.yaml is exit 2 naming
// the key, its line and the nearest valid key; known keys pass.
func TestConfigUnknownKey(t *testing.T) {
	t.Chdir(t.TempDir())
	write := func(s string) {
		t.Helper()
		if err := os.WriteFile("upkdeps.yaml", []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("jobs: 2\nfial-on: warning\n")
	_, errOut, code := runCLI(t, "version")
	if code != exitError || !strings.Contains(errOut, `upkdeps.yaml:2: unknown key "fial-on"; did you mean fail-on?`) {
		t.Errorf("misspelt key: code %d, stderr %q", code, errOut)
	}
	write("platfrom: linux\n")
	if _, errOut, code := runCLI(t, "version"); code != exitError || !strings.Contains(errOut, "did you mean platform?") {
		t.Errorf("platfrom: code %d, stderr %q", code, errOut)
	}
	write("jobs: 2\ngame: ut99\nfail-on: none\ndisable: [shadowed]\ndb: x.db\nindex: y.db\n")
	if _, errOut, code := runCLI(t, "version"); code != exitOK {
		t.Errorf("known keys: code %d, stderr %q", code, errOut)
	}
}

// TestDidYouMeanPackage: a misspelt package name on the command line gets
// the nearest one of the install.
func TestDidYouMeanPackage(t *testing.T) {
	_, errOut, code := runCLI(t, "why", "--ini", demoIni, "DM-Dmeo")
	if code != exitError || !strings.Contains(errOut, "DM-Dmeo: no such package in the install; did you mean DM-Demo?") {
		t.Errorf("why DM-Dmeo: code %d, stderr %q", code, errOut)
	}
	_, errOut, code = runCLI(t, "deps", "--ini", demoIni, "DemoBsae")
	if code != exitError || !strings.Contains(errOut, "did you mean DemoBase?") {
		t.Errorf("deps DemoBsae: code %d, stderr %q", code, errOut)
	}
	_, errOut, _ = runCLI(t, "why", "--ini", demoIni, "Zzzzzzzz")
	if strings.Contains(errOut, "did you mean") {
		t.Errorf("nothing close, yet: %q", errOut)
	}
}

// TestCompletion: flag values and the install's package names complete.
func TestCompletion(t *testing.T) {
	ini, _ := filepath.Abs(demoIni)
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"__complete", "check", "--game", ""}, []string{"ut99\t", "ut2004\t"}},
		{[]string{"__complete", "check", "--platform", ""}, []string{"windows\t", "linux\t"}},
		{[]string{"__complete", "check", "--format", ""}, []string{"sarif\n", "github\n", "checkstyle\n"}},
		{[]string{"__complete", "order", "--format", ""}, []string{"sarif\n"}},
		{[]string{"__complete", "check", "--fail-on", ""}, []string{"warning\n", "none\n"}},
		{[]string{"__complete", "check", "--disable", ""}, []string{"missing_package\t"}},
		{[]string{"__complete", "why", "--ini", ini, "DM-"}, []string{"DM-Demo\n", "DM-Second\n"}},
		{[]string{"__complete", "deps", "--ini", ini, "demob"}, []string{"DemoBase\n"}},
	} {
		out, _, code := runCLI(t, c.args...)
		for _, w := range c.want {
			if code != exitOK || !strings.Contains(out, w) {
				t.Errorf("%v: code %d, want %q in\n%s", c.args, code, w, out)
			}
		}
	}
}
