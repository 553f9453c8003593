package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLibrariesStayLibraries enforces that library packages never pull in
// the command-line stack (cobra, viper): only cmd/upkdeps may.
func TestLibrariesStayLibraries(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go command not found")
	}
	out, err := exec.Command(gobin, "list", "-f", `{{.ImportPath}} {{join .Deps " "}}`, "github.com/upkdeps/upkdeps/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, deps, _ := strings.Cut(line, " ")
		if strings.HasPrefix(pkg, "github.com/upkdeps/upkdeps/cmd/") || strings.Contains(pkg, "/internal/demo/gendemo") {
			continue
		}
		for _, d := range strings.Fields(deps) {
			if strings.HasPrefix(d, "github.com/spf13/cobra") || strings.HasPrefix(d, "github.com/spf13/viper") {
				t.Errorf("library package %s depends on %s", pkg, d)
			}
		}
	}
}
