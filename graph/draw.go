package graph

import (
	"cmp"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Draw works out what a diagram of opt's view shows. The result is sorted:
// nodes by name (groups by folder), edges by their ends.
func (gr *Graph) Draw(opt DOTOptions) *Drawing {
	if opt.Hops != nil {
		return gr.drawHops(opt)
	}
	if opt.Overview {
		opt.Only, opt.Start, opt.Stock = nil, nil, false
	}
	s, pkgs := gr.newDrawing(opt)
	s.nodes(pkgs)
	s.sortNodes()
	edges, merged := s.edges()
	order := s.orderEdges(merged)
	if !opt.AllEdges {
		edges = s.reduce(edges)
	}
	if len(order) > 0 {
		edges = withOrder(edges, order)
	}
	for i := range edges {
		e := &edges[i]
		switch {
		case e.Order:
			e.Label = "order"
		case opt.AllEdges:
			e.Label = strconv.Itoa(e.Objects)
		case opt.Overview:
			e.Label = strconv.Itoa(e.Imports)
		}
	}
	s.d.Edges = edges
	return s.d
}

// drawing is one Draw under way: what its view includes, and the node
// each package is drawn in.
type drawing struct {
	gr      *Graph
	opt     DOTOptions
	d       *Drawing
	isStock func(name string) bool
	include map[*Package]bool
	start   map[*Package]bool
	cycleOf map[*Package]int // 1-based index in Cycles()
	node    map[*Package]int // index in d.Nodes
}

// drawKey is a drawn edge's ends.
type drawKey struct{ from, to int }

// newDrawing starts the drawing of opt's view and returns it with the
// packages the view includes.
func (gr *Graph) newDrawing(opt DOTOptions) (*drawing, []*Package) {
	isStock := opt.IsStock
	if isStock == nil {
		isStock = IsStock
	}
	include := map[*Package]bool{}
	pkgs := gr.pkgs
	if opt.Only != nil {
		pkgs = slices.Clone(opt.Only)
		slices.SortFunc(pkgs, func(a, b *Package) int { return cmpName(a.Name, b.Name) })
		pkgs = slices.Compact(pkgs)
	}
	for _, p := range pkgs {
		include[p] = true
	}
	start := map[*Package]bool{}
	for _, p := range opt.Start {
		start[p] = true
	}
	cycleOf := map[*Package]int{}
	for i, comp := range gr.Cycles() {
		for _, p := range comp {
			cycleOf[p] = i + 1
		}
	}
	s := &drawing{gr: gr, opt: opt, d: &Drawing{Packages: len(pkgs)}, isStock: isStock,
		include: include, start: start, cycleOf: cycleOf, node: map[*Package]int{}}
	return s, pkgs
}

// nodes makes the nodes: a package each, except readable stock packages,
// which join their folder's group unless the view is about them; in an
// overview, a node per group.
func (s *drawing) nodes(pkgs []*Package) {
	opt, d, node := s.opt, s.d, s.node
	collapse := func(p *Package) bool {
		return !opt.Stock && !s.start[p] && !p.Missing() && p.Err == nil && s.isStock(p.Name)
	}
	groups := map[int][]*Package{}
	if opt.Overview {
		d.Overview = true
		for _, g := range s.gr.Groups(opt.Folders, s.isStock) {
			for _, p := range slices.Concat(g.Members, g.Missing) {
				node[p] = len(d.Nodes)
			}
			label := g.Name + "\n" + plural(len(g.Members), "package")
			if len(g.Missing) > 0 {
				label += ", " + strconv.Itoa(len(g.Missing)) + " missing"
			}
			gg := g
			d.Nodes = append(d.Nodes, DrawNode{ID: g.Name, Label: label, Tooltip: groupTooltip(&gg), Members: g.Members, Group: &gg})
		}
		pkgs = nil // no package nodes
	}
	for _, p := range pkgs {
		if collapse(p) {
			groups[p.PathIndex] = append(groups[p.PathIndex], p)
			continue
		}
		node[p] = len(d.Nodes)
		d.Nodes = append(d.Nodes, DrawNode{ID: p.Name, Label: p.Name, Package: p, Start: s.start[p],
			Cycle: s.cycleOf[p], Tooltip: packageTooltip(p)})
	}
	for _, pi := range slices.Sorted(maps.Keys(groups)) {
		ms := groups[pi]
		folder := folderName(pi, opt.Folders)
		n := DrawNode{ID: "stock " + folder, Members: ms, Tooltip: "stock packages in " + folder + ": " + strings.Join(names(ms), ", ")}
		if len(ms) <= 3 {
			n.Label = strings.Join(names(ms), ", ") + " (stock)"
		} else {
			n.Label = strconv.Itoa(len(ms)) + " stock packages\n" + folder
		}
		for _, p := range ms {
			node[p] = len(d.Nodes)
		}
		d.Collapsed += len(ms)
		d.Nodes = append(d.Nodes, n)
	}
}

// sortNodes renumbers the nodes so that they are sorted by ID.
func (s *drawing) sortNodes() {
	d := s.d
	perm := make([]int, len(d.Nodes))
	for i := range perm {
		perm[i] = i
	}
	slices.SortStableFunc(perm, func(a, b int) int { return cmpName(d.Nodes[a].ID, d.Nodes[b].ID) })
	newIndex := make([]int, len(perm))
	sorted := make([]DrawNode, len(perm))
	for ni, old := range perm {
		newIndex[old] = ni
		sorted[ni] = d.Nodes[old]
	}
	d.Nodes = sorted
	for p, i := range s.node {
		s.node[p] = newIndex[i]
	}
}

// edges returns the edges, merged between nodes and sorted by their ends,
// and the merged edges by their ends; it counts the imports and each
// node's importers.
func (s *drawing) edges() ([]DrawEdge, map[drawKey]*DrawEdge) {
	d, node, cycleOf := s.d, s.node, s.cycleOf
	merged := map[drawKey]*DrawEdge{}
	for _, e := range s.gr.Edges() {
		if !s.include[e.From] || !s.include[e.To] {
			continue
		}
		d.Imports++
		k := drawKey{node[e.From], node[e.To]}
		if k.from == k.to {
			continue
		}
		de := merged[k]
		if de == nil {
			de = &DrawEdge{From: k.from, To: k.to}
			merged[k] = de
		}
		de.Imports++
		de.Objects += e.ObjectCount()
		if c := cycleOf[e.From]; c != 0 && c == cycleOf[e.To] {
			de.Cycle = true
		}
		if e.To.Missing() {
			de.Missing = true
		}
	}
	edges := make([]DrawEdge, 0, len(merged))
	for _, de := range merged {
		edges = append(edges, *de)
	}
	slices.SortFunc(edges, byEnds)
	for _, e := range edges {
		d.Nodes[e.To].ImportedBy++
	}
	return edges, merged
}

func byEnds(a, b DrawEdge) int { return cmp.Or(cmp.Compare(a.From, b.From), cmp.Compare(a.To, b.To)) }

// orderEdges returns the EditPackages order errors between drawn nodes.
// They are drawn whatever reduction says: source-level uses need not be
// imports at all.
func (s *drawing) orderEdges(merged map[drawKey]*DrawEdge) []DrawEdge {
	var order []DrawEdge
	for _, oe := range s.opt.OrderErrors {
		if !s.include[oe[0]] || !s.include[oe[1]] || s.node[oe[0]] == s.node[oe[1]] {
			continue
		}
		k := drawKey{s.node[oe[0]], s.node[oe[1]]}
		e := DrawEdge{From: k.from, To: k.to, Order: true}
		if de := merged[k]; de != nil {
			e = *de
			e.Order = true
		}
		order = append(order, e)
	}
	return order
}

// reduce leaves out the edges implied by others (on views of at most
// maxReduce nodes) and the edges into bases.
func (s *drawing) reduce(edges []DrawEdge) []DrawEdge {
	d := s.d
	if len(d.Nodes) <= maxReduce {
		edges = reduce(len(d.Nodes), edges)
		d.Reduced = true
	}
	// A base is imported by at least three nodes and half of the
	// others when stock (Core, Engine, or their group), nine tenths
	// when not. One node with a count says more than hundreds of
	// edges into it.
	for i := range d.Nodes {
		n := &d.Nodes[i]
		if n.Start || n.Package != nil && n.Package.Missing() || n.ImportedBy < 3 {
			continue
		}
		others := len(d.Nodes) - 1
		if n.Package == nil || s.isStock(n.Package.Name) {
			n.Base = 2*n.ImportedBy >= others
		} else {
			n.Base = 10*n.ImportedBy >= 9*others
		}
	}
	return slices.DeleteFunc(edges, func(e DrawEdge) bool { return d.Nodes[e.To].Base && !e.Cycle })
}

// withOrder puts the order edges in place of the drawn edges between the
// same ends, sorted by their ends.
func withOrder(edges, order []DrawEdge) []DrawEdge {
	isOrder := map[drawKey]bool{}
	for _, e := range order {
		isOrder[drawKey{e.From, e.To}] = true
	}
	edges = slices.DeleteFunc(edges, func(e DrawEdge) bool { return isOrder[drawKey{e.From, e.To}] })
	edges = append(edges, order...)
	slices.SortFunc(edges, byEnds)
	return slices.CompactFunc(edges, func(a, b DrawEdge) bool { return byEnds(a, b) == 0 })
}
