//go:build unix

package main

import (
	"encoding/json"
	"io/fs"
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
		out, err := runAs(bin, 65534, args...)
		if err != nil || strings.Contains(out, "readonly") || strings.Contains(out, "upkdeps: ") {
			t.Errorf("%v as nobody: %v\n%s", args, err, out)
		}
	}
	if after := snapshot(t, dir); len(diffSnapshots(after, before)) > 0 {
		t.Errorf("the read commands changed the folder:\n%s", diffSnapshots(after, before))
	}
	// fix, given an install nobody may change and an index it may not
	// write, reads the index and copies.
	game := filepath.Join(dir, "game")
	filepath.WalkDir(game, func(p string, _ fs.DirEntry, _ error) error { return os.Chown(p, 65534, 65534) })
	if out, err := runAs(bin, 65534, "fix", "--ini", ini, "--game", "ut99", "--db", db, "--no-progress"); err != nil || !strings.Contains(out, "copied   System/ModA.u") {
		t.Errorf("fix as nobody with a read-only index: %v\n%s", err, out)
	}
}

// runAs runs the test binary bin as the command line args, as user uid,
// and returns its output; exit 1 (findings) is no error.
func runAs(bin string, uid uint32, args ...string) (string, error) {
	argsJSON, _ := json.Marshal(args)
	cmd := exec.Command(bin, "-test.run=^$")
	cmd.Dir = os.TempDir()
	cmd.Env = append(os.Environ(), killArgsEnv+"="+string(argsJSON), killAtEnv+"=0", "HOME=/nonexistent")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: uid}}
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() <= exitFindings {
		err = nil
	}
	return string(out), err
}
