// Package scripts holds the tests of the project's shell scripts.
package scripts

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestCheckSizes runs check-sizes.sh on a throwaway repository: a 2 MiB
// file fails it, naming the file, until the allow-list names it with a
// reason; a line without a reason fails too.
func TestCheckSizes(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("check-sizes.sh is a bash script; CI runs it on Linux")
	}
	for _, tool := range []string{"bash", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found", tool)
		}
	}
	script, err := filepath.Abs("check-sizes.sh")
	if err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	run := func(name string, args ...string) (string, error) {
		cmd := exec.Command(name, args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		return out.String(), err
	}
	write := func(name string, data []byte) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(repo, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := run("git", "add", name); err != nil {
			t.Fatalf("git add: %v\n%s", err, out)
		}
	}
	if out, err := run("git", "init", "-q"); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	write("small.txt", []byte("hello\n"))
	if out, err := run("bash", script); err != nil {
		t.Fatalf("small files only: %v\n%s", err, out)
	}

	write("big/blob.bin", make([]byte, 2<<20))
	out, err := run("bash", script)
	if err == nil || !strings.Contains(out, "big/blob.bin: 2097152 bytes") {
		t.Fatalf("2 MiB file: err %v, want a failure naming it; output:\n%s", err, out)
	}

	write(".ci/large-files.txt", []byte("big/blob.bin\n"))
	out, err = run("bash", script)
	if err == nil || !strings.Contains(out, "has no reason") {
		t.Fatalf("allow-list line without a reason: err %v, want a failure; output:\n%s", err, out)
	}

	write(".ci/large-files.txt", []byte("# comment\nbig/blob.bin\ta test fixture\n"))
	if out, err := run("bash", script); err != nil {
		t.Fatalf("allow-listed file: %v\n%s", err, out)
	}
}
