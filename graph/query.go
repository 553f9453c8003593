package graph

import (
	"slices"

	gonum "gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/topo"
)

// Reached is a package found by Reach with its distance from the start.
type Reached struct {
	Package *Package
	Depth   int
	Via     *Package // the package it was reached from (nil for a start)
}

// Reach walks from the start packages along imports (or, with reverse,
// along "imported by") up to maxDepth hops (maxDepth < 0: no limit) and
// returns every package reached, sorted by depth, then name. The start
// packages are gr's (of another graph, Reach panics or goes astray).
func (gr *Graph) Reach(start []*Package, maxDepth int, reverse bool) []Reached {
	next := gr.Imports
	if reverse {
		next = gr.ImportedBy
	}
	seen := map[*Package]Reached{}
	gr.walk(start, next, maxDepth, func(p, from *Package, d int) bool {
		seen[p] = Reached{Package: p, Depth: d, Via: from}
		return true
	})
	out := make([]Reached, 0, len(seen))
	for _, r := range seen {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b Reached) int {
		if a.Depth != b.Depth {
			return a.Depth - b.Depth
		}
		return cmpName(a.Package.Name, b.Package.Name)
	})
	return out
}

// Hop is one step of an import chain: From imports Objects from To.
type Hop struct {
	From, To *Package
	Objects  []ImportedObject
}

// Why returns the shortest import chain from → to (nil when to is not
// reachable), each hop with the objects imported. from and to are gr's.
func (gr *Graph) Why(from, to *Package) []Hop {
	if from == to {
		return nil
	}
	via := map[*Package]*Package{}
	found := false
	gr.walk([]*Package{from}, gr.Imports, -1, func(p, prev *Package, _ int) bool {
		via[p] = prev
		found = p == to
		return !found
	})
	if !found {
		return nil
	}
	var hops []Hop
	for cur := to; via[cur] != nil; cur = via[cur] {
		e := gr.Edge(via[cur], cur)
		objs := e.Objects()
		slices.SortFunc(objs, func(a, b ImportedObject) int {
			if c := cmpName(a.Path, b.Path); c != 0 {
				return c
			}
			return cmpName(a.Class, b.Class)
		})
		hops = append(hops, Hop{From: via[cur], To: cur, Objects: slices.Compact(objs)})
	}
	slices.Reverse(hops)
	return hops
}

// WhyRoot returns the shortest import chain to p from a root of the
// install: an ini line's package or a map (roots in that order, the first
// nearest wins). start is the root package (p itself when p is a root, with
// no hops); refs are the ini lines that name start (none for a map).
// It returns a nil start when no root needs p.
func (gr *Graph) WhyRoot(p *Package) (start *Package, refs []RootRef, hops []Hop) {
	starts := gr.appendStarts(nil, map[*Package]bool{})
	best := -1
	for _, s := range starts {
		if s == p {
			return s, gr.rootsOf(s), nil
		}
		h := gr.Why(s, p)
		if h != nil && (best < 0 || len(h) < best) {
			best, start, hops = len(h), s, h
		}
	}
	if start == nil {
		return nil, nil, nil
	}
	return start, gr.rootsOf(start), hops
}

// Cycles returns the strongly connected components with more than one
// package, each sorted, the list sorted by first name: cycles of load
// dependencies, imports of native-only classes included (BuildCycles
// leaves those out, as check does).
func (gr *Graph) Cycles() [][]*Package {
	out := gr.components(nil, directed{gr, gr.mayCycle()})
	sortCycles(out)
	return out
}

// mayCycle returns, by package id, the packages that may be in a cycle:
// those left once every package that imports from none left, or that none
// left imports from, is taken away, again and again. Every cycle's
// packages are left (each imports from, and is imported by, another of
// its cycle); on an install of a few cycles among thousands of packages,
// little else is, so that Tarjan's search, which allocates per package and
// per edge, looks at a few packages instead of all.
func (gr *Graph) mayCycle() []bool {
	n := len(gr.out)
	left := make([]bool, n)
	outs, ins := make([]int32, n), make([]int32, n) // edges to and from packages left
	var gone []int32
	for id := range n {
		left[id] = true
		outs[id], ins[id] = int32(len(gr.out[id])), int32(len(gr.in[id]))
		if outs[id] == 0 || ins[id] == 0 {
			gone = append(gone, int32(id))
		}
	}
	for len(gone) > 0 {
		id := gone[len(gone)-1]
		gone = gone[:len(gone)-1]
		if !left[id] {
			continue
		}
		left[id] = false
		for _, q := range gr.out[id] {
			if left[q.id] {
				if ins[q.id]--; ins[q.id] == 0 {
					gone = append(gone, int32(q.id))
				}
			}
		}
		for _, p := range gr.in[id] {
			if left[p.id] {
				if outs[p.id]--; outs[p.id] == 0 {
					gone = append(gone, int32(p.id))
				}
			}
		}
	}
	return left
}

// components appends to out the strongly connected components of more
// than one package of g (whose node IDs are gr's package IDs), each sorted
// by name.
func (gr *Graph) components(out [][]*Package, g gonum.Directed) [][]*Package {
	for _, scc := range topo.TarjanSCC(g) {
		if len(scc) < 2 {
			continue
		}
		c := make([]*Package, len(scc))
		for i, n := range scc {
			c[i] = gr.byID[n.ID()]
		}
		slices.SortFunc(c, func(a, b *Package) int { return cmpName(a.Name, b.Name) })
		out = append(out, c)
	}
	return out
}

// sortCycles sorts components by their first package's name.
func sortCycles(cs [][]*Package) {
	slices.SortFunc(cs, func(a, b []*Package) int { return cmpName(a[0].Name, b[0].Name) })
}

// ClientPackages returns what clients need: ServerPackages and maps, plus
// everything they import, transitively (ServerSideOnly packages included,
// so that they can be reported).
func (gr *Graph) ClientPackages(serverPackages []string) []*Package {
	parent := gr.reach(gr.clientRoots(serverPackages))
	var out []*Package
	for _, p := range gr.pkgs { // sorted
		if parent.has(p) {
			out = append(out, p)
		}
	}
	return out
}

// clientRoots are where a client's downloads start: the ServerPackages
// entries and every map.
func (gr *Graph) clientRoots(serverPackages []string) []*Package {
	var roots []*Package
	for _, n := range serverPackages {
		if p := gr.Package(n); p != nil {
			roots = append(roots, p)
		}
	}
	for _, p := range gr.pkgs {
		if p.Kind == KindMap {
			roots = append(roots, p)
		}
	}
	return roots
}

// appendStarts appends to roots, once each (seen records them), what makes
// the engine load anything by itself: the packages of the ini roots, in
// their order, then the maps.
func (gr *Graph) appendStarts(roots []*Package, seen map[*Package]bool) []*Package {
	for _, r := range gr.iniRoots {
		if !seen[r.Package] {
			seen[r.Package] = true
			roots = append(roots, r.Package)
		}
	}
	for _, p := range gr.pkgs {
		if p.Kind == KindMap && !seen[p] {
			seen[p] = true
			roots = append(roots, p)
		}
	}
	return roots
}
