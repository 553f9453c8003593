package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/upkdeps/upkdeps/internal/demo"
)

// shared holds the fixtures that several tests read and none changes, each
// made once per test binary, in one temporary folder that TestMain removes
// after the tests: writing the generated 665-package installs and their
// report pages once, not once per test, saves seconds of every run.
var shared struct {
	mu   sync.Mutex
	root string
	m    map[string]*fixture
}

type fixture struct {
	once sync.Once
	err  error
}

// sharedFixture returns the folder name of the shared fixtures, which fill
// writes the first time a test asks for it. The test must not change it.
func sharedFixture(t *testing.T, name string, fill func(dir string) error) string {
	t.Helper()
	shared.mu.Lock()
	if shared.root == "" {
		root, err := os.MkdirTemp("", "upkdeps-shared-")
		if err != nil {
			shared.mu.Unlock()
			t.Fatal(err)
		}
		shared.root, shared.m = root, map[string]*fixture{}
	}
	f := shared.m[name]
	if f == nil {
		f = &fixture{}
		shared.m[name] = f
	}
	dir := filepath.Join(shared.root, name)
	shared.mu.Unlock()
	f.once.Do(func() {
		f.err = errors.New("its first writer stopped") // until fill returns
		f.err = fill(dir)
	})
	if f.err != nil {
		t.Fatalf("shared fixture %s: %v", name, f.err)
	}
	return dir
}

// removeShared removes the shared fixtures (TestMain, after the tests).
func removeShared() {
	if shared.root != "" {
		os.RemoveAll(shared.root)
	}
}

// server665 returns the generated server of 665 packages and 30 mods
// (demo.WriteServer); its ini is demo.ServerIni below it.
func server665(t *testing.T) string {
	return sharedFixture(t, "server665", func(dir string) error { return demo.WriteServer(dir, 665, 30) })
}

// server665Page returns report's page of server665.
func server665Page(t *testing.T) string {
	return reportOf(t, "server665.html", filepath.Join(server665(t), demo.ServerIni))
}

// bench665Page returns report's page of the generated 665-package install
// (demo.WriteBench).
func bench665Page(t *testing.T) string {
	dir := sharedFixture(t, "bench665", func(dir string) error { return demo.WriteBench(dir, 665) })
	return reportOf(t, "bench665.html", filepath.Join(dir, demo.BenchIni))
}

// reportOf returns the shared fixture name, a folder holding report's page
// of ini as page.html.
func reportOf(t *testing.T, name, ini string) string {
	dir := sharedFixture(t, name, func(dir string) error {
		if err := os.Mkdir(dir, 0o755); err != nil {
			return err
		}
		if _, errOut, code := runCLI(t, "report", "--no-progress", "--ini", ini, "-o", filepath.Join(dir, "page.html")); code == exitError {
			return fmt.Errorf("report: %s", errOut)
		}
		return nil
	})
	return filepath.Join(dir, "page.html")
}
