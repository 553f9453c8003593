package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/internal/testutil"
)

// TestIndexAddFailureLeavesNoIndex: an index add that adds nothing does
// not create the database; a real add, and the readers after it, leave
// no -wal or -shm file beside it.
func TestIndexAddFailureLeavesNoIndex(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "index.db")
	if _, _, code := runCLI(t, "index", "add", "--index", db, filepath.Join(dir, "nonexistent")); code != exitError {
		t.Fatalf("index add of nothing: code %d", code)
	}
	if names := testutil.DirNames(t, dir); len(names) != 0 {
		t.Fatalf("a failed index add left %v", names)
	}
	if _, errOut, code := runCLI(t, "plan", "--index", db, "--ini", demoIni); code != exitError || !strings.Contains(errOut, "index add") {
		t.Errorf("plan after a failed add: code %d, %s", code, errOut)
	}
	if _, errOut, code := runCLI(t, "index", "add", "--index", db, filepath.Join("..", "..", "testdata", "demo")); code == exitError {
		t.Fatalf("index add: %s", errOut)
	}
	runCLI(t, "find", "--index", db, "CityTex")
	runCLI(t, "check", "--ini", demoIni, "--index", db)
	runCLI(t, "index", "stats", "--index", db)
	if names := testutil.DirNames(t, dir); strings.Join(names, ",") != "index.db" {
		t.Errorf("beside the index: %v", names)
	}
	// A failed add to an index that exists keeps it.
	runCLI(t, "index", "add", "--index", db, filepath.Join(dir, "nonexistent"))
	if _, err := os.Stat(db); err != nil {
		t.Errorf("the index went away: %v", err)
	}
}

// TestFixPlanJSONIndex: fix and plan name the index "index" (schema 2).
func TestFixPlanJSONIndex(t *testing.T) {
	demo := copyDemo(t)
	db := filepath.Join(t.TempDir(), "i.db")
	if _, errOut, code := runCLI(t, "index", "add", "--index", db, demo); code == exitError {
		t.Fatal(errOut)
	}
	ini := filepath.Join(demo, "System", "Demo.ini")
	for _, args := range [][]string{
		{"fix", "--ini", ini, "--index", db, "--dry-run", "--json"},
		{"plan", "--ini", ini, "--game", "ut99", "--index", db, "--json"},
	} {
		out, errOut, code := runCLI(t, args...)
		if code == exitError {
			t.Fatalf("%v: %s", args, errOut)
		}
		var doc map[string]any
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		if doc["schema_version"] != float64(2) || doc["index"] != db || doc["db"] != nil {
			t.Errorf("%s: schema %v, index %v, db %v", args[0], doc["schema_version"], doc["index"], doc["db"])
		}
	}
}

// TestRedirectDryRunWithoutOutput: --dry-run needs no -o (a new folder's
// actions); a real build still does.
func TestRedirectDryRunWithoutOutput(t *testing.T) {
	wd, _ := os.Getwd()
	t.Chdir(t.TempDir()) // nothing may be written here
	ini := filepath.Join(wd, demoIni)
	out, errOut, code := runCLI(t, "redirect", "build", "--ini", ini, "--dry-run")
	if code == exitError || !strings.Contains(out, "-> a new folder (no -o)") || !strings.Contains(out, "create  DemoBase.u.uz") {
		t.Errorf("dry run without -o: code %d\n%s%s", code, out, errOut)
	}
	jsonOut, _, _ := runCLI(t, "redirect", "build", "--ini", ini, "--dry-run", "--json")
	if !strings.Contains(jsonOut, `"out": ""`) || strings.Contains(jsonOut, "upkdeps-dry-run") {
		t.Errorf("JSON names a folder:\n%s", jsonOut)
	}
	if names := testutil.DirNames(t, "."); len(names) != 0 {
		t.Errorf("wrote %v", names)
	}
	if _, errOut, code := runCLI(t, "redirect", "build", "--ini", ini); code != exitError || !strings.Contains(errOut, "-o DIR") {
		t.Errorf("build without -o: code %d, %s", code, errOut)
	}
}
