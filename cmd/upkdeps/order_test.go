package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOrderUnknownClassAndSummary: a source whose parent class exists
// nowhere makes the order not valid, and the summary says which entries
// were read from sources, which from a .u and which from nothing.
func TestOrderUnknownClassAndSummary(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"System/Game.ini": "[Core.System]\nPaths=../System/*.u\n[Editor.EditorEngine]\nEditPackages=Core\nEditPackages=Engine\n" +
			"EditPackages=Ghost\nEditPackages=Mod\n",
		"Core/Classes/Object.uc":  "class Object native;\n",
		"Engine/Classes/Actor.uc": "class Actor extends Object native;\n",
		"Mod/Classes/BarB.uc":     "class BarB extends NoSuchParentClass;\n",
	}
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, errOut, code := runCLI(t, "order", "--ini", filepath.Join(root, "System", "Game.ini"))
	for _, want := range []string{
		"Read from sources (Classes/*.uc): Core Engine Mod\n",
		"Neither sources nor a compiled .u (nothing to check): Ghost\n",
		"The order is NOT valid.\n",
		"WARNING unknown_class: Mod\n",
		"  evidence:\n    Mod/Classes/BarB.uc:1: class BarB extends NoSuchParentClass;\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s\nstderr %s", want, out, errOut)
		}
	}
	if strings.Contains(out, "compiled .u:") || strings.Contains(out, "Suggested order") || code != exitFindings {
		t.Errorf("exit %d; a summary of compiled packages where there are none, or the same order suggested:\n%s", code, out)
	}
}
