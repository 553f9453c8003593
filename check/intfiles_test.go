package check

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/install"
)

// TestIntFindings: a ServerPackages line naming Foo.int is an error on its
// line; an .int naming a missing class is a warning with the file and
// line; an .int of no package is a warning, one of a program is not.
func TestIntFindings(t *testing.T) {
	root := t.TempDir()
	sys := filepath.Join(root, "System")
	if err := os.MkdirAll(sys, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(sys, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("Test.ini", "[Engine.Engine]\nGameEngine=Engine.GameEngine\n\n[Core.System]\nPaths=../System/*.u\n\n"+
		"[Engine.GameEngine]\nServerPackages=MyMod\nServerPackages=MyMod.int\n")
	b := format.NewBuilder(69, 0)
	b.Export(0, "MutA", 0, b.ImportPath("Engine.Mutator", "Core", "Class"), 10)
	if err := format.WriteFile(filepath.Join(sys, "MyMod.u"), b.File); err != nil {
		t.Fatal(err)
	}
	write("MyMod.int", "[Public]\r\nObject=(Name=MyMod.MutA,Class=Class,MetaClass=Engine.Mutator)\r\nObject=(Name=MyMod.Gone,Class=Class,MetaClass=Engine.Mutator)\r\n")
	write("Leftover.int", "[Public]\n")
	write("Setup.int", "[Setup]\n")
	write("Setup.exe", "MZ")
	in, err := install.Open(install.Options{Ini: filepath.Join(sys, "Test.ini"), Game: "ut99"})
	if err != nil {
		t.Fatal(err)
	}
	got := IntFindings(in, 2, func(msg string) { t.Errorf("warning: %s", msg) })
	want := []struct {
		kind graph.FindingKind
		sev  graph.Severity
		root string
		msg  string
	}{
		{IntServerPackage, graph.Error, "Test.ini:9 ServerPackages=MyMod.int", "BuildServerMasterMap"},
		{IntOrphan, graph.Warning, "System/Leftover.int", "no package of that name"},
		{IntMissingClass, graph.Warning, "MyMod.int:3 Object=(Name=MyMod.Gone,Class=Class,MetaClass=Engine.Mutator)", "exports no class Gone"},
	}
	if len(got) != len(want) {
		t.Fatalf("have %d findings, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Kind != w.kind || g.Severity != w.sev || len(g.Roots) != 1 || g.Roots[0] != w.root || !strings.Contains(g.Message, w.msg) {
			t.Errorf("finding %d = %s %s %q %q, want %s %s %q containing %q", i, g.Kind, g.Severity, g.Roots, g.Message, w.kind, w.sev, w.root, w.msg)
		}
	}
}
