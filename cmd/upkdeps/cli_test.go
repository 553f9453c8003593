package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// runCLI runs upkdeps with args and returns stdout, stderr and the exit code.
func runCLI(t testing.TB, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

// golden compares have with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, have string) {
	t.Helper()
	path := filepath.Join(goldenDir(t), name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(have), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden file: %v (run go test ./cmd/upkdeps -update to create it)", err)
	}
	if have != string(want) && !(runtime.GOOS == "windows" && sameButSeparators(have, string(want))) {
		t.Errorf("output differs from %s (rerun with -update after checking):\n--- have\n%s\n--- want\n%s", path, have, want)
	}
}

// sameButSeparators reports whether a and b differ only in path separators,
// "\" (or "\\" in JSON) against "/": what the golden files, written on
// Linux, hold for the paths a Windows run prints natively.
func sameButSeparators(a, b string) bool {
	norm := func(s string) string {
		return strings.ReplaceAll(strings.ReplaceAll(s, `\\`, "/"), `\`, "/")
	}
	return norm(a) == norm(b)
}

// goldenDir is cmd/upkdeps/testdata, wherever the test has chdir'ed to.
var goldenRoot string

func init() {
	goldenRoot, _ = filepath.Abs("testdata")
}

func goldenDir(*testing.T) string { return goldenRoot }

func TestUsage(t *testing.T) {
	_, errOut, code := runCLI(t, "info")
	if code != exitError || !strings.Contains(errOut, "requires at least 1 arg") {
		t.Errorf("info without files: code %d, stderr %q", code, errOut)
	}
	_, _, code = runCLI(t, "nosuchcommand")
	if code != exitError {
		t.Errorf("unknown command: code %d, want %d", code, exitError)
	}
	_, _, code = runCLI(t, "info", "--nosuchflag", "x")
	if code != exitError {
		t.Errorf("unknown flag: code %d, want %d", code, exitError)
	}
	out, _, code := runCLI(t, "completion", "bash")
	if code != exitOK || !strings.Contains(out, "upkdeps") {
		t.Errorf("completion bash: code %d", code)
	}
}

func TestConfigPrecedence(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("upkdeps.yaml", []byte("jobs: 3\ngame: ut99\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	load := func(args ...string) Config {
		t.Helper()
		a := &app{stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}
		root := newRootCmd(a)
		root.SetArgs(append([]string{"info"}, append(args, "nofile")...))
		root.Execute()
		return a.cfg
	}
	if c := load(); c.Jobs != 3 || c.Game != "ut99" || c.Config != "upkdeps.yaml" {
		t.Errorf("file: have %+v", c)
	}
	t.Setenv("UPKDEPS_JOBS", "5")
	if c := load(); c.Jobs != 5 {
		t.Errorf("env over file: jobs %d, want 5", c.Jobs)
	}
	if c := load("--jobs", "7"); c.Jobs != 7 {
		t.Errorf("flag over env: jobs %d, want 7", c.Jobs)
	}
	if _, _, code := runCLI(t, "--jobs", "-1", "info", "x"); code != exitError {
		t.Errorf("negative jobs: code %d, want %d", code, exitError)
	}
	if _, errOut, code := runCLI(t, "--config", "missing.yaml", "info", "x"); code != exitError || !strings.Contains(errOut, "missing.yaml") {
		t.Errorf("explicit missing config: code %d, stderr %q", code, errOut)
	}
}
