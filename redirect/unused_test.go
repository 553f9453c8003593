package redirect

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/search"
)

// TestLineCostsOnly: a ServerPackages line's Only is what no map and no
// other line reaches. A texture two lines share is neither's; a package
// listed on two lines is neither line's; a mod a map imports is not its
// line's; what one line alone reaches is that line's. Each line's Only is
// also what walking from every other root and map gives (the way it was
// first worked out, a walk per line).
func TestLineCostsOnly(t *testing.T) {
	s := writeServer(t, 1, []spec{
		{file: "System/Core.u", exports: []string{"Object:Class"}},
		{file: "System/Engine.u", exports: []string{"Actor:Class", "Texture:Class", "Level:Class"},
			imports: []string{"Core.Object:Core.Class"}},
		{file: "System/ModA.u", exports: []string{"A:Class"},
			imports: []string{"Engine.Actor:Core.Class", "SharedTex.T:Engine.Texture", "ATex.T:Engine.Texture"}},
		{file: "System/ModB.u", exports: []string{"B:Class"},
			imports: []string{"Engine.Actor:Core.Class", "SharedTex.T:Engine.Texture", "BTex.T:Engine.Texture"}},
		{file: "System/ModC.u", exports: []string{"C:Class"}, imports: []string{"CTex.T:Engine.Texture"}},
		{file: "System/ModD.u", exports: []string{"D:Class"}, imports: []string{"DTex.T:Engine.Texture"}},
		{file: "Textures/SharedTex.utx", exports: []string{"T:Engine.Texture"}, imports: []string{"Engine.Texture:Core.Class"}},
		{file: "Textures/ATex.utx", exports: []string{"T:Engine.Texture"}, imports: []string{"Engine.Texture:Core.Class"}},
		{file: "Textures/BTex.utx", exports: []string{"T:Engine.Texture"}, imports: []string{"Engine.Texture:Core.Class"}},
		{file: "Textures/CTex.utx", exports: []string{"T:Engine.Texture"}, imports: []string{"Engine.Texture:Core.Class"}},
		{file: "Textures/DTex.utx", exports: []string{"T:Engine.Texture"}, imports: []string{"Engine.Texture:Core.Class"}},
		{file: "Maps/DM-Gen.unr", exports: []string{"MyLevel:Engine.Level"},
			imports: []string{"Engine.Level:Core.Class", "ModD.D:Core.Class"}},
	}, "ModA", "ModB", "ModC", "ModC", "ModD")
	f, err := ini.Load(s.ini)
	if err != nil {
		t.Fatal(err)
	}
	srch, err := search.New(f, search.Options{Generation: 1})
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Build(context.Background(), graph.FromSearcher(srch), graph.Options{Jobs: 2, Roots: graph.RootsOf(f, 1)})
	if err != nil {
		t.Fatal(err)
	}
	u, err := NewUnused(context.Background(), g, UnusedOptions{Generation: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"ModA": 2, "ModB": 2, "ModC": 0, "ModD": 0}
	if len(u.ServerPackages) != 5 {
		t.Fatalf("%d lines, want 5", len(u.ServerPackages))
	}
	for _, c := range u.ServerPackages {
		if c.Only.Count != want[c.Package] {
			t.Errorf("%s: only %d packages, want %d", c.Line, c.Only.Count, want[c.Package])
		}
		i := slices.IndexFunc(g.Roots(), func(r graph.RootRef) bool { return r.Evidence() == c.Line })
		if i < 0 {
			t.Fatalf("%s: no such root", c.Line)
		}
		r := g.Roots()[i]
		if n, bytes := walkedOnly(g, r, c.Download.Packages); c.Only.Count != n || c.Only.Bytes != bytes {
			t.Errorf("%s: only %d packages, %d bytes; a walk from the others gives %d, %d", c.Line, c.Only.Count, c.Only.Bytes, n, bytes)
		}
	}
}

// walkedOnly is the part of a line's download (packages) that a walk from
// every other root and every map does not reach, with its bytes: the
// per-line walk lineCosts first made.
func walkedOnly(g *graph.Graph, r graph.RootRef, packages []string) (int, int64) {
	var others []*graph.Package
	for _, o := range g.Roots() {
		if o.Package != nil && !sameLine(o, r) {
			others = append(others, o.Package)
		}
	}
	for _, p := range g.Packages() {
		if p.Kind == graph.KindMap {
			others = append(others, p)
		}
	}
	reached := map[*graph.Package]bool{}
	for _, rr := range g.Reach(others, -1, false) {
		reached[rr.Package] = true
	}
	n, bytes := 0, int64(0)
	for _, name := range packages {
		if p := g.Package(name); p != nil && !reached[p] {
			st, err := os.Stat(p.File)
			if err != nil {
				return -1, -1
			}
			n++
			bytes += st.Size()
		}
	}
	return n, bytes
}
