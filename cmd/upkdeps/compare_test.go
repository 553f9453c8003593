package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/format"
)

// TestCompareCommand: identical installs exit 0 with no finding; a client
// whose ModA has another GUID exits 1 with the player's error and the fix.
func TestCompareCommand(t *testing.T) {
	serverIni := writeVoteSysInstall(t)
	serverRoot := filepath.Dir(filepath.Dir(serverIni))
	clientRoot := filepath.Join(t.TempDir(), "client")
	if err := os.CopyFS(clientRoot, os.DirFS(serverRoot)); err != nil {
		t.Fatal(err)
	}
	clientIni := filepath.Join(clientRoot, "System", "Server.ini")
	out, errOut, code := runCLI(t, "compare", "--server", serverIni, "--client", clientIni, "--game", "ut99")
	if code != exitOK || !strings.Contains(out, "OK: the client resolves every package") {
		t.Fatalf("identical: code %d\n%s%s", code, out, errOut)
	}
	b := format.NewBuilder(69, 0)
	b.File.Flags = format.FlagAllowDownload
	b.File.GUID = format.GUID{7, 7, 7, 7}
	b.Export(0, "MutModA", 0, b.ImportPath("Engine.Mutator", "Core", "Class"), 10)
	if err := format.WriteFile(filepath.Join(clientRoot, "System", "ModA.u"), b.File); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = runCLI(t, "compare", "--server", serverIni, "--client", clientIni, "--game", "ut99", "--preset", "DM/Mods")
	if code != exitFindings {
		t.Fatalf("GUID differs: code %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{"ERROR version_mismatch: ModA", "the player sees: Failed to load ModA: Package ModA version mismatch", "fix: delete or replace the client's System/ModA.u"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if _, _, code := runCLI(t, "compare", "--server", serverIni); code != exitError {
		t.Errorf("without --client: code %d, want %d", code, exitError)
	}

	// The redirect folder built before ModA changed holds the old ModA.
	redirectDir := filepath.Join(t.TempDir(), "redirect")
	if _, errOut, code := runCLI(t, "redirect", "build", "--ini", serverIni, "--game", "ut99", "--preset", "DM/Mods", "--allow-bigger", "-o", redirectDir); code != exitOK {
		t.Fatalf("redirect build: %d %s", code, errOut)
	}
	for _, root := range []string{serverRoot, clientRoot} {
		if err := format.WriteFile(filepath.Join(root, "System", "ModA.u"), b.File); err != nil {
			t.Fatal(err)
		}
	}
	out, errOut, code = runCLI(t, "compare", "--server", serverIni, "--client", clientIni, "--game", "ut99", "--preset", "DM/Mods", "--redirect", redirectDir)
	if code != exitFindings || strings.Count(out, "\nERROR ") != 1 || !strings.Contains(out, "ERROR redirect_outdated: ModA") || !strings.Contains(out, "fix: rebuild the file from the server's System/ModA.u") {
		t.Errorf("redirect: code %d\n%s%s", code, out, errOut)
	}
}
