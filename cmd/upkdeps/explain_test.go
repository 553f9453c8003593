package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExplainCommand: a log line (from OldUnreal/UnrealTournamentPatches
// issue 1126, a package the demo lacks) answered against
// the demo install, and one line explain does not read (from issue 1816).
func TestExplainCommand(t *testing.T) {
	chdirDemo(t)
	logFile := filepath.Join(t.TempDir(), "UnrealTournament.log")
	text := "Log: LoadMap: Entry\r\nWarning: Failed to load TNaliMeshSkins: Can't find file for package TNaliMeshSkins..\r\n" +
		"Failed to load UTBrowser: Can't find IntProperty in file IntProperty\r\n" +
		// The form of issue 1126's line, with a package the demo misses.
		"Warning: Failed to load DemoExtras: Can't find file for package DemoExtras..\r\n"
	if err := os.WriteFile(logFile, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "explain", "--ini", "System/Demo.ini", logFile)
	if code != exitFindings {
		t.Fatalf("code %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{"line 2: PROBLEM cant_find TNaliMeshSkins", "why: TNaliMeshSkins is not in this install either", "fix: install TNaliMeshSkins",
		"line 3: NOT UNDERSTOOD", "2 line(s) explained, 2 problem(s), 1 not understood",
		"line 4: PROBLEM cant_find DemoExtras", "loaded because: "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if _, _, code := runCLI(t, "explain", filepath.Join(t.TempDir(), "none.log")); code != exitError {
		t.Errorf("a missing log: code %d, want %d", code, exitError)
	}
}
