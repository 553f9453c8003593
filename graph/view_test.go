package graph

import (
	"context"
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// viewGraph is a small install: ModA needs ModB needs ModC, ModC and ModD
// import each other (one cycle), ModC imports the missing Gone.
func viewGraph(t *testing.T) *Graph {
	t.Helper()
	return build(t, append(slices.Clone(baseSpecs),
		pkgSpec{file: "ModA.u", exports: []string{"A:Class"}, imports: []string{"Engine.Actor:Core.Class", "ModB.B:Core.Class"}},
		pkgSpec{file: "ModB.u", exports: []string{"B:Class"}, imports: []string{"Engine.Actor:Core.Class", "ModC.C:Core.Class"}},
		pkgSpec{file: "ModC.u", exports: []string{"C:Class"}, imports: []string{"Engine.Actor:Core.Class", "ModD.D:Core.Class", "Gone.X:Core.Class"}},
		pkgSpec{file: "ModD.u", exports: []string{"D:Class"}, imports: []string{"Core.Object:Core.Class", "ModC.C:Core.Class"}},
	))
}

func pkgNames(ps []*Package) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name)
	}
	slices.Sort(out)
	return out
}

// TestSelect: each view sets what Draw draws, and a name or number the
// install does not have is a *ViewError with its field, value and reason.
func TestSelect(t *testing.T) {
	g := viewGraph(t)
	folders := []string{"System"}
	sel := func(v View) (DOTOptions, error) {
		opt := DOTOptions{Folders: folders}
		err := g.Select(v, &opt)
		return opt, err
	}
	opt, err := sel(View{From: []string{"ModB"}, Depth: 1})
	if err != nil || !slices.Equal(pkgNames(opt.Start), []string{"ModB"}) || !slices.Equal(pkgNames(opt.Only), []string{"Engine", "ModB", "ModC"}) {
		t.Errorf("From ModB depth 1: start %v, only %v, err %v", pkgNames(opt.Start), pkgNames(opt.Only), err)
	}
	opt, err = sel(View{From: []string{"ModC"}, Reverse: true})
	if err != nil || !slices.Equal(pkgNames(opt.Only), []string{"ModA", "ModB", "ModC", "ModD"}) {
		t.Errorf("From ModC reverse: only %v, err %v", pkgNames(opt.Only), err)
	}
	groups := g.Groups(folders, nil)
	if len(groups) == 0 {
		t.Fatal("no groups")
	}
	opt, err = sel(View{From: []string{"group:" + groups[0].Name}, Depth: 1})
	if err != nil || len(opt.Start) != len(groups[0].Members)+len(groups[0].Missing) {
		t.Errorf("From group:%s: start %v, err %v", groups[0].Name, pkgNames(opt.Start), err)
	}
	opt, err = sel(View{Path: []string{"ModA", "ModD"}})
	if err != nil || len(opt.Hops) != 3 {
		t.Errorf("Path ModA ModD: %d hops, err %v", len(opt.Hops), err)
	}
	opt, err = sel(View{Cycle: 1})
	if err != nil || !slices.Equal(pkgNames(opt.Only), []string{"ModC", "ModD"}) || !opt.Stock {
		t.Errorf("Cycle 1: only %v stock %v, err %v", pkgNames(opt.Only), opt.Stock, err)
	}
	for _, tc := range []struct {
		v    View
		is   error
		want string
	}{
		{View{From: []string{"Nope"}}, ErrNoPackageOrGroup, "From Nope: no such package or group in the install"},
		{View{From: []string{"group:Nope"}}, ErrNoGroup, "From group:Nope: no such group in the install"},
		{View{Path: []string{"ModA", "Nope"}}, ErrNoPackage, "Path Nope: no such package in the install"},
		{View{Path: []string{"ModD", "ModA"}}, ErrNoChain, "Path: ModD does not need ModA (no import chain)"},
		{View{Cycle: 2}, ErrNoCycle, "Cycle 2: the install has 1 cycles (numbered from 1, in check's order)"},
		{View{Cycle: -1}, ErrNoCycle, "Cycle -1: the install has 1 cycles (numbered from 1, in check's order)"},
	} {
		_, err := sel(tc.v)
		var ve *ViewError
		if !errors.Is(err, tc.is) || !errors.As(err, &ve) || err.Error() != tc.want {
			t.Errorf("%+v: err %v, want %q (%v)", tc.v, err, tc.want, tc.is)
		}
	}
}

