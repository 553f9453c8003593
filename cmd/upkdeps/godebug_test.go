package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestGodebugMux checks that the command carries godebug.go's setting
// (go list gives the binary's default GODEBUG), and that no package of
// the module imports net/http, so that no pattern of ours is read by the
// older mux.
func TestGodebugMux(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go command not found")
	}
	out, err := exec.Command(gobin, "list", "-f", "{{.DefaultGODEBUG}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	if !slices.Contains(strings.Split(strings.TrimSpace(string(out)), ","), "httpmuxgo121=1") {
		t.Errorf("the command's default GODEBUG lacks httpmuxgo121=1: %q", out)
	}
	out, err = exec.Command(gobin, "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "github.com/upkdeps/upkdeps/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, " ")
		if slices.Contains(strings.Fields(imports), "net/http") {
			t.Errorf("%s imports net/http: check godebug.go's httpmuxgo121 against its patterns", pkg)
		}
	}
}
