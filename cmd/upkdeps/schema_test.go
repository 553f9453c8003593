package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/internal/demo"
)

// TestEveryJSONHasSchemaVersion runs every command that has --json on the
// demo install and checks that it prints one object with a schema_version
// (docs/json.md), never a bare array; a new command with --json fails here
// until it is added to the table.
func TestEveryJSONHasSchemaVersion(t *testing.T) {
	dir := chdirDemo(t)
	db := filepath.Join(t.TempDir(), "index.db")
	logFile := filepath.Join(t.TempDir(), "UnrealTournament.log")
	if err := os.WriteFile(logFile, []byte("Warning: Failed to load DemoFX: Can't find file for package DemoFX..\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runs := map[string][]string{
		"info":            {"info", "--json", "System/DemoBase.u"},
		"check":           {"check", "--ini", demo.Ini, "--json"},
		"order":           {"order", "--ini", demo.Ini, "--json"},
		"deps":            {"deps", "--ini", demo.Ini, "--json", "DM-Demo"},
		"rdeps":           {"rdeps", "--ini", demo.Ini, "--json", "DemoBase"},
		"why":             {"why", "--ini", demo.Ini, "--json", "DM-Demo", "Engine"},
		"natives":         {"natives", "--ini", demo.Ini, "--json"},
		"headers":         {"headers", "--ini", demo.Ini, "--check", "--json"},
		"resolve":         {"resolve", "--ini", demo.Ini, "--json", "DemoBase"},
		"downloads":       {"downloads", "--ini", demo.Ini, "--json"},
		"unused":          {"unused", "--ini", demo.Ini, "--json"},
		"livemap":         {"livemap", "--ini", demo.Ini, "--json"},
		"compare":         {"compare", "--ini", demo.Ini, "--client", demo.Ini, "--json"},
		"explain":         {"explain", "--ini", demo.Ini, "--json", logFile},
		"cache list":      {"cache", "list", "--ini", demo.Ini, "--json"},
		"cache verify":    {"cache", "verify", "--ini", demo.Ini, "--json"},
		"redirect build":  {"redirect", "build", "--ini", demo.Ini, "-o", filepath.Join(dir, "redirect"), "--json"},
		"redirect verify": {"redirect", "verify", "--ini", demo.Ini, "--json", "-o", filepath.Join(dir, "redirect")},
		"index add":       {"index", "add", "--index", db, "--json", filepath.Join(dir, "Mods")},
		"index list":      {"index", "list", "--index", db, "--json"},
		"index stats":     {"index", "stats", "--index", db, "--json"},
		"find":            {"find", "--index", db, "--json", "DemoBase"},
		"plan":            {"plan", "--ini", demo.Ini, "--game", "ut99", "--index", db, "--json"},
		"fix":             {"fix", "--ini", demo.Ini, "--index", db, "--dry-run", "--json"},
		"index remove":    {"index", "remove", "--index", db, "--json", filepath.Join(dir, "Mods")},
		"version":         {"version", "--json"},
	}
	order := []string{"info", "check", "order", "deps", "rdeps", "why", "natives", "headers", "resolve", "downloads",
		"unused", "livemap", "compare", "explain", "cache list", "cache verify", "redirect build", "redirect verify", "index add", "index list", "index stats",
		"find", "plan", "fix", "index remove", "version"}
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Flags().Lookup("json") != nil || c.InheritedFlags().Lookup("json") != nil {
			name := strings.TrimPrefix(c.CommandPath(), "upkdeps ")
			if _, ok := runs[name]; !ok && c.Runnable() {
				t.Errorf("%s has --json but no run in this test", name)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(&app{}))
	for _, name := range order {
		out, errOut, code := runCLI(t, runs[name]...)
		if code == exitError {
			t.Errorf("%s: exit %d, stderr %q", name, code, errOut)
			continue
		}
		var doc map[string]json.RawMessage
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Errorf("%s --json is not one object: %v\n%.200s", name, err, out)
			continue
		}
		var v int
		if err := json.Unmarshal(doc["schema_version"], &v); err != nil || v < 1 {
			t.Errorf("%s --json: schema_version %s", name, doc["schema_version"])
		}
	}
}
