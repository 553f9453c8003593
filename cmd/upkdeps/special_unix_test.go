//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/upkdeps/upkdeps/internal/demo"
)

// TestSpecialFilesDoNotBlock puts named pipes with package names in Paths
// folders and the cache (nobody ever writes to them: opening one for
// reading would wait forever). Every reader reports them as files that
// cannot be read, and finishes.
func TestSpecialFilesDoNotBlock(t *testing.T) {
	dir := chdirDemo(t)
	for _, p := range []string{"Maps/X.unr", "System/Y.u", "Cache/pipe.uxx"} {
		if err := syscall.Mkfifo(filepath.Join(dir, p), 0o644); err != nil {
			t.Skipf("cannot make a named pipe: %v", err)
		}
	}
	// A cache file that is a link to a pipe.
	if err := os.Symlink(filepath.Join(dir, "Cache/pipe.uxx"), filepath.Join(dir, "Cache/FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF.uxx")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want string // in stdout
	}{
		{[]string{"check"}, "Maps/X.unr cannot be read: not a regular file (a named pipe)"},
		{[]string{"order"}, ""},
		{[]string{"graph"}, "System/Y.u: unreadable"},
		{[]string{"resolve", "Y"}, ""},
		{[]string{"redirect", "build", "--dry-run", "--out", "Redirect"}, "not a regular file (a named pipe)"},
		{[]string{"cache", "list"}, "not_a_package"},
		{[]string{"info", "System/Y.u"}, ""},
	}
	for _, tt := range tests {
		args := append(tt.args, "--ini", demo.Ini)
		done := make(chan string, 1)
		go func() {
			out, errOut, _ := runCLI(t, args...)
			done <- out + errOut
		}()
		select {
		case out := <-done:
			if !strings.Contains(out, tt.want) {
				t.Errorf("%v: output lacks %q:\n%s", tt.args, tt.want, out)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%v blocked on a named pipe", tt.args)
		}
	}
}
