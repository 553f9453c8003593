package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/internal/demo"
)

// TestOrderUnknownClassAndSummary: a source whose parent class exists
// nowhere makes the order not valid, and the summary says which entries
// were read from sources and claims no compiled .u that does not exist.
// Ghost, which has neither sources nor a .u, comes after Mod: listed
// before it, Ghost could declare the parent, and the name would go
// unchecked (TestOrderUncheckedNote).
func TestOrderUnknownClassAndSummary(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"System/Game.ini": "[Core.System]\nPaths=../System/*.u\n[Editor.EditorEngine]\nEditPackages=Core\nEditPackages=Engine\n" +
			"EditPackages=Mod\nEditPackages=Ghost\n",
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
		"The order is NOT valid (from the 3 of 4 entries checked).\n",
		"ERROR unknown_class: Mod\n", // Mod has no .u: ucc make rebuilds it and fails
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

// TestCheckIniLists: check reports a ServerPackages entry listed twice and
// one in a section the engine does not read, naming the lines.
func TestCheckIniLists(t *testing.T) {
	dir := chdirDemo(t)
	p := filepath.Join(dir, filepath.FromSlash(demo.Ini))
	text, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	text = append(text, "\n[Engine.GameEngine]\nServerPackages=demoskins\n[Engine.GameInfo]\nServerPackages=DemoGame\n"...)
	if err := os.WriteFile(p, text, 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, _ := runCLI(t, "check", "--ini", demo.Ini, "--json")
	for _, want := range []string{
		`"kind": "ini_repeat"`,
		`"message": "Demo.ini:43 ServerPackages=demoskins repeats, in another case, Demo.ini:24 ServerPackages=DemoSkins: one line is enough"`,
		`"kind": "ini_section"`,
		`it reads [Engine.GameEngine]"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %s in:\n%s\nstderr %s", want, out, errOut)
		}
	}
}

// TestOrderUncheckedNote: with the first two entries absent (neither
// sources nor a .u), a name they could declare is no unknown_class: one
// note names both, the order is valid from what was checked, exit 0.
func TestOrderUncheckedNote(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"System/Game.ini": "[Core.System]\nPaths=../System/*.u\n[Editor.EditorEngine]\nEditPackages=Core\nEditPackages=Engine\n" +
			"EditPackages=Mod\n",
		"Mod/Classes/BarB.uc": "class BarB extends SomeEngineClass;\nvar AnotherOne X;\nfunction F() { Abs(1); }\n",
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
		"Checked 1 of 3 entries",
		"The order of the 1 checked entries is valid.\n",
		"Note: Core, Engine have neither sources nor a .u: 2 name(s) not checked",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s\nstderr %s", want, out, errOut)
		}
	}
	if strings.Contains(out, "unknown_class:") || code != exitOK {
		t.Errorf("exit %d, or an unknown_class:\n%s", code, out)
	}
}
