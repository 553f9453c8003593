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
	out := goList(t, "-f", `{{.ImportPath}} {{join .Deps " "}}`, "github.com/upkdeps/upkdeps/...")
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
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
	const mod = "github.com/upkdeps/upkdeps/"
	out := goList(t, "-deps", "-f", `{{.ImportPath}} {{join .Imports " "}}`, mod+"...")
	allowed := map[string]bool{mod + "report": true, mod + "cmd/upkdeps": true}
	var importers []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
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

// TestGodebugMux checks that the command carries godebug.go's setting
// (go list gives the binary's default GODEBUG), and that no package of
// the module imports net/http, so that no pattern of ours is read by the
// older mux.
func TestGodebugMux(t *testing.T) {
	if out := goList(t, "-f", "{{.DefaultGODEBUG}}", "."); !slices.Contains(strings.Split(strings.TrimSpace(out), ","), "httpmuxgo121=1") {
		t.Errorf("the command's default GODEBUG lacks httpmuxgo121=1: %q", out)
	}
	out := goList(t, "-f", `{{.ImportPath}} {{join .Imports " "}}`, "github.com/upkdeps/upkdeps/...")
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		pkg, imports, _ := strings.Cut(line, " ")
		if slices.Contains(strings.Fields(imports), "net/http") {
			t.Errorf("%s imports net/http: check godebug.go's httpmuxgo121 against its patterns", pkg)
		}
	}
}

// goList runs go list with args and returns its output; it skips the
// test in -short mode or without the go command.
func goList(t *testing.T, args ...string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("runs go list")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go command not found")
	}
	out, err := exec.Command(gobin, append([]string{"list"}, args...)...).Output()
	if err != nil {
		t.Fatalf("go list %s: %v", strings.Join(args, " "), err)
	}
	return string(out)
}
