//go:build unix

package main

import (
	"fmt"
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
		{[]string{"redirect", "build", "--dry-run", "-o", "Redirect"}, "not a regular file (a named pipe)"},
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

// TestFIFOPathsDoNotBlock puts named pipes where the tool reads its config,
// writes an output, or takes an input to index or to check a mod from:
// every command returns at once with an error naming the pipe, where the
// open used to wait for a writer forever (and ignored Ctrl-C).
func TestFIFOPathsDoNotBlock(t *testing.T) {
	dir := chdirDemo(t)
	fifo := func(name string) string {
		p := filepath.Join(dir, name)
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Skipf("cannot make a named pipe: %v", err)
		}
		return name
	}
	db := filepath.Join(t.TempDir(), "index.db")
	tests := []struct {
		name string
		args []string
		want string // in stderr
	}{
		{"--config", []string{"info", "System/Core.u", "--config", fifo("conf.yaml")}, "config file conf.yaml: not a regular file (a named pipe)"},
		{"report -o", []string{"report", "--ini", demo.Ini, "-o", fifo("r.html")}, "r.html: not a regular file (a named pipe)"},
		{"report -o --force", []string{"report", "--ini", demo.Ini, "--force", "-o", fifo("r2.html")}, "r2.html: not a regular file (a named pipe)"},
		{"graph -o", []string{"graph", "--ini", demo.Ini, "-o", fifo("g.dot")}, "g.dot: not a regular file (a named pipe)"},
		{"index add X.u", []string{"index", "add", "--index", db, fifo("X.u")}, "X.u: not a regular file (a named pipe)"},
		{"index add X.zip", []string{"index", "add", "--index", db, fifo("X.zip")}, "X.zip: not a regular file (a named pipe)"},
		{"check --with X.zip", []string{"check", "--ini", demo.Ini, "--with", fifo("M.zip")}, "M.zip: not a regular file (a named pipe)"},
		// Last: the pipe in the current folder is read by every command.
		{"./upkdeps.yaml", []string{"info", "System/Core.u"}, "config file upkdeps.yaml: not a regular file (a named pipe)"},
	}
	for _, tt := range tests {
		if tt.name == "./upkdeps.yaml" {
			fifo("upkdeps.yaml")
		}
		done := make(chan [2]string, 1)
		go func() {
			out, errOut, code := runCLI(t, tt.args...)
			done <- [2]string{out, fmt.Sprintf("exit %d: %s", code, errOut)}
		}()
		select {
		case r := <-done:
			if !strings.Contains(r[1], tt.want) || !strings.HasPrefix(r[1], "exit 2") {
				t.Errorf("%s: want exit 2 and %q in stderr, have %s\nstdout: %s", tt.name, tt.want, r[1], r[0])
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%s blocked on a named pipe", tt.name)
		}
	}
}

// TestFIFOManifestDoesNotBlock: a named pipe called manifest.json in a
// redirect folder is not waited on: build reports it, verify finishes.
func TestFIFOManifestDoesNotBlock(t *testing.T) {
	dir := chdirDemo(t)
	if err := os.MkdirAll(filepath.Join(dir, "Redir"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "Redir", "manifest.json"), 0o644); err != nil {
		t.Skipf("cannot make a named pipe: %v", err)
	}
	for _, args := range [][]string{
		{"redirect", "build", "--ini", demo.Ini, "-o", "Redir", "--dry-run", "--no-progress"},
		{"redirect", "verify", "--ini", demo.Ini, "-o", "Redir"},
	} {
		done := make(chan string, 1)
		go func() {
			out, errOut, code := runCLI(t, args...)
			done <- fmt.Sprintf("exit %d\n%s%s", code, out, errOut)
		}()
		select {
		case out := <-done:
			if args[1] == "build" && !strings.Contains(out, "manifest.json: ignored (") {
				t.Errorf("%v: manifest.json not named:\n%s", args[:2], out)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%v blocked on a named pipe", args[:2])
		}
	}
}

// TestGraphOutputCheckedFirst: graph refuses a named pipe as -o before
// it opens the install and builds the graph (it built the whole graph
// first): with an ini that does not exist, the pipe is what it names.
func TestGraphOutputCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "g.dot")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("cannot make a named pipe: %v", err)
	}
	_, errOut, code := runCLI(t, "graph", "--ini", filepath.Join(dir, "none", "System", "No.ini"), "-o", p)
	if code != 2 || !strings.Contains(errOut, "g.dot: not a regular file (a named pipe)") {
		t.Errorf("exit %d, want 2 and the pipe refused: %s", code, errOut)
	}
}
