package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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

// TestOnlyReportImportsCheck enforces that package check (the check run
// and its report) is imported only by report and the command line: an
// install is opened and read through package install, and a library
// that needs one imports that.
func TestOnlyReportImportsCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go command not found")
	}
	const mod = "github.com/upkdeps/upkdeps/"
	out, err := exec.Command(gobin, "list", "-deps", "-f", `{{.ImportPath}} {{join .Imports " "}}`, mod+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	allowed := map[string]bool{mod + "report": true, mod + "cmd/upkdeps": true}
	var importers []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, " ")
		if slices.Contains(strings.Fields(imports), mod+"check") {
			importers = append(importers, pkg)
			if !allowed[pkg] {
				t.Errorf("%s imports check: open the install through package install", pkg)
			}
		}
	}
	if len(importers) == 0 {
		t.Errorf("nothing imports check: is the go list pattern right?\n%s", out)
	}
}

// TestCommandsOpenInstallsThroughInstall: the command line opens an
// install only with install.Open (openInstall, and compare's client):
// no file of it loads an ini, makes a search.Searcher or names another
// opener itself.
func TestCommandsOpenInstallsThroughInstall(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	banned := []string{"check.Open(", "ini.Load(", "ini.Locate(", "ini.Find(", "search.New("}
	opens := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src := string(data)
		for _, b := range banned {
			if strings.Contains(src, b) {
				t.Errorf("%s calls %s: open the install with install.Open", f, strings.TrimSuffix(b, "("))
			}
		}
		opens += strings.Count(src, "install.Open(")
	}
	if opens == 0 {
		t.Error("no file calls install.Open")
	}
}
