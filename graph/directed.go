package graph

import (
	gonum "gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/iterator"
)

// directed shows the graph's sorted adjacency lists to gonum's algorithms
// (topo.TarjanSCC) as a gonum.Directed, so that the edges are not stored a
// second time in a graph of gonum's (adjGraph): on a large install that copy was
// a tenth of the memory. Node IDs are the packages' ids, 0 to n-1; with in
// set, only the packages whose in[id] is set are nodes (Cycles leaves out
// the packages that are in no cycle).
type directed struct {
	gr *Graph
	in []bool // nil: every package
}

var _ gonum.Directed = directed{}

func (d directed) Node(id int64) gonum.Node {
	if id < 0 || id >= int64(len(d.gr.out)) || d.in != nil && !d.in[id] {
		return nil
	}
	return node(id)
}

func (d directed) Nodes() gonum.Nodes {
	ns := make([]gonum.Node, 0, len(d.gr.out))
	for i := range d.gr.out {
		if d.in == nil || d.in[i] {
			ns = append(ns, node(i))
		}
	}
	return iterator.NewOrderedNodes(ns)
}

func (d directed) nodesOf(ps []*Package) gonum.Nodes {
	ns := make([]gonum.Node, 0, len(ps))
	for _, p := range ps {
		if d.in == nil || d.in[p.id] {
			ns = append(ns, node(p.id))
		}
	}
	if len(ns) == 0 {
		return gonum.Empty
	}
	return iterator.NewOrderedNodes(ns)
}

func (d directed) From(id int64) gonum.Nodes {
	if d.Node(id) == nil {
		return gonum.Empty
	}
	return d.nodesOf(d.gr.out[id])
}

func (d directed) To(id int64) gonum.Nodes {
	if d.Node(id) == nil {
		return gonum.Empty
	}
	return d.nodesOf(d.gr.in[id])
}

func (d directed) HasEdgeFromTo(uid, vid int64) bool {
	if d.Node(uid) == nil || d.Node(vid) == nil {
		return false
	}
	return d.gr.Edge(d.gr.byID[uid], d.gr.byID[vid]) != nil
}

func (d directed) HasEdgeBetween(xid, yid int64) bool {
	return d.HasEdgeFromTo(xid, yid) || d.HasEdgeFromTo(yid, xid)
}

func (d directed) Edge(uid, vid int64) gonum.Edge {
	if !d.HasEdgeFromTo(uid, vid) {
		return nil
	}
	return edge{node(uid), node(vid)}
}