// TestOrderEdges: only EditOrder findings between two packages of the
// graph become edges, user first.
func TestOrderEdges(t *testing.T) {
	g := viewGraph(t)
	have := g.OrderEdges([]Finding{
		{Kind: EditOrder, Packages: []string{"ModA", "ModB"}},
		{Kind: EditOrder, Packages: []string{"ModA", "Unknown"}},
		{Kind: EditOrder, Packages: []string{"ModA"}},
		{Kind: MissingPackage, Packages: []string{"ModC", "Gone"}},
	})
	if len(have) != 1 || have[0][0].Name != "ModA" || have[0][1].Name != "ModB" {
		t.Errorf("order edges %v", have)
	}
}

// TestSummaryAndTooMany: the summary line counts what the drawing shows
// against what it stands for (5 edges: the chain, the cycle and the
// missing import; 10 imports, with those into Core and Engine); TooMany is
// past maxNodes nodes or twice as many edges, never with 0.
func TestSummaryAndTooMany(t *testing.T) {
	g := viewGraph(t)
	d := g.Draw(DOTOptions{Folders: []string{"System"}})
	want := "graph: 6 nodes for 7 packages (2 stock packages grouped; --stock draws them), 5 edges for 10 imports (implied and base imports left out; --all-edges draws them)"
	if s := d.Summary(); s != want {
		t.Errorf("summary\nhave %s\nwant %s", s, want)
	}
	all := g.Draw(DOTOptions{Folders: []string{"System"}, Stock: true, AllEdges: true})
	if s := all.Summary(); strings.Contains(s, "--") {
		t.Errorf("summary of everything drawn: %s", s)
	}
	for _, tc := range []struct {
		max  int
		want bool
	}{{0, false}, {len(d.Nodes), false}, {len(d.Nodes) - 1, true}, {(len(d.Edges) - 1) / 2, true}} {
		if have := d.TooMany(tc.max); have != tc.want {
			t.Errorf("TooMany(%d) with %d nodes, %d edges: %v", tc.max, len(d.Nodes), len(d.Edges), have)
		}
	}
}

// TestRender: dot is the DOT text; a picture is drawn by Graphviz when it
// is installed, and an unknown format is an error.
func TestRender(t *testing.T) {
	d := viewGraph(t).Draw(DOTOptions{Folders: []string{"System"}})
	var want strings.Builder
	if err := d.WriteDOT(&want); err != nil {
		t.Fatal(err)
	}
	src, err := d.Render(context.Background(), "dot")
	if err != nil || string(src) != want.String() {
		t.Errorf("dot: err %v, same text %v", err, string(src) == want.String())
	}
	if _, err := d.Render(context.Background(), "gif"); err == nil {
		t.Error("gif: no error")
	}
	if _, err := exec.LookPath("dot"); err != nil {
		if _, err := d.Render(context.Background(), "svg"); !errors.Is(err, ErrNoDot) {
			t.Errorf("svg without dot: %v", err)
		}
		t.Skip("no Graphviz dot on PATH")
	}
	svg, err := d.Render(context.Background(), "svg")
	if err != nil || !strings.Contains(string(svg), "<svg") || !strings.Contains(string(svg), "ModA") {
		t.Errorf("svg: err %v, %.200s", err, svg)
	}
	if firstLine(" one\ntwo") != "one" || len(firstLine(strings.Repeat("x", 300))) != 203 {
		t.Error("firstLine")
	}
}
