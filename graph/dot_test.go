package graph

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestReduce(t *testing.T) {
	for _, tc := range []struct {
		name  string
		n     int
		edges [][2]int
		want  [][2]int
	}{
		{"chain with shortcut", 3, [][2]int{{0, 1}, {0, 2}, {1, 2}}, [][2]int{{0, 1}, {1, 2}}},
		{"diamond with shortcut", 4, [][2]int{{0, 1}, {0, 2}, {0, 3}, {1, 3}, {2, 3}}, [][2]int{{0, 1}, {0, 2}, {1, 3}, {2, 3}}},
		{"long shortcut", 5, [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {0, 4}, {1, 4}}, [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}}},
		{"cycle kept, one edge into and out of it", 4, [][2]int{{0, 1}, {1, 2}, {2, 1}, {0, 2}, {2, 3}, {1, 3}},
			[][2]int{{0, 1}, {1, 2}, {1, 3}, {2, 1}}},
		{"nothing implied", 4, [][2]int{{0, 1}, {0, 2}, {2, 3}}, [][2]int{{0, 1}, {0, 2}, {2, 3}}},
	} {
		var es []DrawEdge
		for _, e := range tc.edges {
			es = append(es, DrawEdge{From: e[0], To: e[1]})
		}
		slices.SortFunc(es, func(a, b DrawEdge) int { return (a.From-b.From)*100 + a.To - b.To })
		var have [][2]int
		for _, e := range reduce(tc.n, es) {
			have = append(have, [2]int{e.From, e.To})
		}
		if !reflect.DeepEqual(have, tc.want) {
			t.Errorf("%s: have %v, want %v", tc.name, have, tc.want)
		}
	}
}

// drawnEdges renders a drawing's edges as "From -> To" with the nodes' IDs.
func drawnEdges(d *Drawing) []string {
	var out []string
	for _, e := range d.Edges {
		s := d.Nodes[e.From].ID + " -> " + d.Nodes[e.To].ID
		if e.Cycle {
			s += " (cycle)"
		}
		if e.Missing {
			s += " (missing)"
		}
		if e.Order {
			s += " (order)"
		}
		out = append(out, s)
	}
	return out
}

func TestDraw(t *testing.T) {
	g := build(t, append(slices.Clone(baseSpecs),
		pkgSpec{file: "ModA.u", exports: []string{"A:Class"}, imports: []string{"Engine.Actor:Core.Class", "ModB.B:Core.Class", "ModC.C:Core.Class"}},
		pkgSpec{file: "ModB.u", exports: []string{"B:Class"}, imports: []string{"Engine.Actor:Core.Class", "ModC.C:Core.Class"}},
		pkgSpec{file: "ModC.u", exports: []string{"C:Class"}, imports: []string{"Engine.Actor:Core.Class", "ModD.D:Core.Class", "Gone.X:Core.Class"}},
		pkgSpec{file: "ModD.u", exports: []string{"D:Class"}, imports: []string{"Core.Object:Core.Class", "ModC.C:Core.Class"}},
		pkgSpec{file: "DM-Map.unr", exports: []string{"MyLevel:Engine.Level"}, imports: []string{"ModA.A:Core.Class", "ModC.C:Core.Class", "Engine.Pawn:Core.Class"}},
	))
	d := g.Draw(DOTOptions{Folders: []string{"System"}})
	var ids []string
	for _, n := range d.Nodes {
		ids = append(ids, fmt.Sprintf("%s base=%v by=%d", n.ID, n.Base, n.ImportedBy))
	}
	wantNodes := []string{"DM-Map base=false by=0", "Gone base=false by=1", "ModA base=false by=1", "ModB base=false by=1",
		"ModC base=false by=4", "ModD base=false by=1", "stock System base=true by=5"}
	if !reflect.DeepEqual(ids, wantNodes) {
		t.Errorf("nodes:\nhave %q\nwant %q", ids, wantNodes)
	}
	// DM-Map -> ModC and ModA -> ModC are implied (via ModA, ModB); every
	// edge into the stock base is left out; the cycle and the missing
	// import stay.
	want := []string{"DM-Map -> ModA", "ModA -> ModB", "ModB -> ModC", "ModC -> Gone (missing)", "ModC -> ModD (cycle)", "ModD -> ModC (cycle)"}
	if have := drawnEdges(d); !reflect.DeepEqual(have, want) {
		t.Errorf("reduced edges:\nhave %q\nwant %q", have, want)
	}
	if d.Packages != 8 || d.Imports != 14 || d.Collapsed != 2 || !d.Reduced {
		t.Errorf("counts: packages %d imports %d collapsed %d reduced %v, want 8 14 2 true", d.Packages, d.Imports, d.Collapsed, d.Reduced)
	}

	// An order error is drawn even where reduction leaves the import out,
	// and where there is no import at all (a source-level use).
	ord := g.Draw(DOTOptions{Folders: []string{"System"}, OrderErrors: [][2]*Package{
		{g.Package("ModA"), g.Package("ModC")}, {g.Package("ModD"), g.Package("ModA")}}})
	want = []string{"DM-Map -> ModA", "ModA -> ModB", "ModA -> ModC (order)", "ModB -> ModC", "ModC -> Gone (missing)",
		"ModC -> ModD (cycle)", "ModD -> ModA (order)", "ModD -> ModC (cycle)"}
	if have := drawnEdges(ord); !reflect.DeepEqual(have, want) {
		t.Errorf("order errors:\nhave %q\nwant %q", have, want)
	}

	all := g.Draw(DOTOptions{AllEdges: true, Stock: true})
	if len(all.Nodes) != 8 || len(all.Edges) != 14 || all.Reduced {
		t.Errorf("--all-edges --stock: %d nodes, %d edges, reduced %v; want 8, 14, false", len(all.Nodes), len(all.Edges), all.Reduced)
	}

	// A focused view never collapses its start, even when it is stock.
	eng := g.Package("Engine")
	focus := g.Draw(DOTOptions{Only: []*Package{eng, g.Package("Core")}, Start: []*Package{eng}, Folders: []string{"System"}})
	if have := drawnEdges(focus); !reflect.DeepEqual(have, []string{"Engine -> stock System"}) {
		t.Errorf("focus on Engine: edges %q", have)
	}

	path := g.Draw(DOTOptions{Hops: g.Why(g.Package("DM-Map"), g.Package("Gone"))})
	if have := drawnEdges(path); !reflect.DeepEqual(have, []string{"DM-Map -> ModC", "ModC -> Gone (missing)"}) {
		t.Errorf("path: %q", have)
	}
	var dot strings.Builder
	if err := path.WriteDOT(&dot); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(dot.String(), `label="C"`) || !strings.Contains(dot.String(), `style="dashed"`) {
		t.Errorf("path DOT lacks the hop's object or the missing style:\n%s", dot.String())
	}
}
