package graph

import (
	"context"
	"slices"
	"testing"

	"github.com/upkdeps/upkdeps/ini"
)

// TestDepsOf: deps lists the chain Map -> Mod -> Engine by depth with the
// package each was reached through, and a missing package sets Missing;
// rdeps of Engine adds the ini line that names Mod one hop past it.
func TestDepsOf(t *testing.T) {
	f, err := ini.Parse("Server.ini", []byte("[Engine.GameEngine]\nServerPackages=Mod\n"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeSpecs(t, dir, []pkgSpec{
		{file: "Engine.u", exports: []string{"Actor:Class"}},
		{file: "Mod.u", imports: []string{"Engine.Actor:Core.Class"}, exports: []string{"Thing:Class"}},
		{file: "Map.unr", imports: []string{"Mod.Thing:Core.Class", "Gone.Tex:Engine.Texture"}},
	})
	g, err := Build(context.Background(), dirResolver{dir}, Options{Jobs: 2, Roots: RootsOf(f, 1)})
	if err != nil {
		t.Fatal(err)
	}
	deps := g.DepsOf(g.Package("Map"), -1, false)
	want := []DepEntry{
		{Name: "Gone", Depth: 1, Via: "Map", Kind: "missing"},
		{Name: "Mod", File: "Mod.u", Depth: 1, Via: "Map", Kind: "code"},
		{Name: "Engine", File: "Engine.u", Depth: 2, Via: "Mod", Kind: "code"},
	}
	if !deps.Missing || deps.Package != "Map" || !slices.Equal(deps.Entries, want) {
		t.Errorf("deps Map: missing %v\nhave %+v\nwant %+v", deps.Missing, deps.Entries, want)
	}
	if d := g.DepsOf(g.Package("Map"), 1, false); len(d.Entries) != 2 {
		t.Errorf("deps Map --depth 1: %+v, want the two direct imports", d.Entries)
	}
	rdeps := g.DepsOf(g.Package("Engine"), -1, true)
	want = []DepEntry{
		{Name: "Mod", File: "Mod.u", Depth: 1, Via: "Engine", Kind: "code"},
		{Name: "Map", File: "Map.unr", Depth: 2, Via: "Mod", Kind: "map"},
		{Name: "ServerPackages=Mod", File: "Server.ini:2", Depth: 2, Via: "Mod", Kind: "ini", Line: 2},
	}
	if rdeps.Missing || !slices.Equal(rdeps.Entries, want) {
		t.Errorf("rdeps Engine:\nhave %+v\nwant %+v", rdeps.Entries, want)
	}
}
