package graph

import (
	gonum "gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/iterator"
)

// node and edge are the graph's nodes and edges as gonum's algorithms see
// them: a node is its ID.
type node int64

func (n node) ID() int64 { return int64(n) }

type edge struct{ f, t node }

func (e edge) From() gonum.Node         { return e.f }
func (e edge) To() gonum.Node           { return e.t }
func (e edge) ReversedEdge() gonum.Edge { return edge{e.t, e.f} }

// adjGraph is a small directed graph built for one question to gonum's
// algorithms (a cycle's component, EditPackages' order constraints), in
// place of gonum's simple.DirectedGraph: that package links gonum's
// matrix, BLAS and LAPACK code into the binary, 2.4 MB that every command
// loaded and initialised, for graphs that need none of it. Nodes and each
// node's edges are listed in the order added; an edge added twice is
// kept once, and an edge of a node to itself is not kept.
type adjGraph struct {
	nodes    []int64
	has      map[int64]bool
	from, to map[int64][]int64
	edges    map[[2]int64]bool
}

var _ gonum.Directed = (*adjGraph)(nil)

func newAdjGraph() *adjGraph {
	return &adjGraph{has: map[int64]bool{}, from: map[int64][]int64{}, to: map[int64][]int64{}, edges: map[[2]int64]bool{}}
}

// addNode adds the node id (again: no change).
func (g *adjGraph) addNode(id int64) {
	if !g.has[id] {
		g.has[id] = true
		g.nodes = append(g.nodes, id)
	}
}

// setEdge adds the edge from u to v, and the nodes u and v.
func (g *adjGraph) setEdge(u, v int64) {
	g.addNode(u)
	g.addNode(v)
	if u == v || g.edges[[2]int64{u, v}] {
		return
	}
	g.edges[[2]int64{u, v}] = true
	g.from[u] = append(g.from[u], v)
	g.to[v] = append(g.to[v], u)
}

func (g *adjGraph) Node(id int64) gonum.Node {
	if !g.has[id] {
		return nil
	}
	return node(id)
}

func (g *adjGraph) Nodes() gonum.Nodes { return nodesOf(g.nodes) }

func (g *adjGraph) From(id int64) gonum.Nodes { return nodesOf(g.from[id]) }

func (g *adjGraph) To(id int64) gonum.Nodes { return nodesOf(g.to[id]) }

func (g *adjGraph) HasEdgeFromTo(uid, vid int64) bool { return g.edges[[2]int64{uid, vid}] }

func (g *adjGraph) HasEdgeBetween(xid, yid int64) bool {
	return g.HasEdgeFromTo(xid, yid) || g.HasEdgeFromTo(yid, xid)
}

func (g *adjGraph) Edge(uid, vid int64) gonum.Edge {
	if !g.HasEdgeFromTo(uid, vid) {
		return nil
	}
	return edge{node(uid), node(vid)}
}

// nodesOf returns ids as gonum's Nodes, in their order.
func nodesOf(ids []int64) gonum.Nodes {
	if len(ids) == 0 {
		return gonum.Empty
	}
	ns := make([]gonum.Node, len(ids))
	for i, id := range ids {
		ns[i] = node(id)
	}
	return iterator.NewOrderedNodes(ns)
}
