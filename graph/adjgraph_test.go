package graph

import (
	"slices"
	"testing"

	gonum "gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/topo"
)

// ids returns the IDs of ns in their order.
func ids(ns gonum.Nodes) []int64 {
	var out []int64
	for ns.Next() {
		out = append(out, ns.Node().ID())
	}
	return out
}

// TestAdjGraph: the small graph answers gonum's questions as
// simple.DirectedGraph did (an edge twice kept once, no edge of a node to
// itself, nodes and edges in the order added), and gonum's algorithms run
// on it.
func TestAdjGraph(t *testing.T) {
	g := newAdjGraph()
	g.addNode(9)
	for _, e := range [][2]int64{{1, 2}, {2, 3}, {3, 1}, {1, 2}, {3, 4}, {4, 4}} {
		g.setEdge(e[0], e[1])
	}
	if have, want := ids(g.Nodes()), []int64{9, 1, 2, 3, 4}; !slices.Equal(have, want) {
		t.Errorf("nodes %v, want %v", have, want)
	}
	if have := ids(g.From(1)); !slices.Equal(have, []int64{2}) {
		t.Errorf("from 1: %v, want [2] (the edge added twice once)", have)
	}
	if have := ids(g.To(1)); !slices.Equal(have, []int64{3}) {
		t.Errorf("to 1: %v", have)
	}
	if have := ids(g.From(4)); len(have) != 0 || g.HasEdgeFromTo(4, 4) {
		t.Errorf("4 has an edge to itself: %v", have)
	}
	if !g.HasEdgeFromTo(3, 4) || g.HasEdgeFromTo(4, 3) || !g.HasEdgeBetween(4, 3) {
		t.Error("edge 3->4 misread")
	}
	if e := g.Edge(2, 3); e == nil || e.From().ID() != 2 || e.To().ID() != 3 || e.ReversedEdge().From().ID() != 3 {
		t.Errorf("edge 2->3: %v", e)
	}
	if g.Edge(3, 2) != nil || g.Node(5) != nil || g.Node(9) == nil || ids(g.From(7)) != nil {
		t.Error("a node or edge that is not there is")
	}
	var comps [][]int64
	for _, c := range topo.TarjanSCC(g) {
		var ids []int64
		for _, n := range c {
			ids = append(ids, n.ID())
		}
		slices.Sort(ids)
		comps = append(comps, ids)
	}
	slices.SortFunc(comps, slices.Compare)
	if want := [][]int64{{1, 2, 3}, {4}, {9}}; !slices.EqualFunc(comps, want, slices.Equal) {
		t.Errorf("components %v, want %v", comps, want)
	}
	if _, err := topo.Sort(g); err == nil {
		t.Error("a graph with a cycle sorted")
	}
}
