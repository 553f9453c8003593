//go:build unix

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/upkdeps/upkdeps/internal/fsutil"
)

// TestReadOnlyIndexAsAnotherUser indexes as root, then runs the read
// commands as the user nobody, who may not write the database or its
// folder: each reads it (they used to fail with "attempt to write a
// readonly database"), and none creates a file there.
func TestReadOnlyIndexAsAnotherUser(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to run a command as another user")
	}
	dir := t.TempDir()
	ini, db := fixIndexed(t, dir)
	// Everyone may read and enter the folders up to the database, and run
	// a copy of this test binary.
	for d := dir; d != "/" && d != os.TempDir(); d = filepath.Dir(d) {
		os.Chmod(d, 0o755)
	}
	bin := filepath.Join(dir, "upkdeps.test")
	src, err := os.Open(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if err := fsutil.WriteAtomic(bin, src, 0o755); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)
	for _, args := range [][]string{
		{"find", "--db", db, "ModA"},
		{"index", "stats", "--db", db},
		{"index", "list", "--db", db},
		{"check", "--ini", ini, "--game", "ut99", "--index", db, "--no-progress"},
		{"fix", "--ini", ini, "--game", "ut99", "--db", db, "--dry-run", "--no-progress"},
	} {
		argsJSON, _ := json.Marshal(args)
		cmd := exec.Command(bin, "-test.run=^$")
		cmd.Dir = os.TempDir()
		cmd.Env = append(os.Environ(), killArgsEnv+"="+string(argsJSON), killAtEnv+"=0", "HOME=/nonexistent")
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() <= exitFindings {
			err = nil
		}
		if err != nil || strings.Contains(string(out), "readonly") || strings.Contains(string(out), "upkdeps: ") {
			t.Errorf("%v as nobody: %v\n%s", args, err, out)
		}
	}
	if after := snapshot(t, dir); len(diffSnapshots(after, before)) > 0 {
		t.Errorf("the read commands changed the folder:\n%s", diffSnapshots(after, before))
	}
}
