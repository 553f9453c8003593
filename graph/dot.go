package graph

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"github.com/emicklei/dot"
)

// DOTOptions configure Draw and WriteDOT.
type DOTOptions struct {
	// Only restricts the drawing to these packages (nil: all).
	Only []*Package
	// Start are the packages the view is about (--from, a path's ends):
	// never collapsed, never a base, drawn with a bold outline.
	Start []*Package
	// Folders name the Paths entries by index (Folders[i] for PathIndex i).
	Folders []string
	// Stock draws the game's stock packages one by one; otherwise the
	// readable stock packages of each folder are one node (IsStock says
	// which are stock; nil: the package-level IsStock).
	Stock   bool
	IsStock func(name string) bool
	// AllEdges keeps every import; otherwise an import that another chain
	// of drawn imports already implies is left out (transitive reduction),
	// and a node that most others import is drawn once as a base, without
	// its incoming edges.
	AllEdges bool
	// OrderErrors are EditPackages order errors, [user, used] (EditOrder
	// findings): drawn as orange dashed "order" edges, never left out.
	OrderErrors [][2]*Package
	// Hops draws this import chain alone (Why's answer), each hop labelled
	// with its first object; Only, Stock and AllEdges are then ignored.
	Hops []Hop
	// Overview draws one node per Group (Groups: a mod, the stock packages
	// of a folder, the other packages of a folder), each edge labelled with
	// the package imports it stands for; Only, Start and Stock are then
	// ignored.
	Overview bool
}

// Drawing is what a diagram shows: its nodes and edges, and how many
// packages and imports it stands for.
type Drawing struct {
	Nodes []DrawNode
	Edges []DrawEdge
	// Packages and Imports count what the view covers before collapsing
	// and reduction (Imports: package imports between covered packages).
	Packages, Imports int
	// Reduced is true when redundant imports were left out.
	Reduced bool
	// Collapsed is how many stock packages are drawn as group nodes.
	Collapsed int
	// Overview is true when each node is a Group (DOTOptions.Overview).
	Overview bool
}

// DrawNode is one node: a package, or a group of stock packages.
type DrawNode struct {
	ID      string
	Label   string
	Tooltip string
	Package *Package   // nil for a group
	Members []*Package // a group's packages, sorted
	Group   *Group     // the overview's group (nil otherwise)
	Start   bool
	Base    bool // imported by most others: its incoming edges are not drawn
	Cycle   int  // 1-based index in Cycles() of the package's cycle; 0: none
	// ImportedBy is how many drawn nodes import it (before reduction).
	ImportedBy int
}

// DrawEdge is one drawn import between nodes From and To (indexes into
// Drawing.Nodes). Imports is how many package imports it stands for.
type DrawEdge struct {
	From, To int
	Imports  int
	Objects  int
	Cycle    bool // both ends are in one cycle
	Missing  bool // the imported package is missing
	Order    bool // EditPackages lists From before To, which it uses
	Label    string
}

var kindStyle = map[Kind][2]string{ // shape, fill colour
	KindCode:    {"box", "#cfe2ff"},
	KindTexture: {"ellipse", "#d1e7dd"},
	KindSound:   {"ellipse", "#fff3cd"},
	KindMusic:   {"ellipse", "#f8d7da"},
	KindMap:     {"house", "#e2d9f3"},
	KindMesh:    {"hexagon", "#d2f4ea"},
	KindOther:   {"ellipse", "#e9ecef"},
	KindMissing: {"box", "#ffffff"},
}

// maxReduce is the most nodes transitive reduction runs on: it keeps a
// reachability bit set per node (5,000 nodes: 3 MB). Bigger views are
// drawn with every edge, and cannot be laid out legibly anyway.
const maxReduce = 5000

// reduce leaves out each edge u→v between different strongly connected
// components when v is reachable from u another way, keeping edges inside
// a component (they are the cycle). It works on the condensation in
// topological order with a reachability bit set per component.
func reduce(n int, edges []DrawEdge) []DrawEdge {
	adj := make([][]int, n)
	for _, e := range edges {
		adj[e.From] = append(adj[e.From], e.To)
	}
	comp, order := scc(n, adj) // order: components, sinks first
	pos := make([]int, len(order))
	for i, c := range order {
		pos[c] = i
	}
	words := (len(order) + 63) / 64
	reach := make([][]uint64, len(order))
	succ := make([][]int, len(order))
	for _, e := range edges {
		cu, cv := comp[e.From], comp[e.To]
		if cu != cv {
			succ[cu] = append(succ[cu], cv)
		}
	}
	keep := map[[2]int]bool{}
	for _, c := range order {
		r := make([]uint64, words)
		s := succ[c]
		// Nearest first: a successor reachable through another was
		// processed after that one (topological order).
		slices.SortFunc(s, func(a, b int) int { return cmp.Compare(pos[b], pos[a]) })
		s = slices.Compact(s)
		for _, t := range s {
			if r[t/64]&(1<<(t%64)) != 0 {
				continue
			}
			keep[[2]int{c, t}] = true
			r[t/64] |= 1 << (t % 64)
			for w, x := range reach[t] {
				r[w] |= x
			}
		}
		reach[c] = r
	}
	// One edge per kept pair of components: the first, in sorted order.
	return slices.DeleteFunc(edges, func(e DrawEdge) bool {
		cu, cv := comp[e.From], comp[e.To]
		if cu == cv {
			return false
		}
		k := [2]int{cu, cv}
		if !keep[k] {
			return true
		}
		delete(keep, k)
		return false
	})
}

// scc returns each node's strongly connected component and the components
// in reverse topological order (Tarjan's algorithm, iterative).
func scc(n int, adj [][]int) (comp []int, order []int) {
	index := make([]int, n)
	low := make([]int, n)
	onStack := make([]bool, n)
	comp = make([]int, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	next := 0
	type frame struct{ v, i int }
	for root := range n {
		if index[root] >= 0 {
			continue
		}
		call := []frame{{root, 0}}
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		onStack[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			if f.i < len(adj[f.v]) {
				w := adj[f.v][f.i]
				f.i++
				if index[w] < 0 {
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{w, 0})
				} else if onStack[w] {
					low[f.v] = min(low[f.v], index[w])
				}
				continue
			}
			v := f.v
			call = call[:len(call)-1]
			if len(call) > 0 {
				u := call[len(call)-1].v
				low[u] = min(low[u], low[v])
			}
			if low[v] == index[v] {
				c := len(order)
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp[w] = c
					if w == v {
						break
					}
				}
				order = append(order, c)
			}
		}
	}
	return comp, order
}

// drawHops draws an import chain alone.
func (gr *Graph) drawHops(opt DOTOptions) *Drawing {
	d := &Drawing{Imports: len(opt.Hops)}
	node := map[*Package]int{}
	add := func(p *Package) int {
		if i, ok := node[p]; ok {
			return i
		}
		node[p] = len(d.Nodes)
		d.Nodes = append(d.Nodes, DrawNode{ID: p.Name, Label: p.Name, Package: p, Tooltip: packageTooltip(p)})
		return node[p]
	}
	for i, h := range opt.Hops {
		from, to := add(h.From), add(h.To)
		if i == 0 {
			d.Nodes[from].Start = true
		}
		if i == len(opt.Hops)-1 {
			d.Nodes[to].Start = true
		}
		e := DrawEdge{From: from, To: to, Imports: 1, Objects: len(h.Objects), Missing: h.To.Missing()}
		if len(h.Objects) > 0 {
			e.Label = h.Objects[0].Path
			if len(h.Objects) > 1 {
				e.Label += fmt.Sprintf(" (+%d)", len(h.Objects)-1)
			}
		}
		d.Edges = append(d.Edges, e)
	}
	d.Packages = len(d.Nodes)
	return d
}

func packageTooltip(p *Package) string {
	switch {
	case p.Missing():
		return p.Name + ": missing"
	case p.Err != nil:
		return p.Rel + ": unreadable"
	}
	return p.Rel
}

func folderName(pi int, folders []string) string {
	if pi >= 0 && pi < len(folders) {
		return folders[pi]
	}
	if pi < 0 {
		return "other folders"
	}
	return "Paths[" + strconv.Itoa(pi) + "]"
}

// WriteDOT draws the graph in Graphviz DOT (see Draw for what is drawn).
func (gr *Graph) WriteDOT(w io.Writer, opt DOTOptions) error {
	return gr.Draw(opt).WriteDOT(w)
}

// NodeAttrs are the Graphviz attributes of node i (label and tooltip
// included), the one description of its look that WriteDOT and the HTML
// drawing (report.WriteDrawing) both follow: shape and fill by package
// kind, missing packages red and dashed, unreadable ones red, a stock
// group a grey folder, a cycle's packages red, the view's own packages a
// thick outline, a base node double-bordered with how many import it.
func (d *Drawing) NodeAttrs(i int) map[string]string {
	dn := d.Nodes[i]
	a := map[string]string{"label": dn.Label, "tooltip": dn.Tooltip, "fontname": "Helvetica", "style": "filled"}
	if g := dn.Group; g != nil {
		switch g.Kind {
		case GroupMod:
			a["shape"], a["fillcolor"] = "box3d", kindStyle[KindCode][1]
		case GroupFolder:
			a["shape"], a["fillcolor"] = "folder", kindStyle[KindOther][1]
		default:
			a["shape"], a["fillcolor"], a["color"] = "folder", "#dee2e6", "#6c757d"
		}
		if len(g.Missing) > 0 {
			a["color"], a["fontcolor"] = "red", "red"
		}
	} else if p := dn.Package; p == nil {
		a["shape"], a["fillcolor"], a["color"] = "folder", "#dee2e6", "#6c757d"
	} else {
		st := kindStyle[p.Kind]
		a["shape"], a["fillcolor"] = st[0], st[1]
		switch {
		case p.Missing():
			a["color"], a["fontcolor"], a["style"] = "red", "red", "dashed"
		case p.Err != nil:
			a["color"] = "red"
		}
	}
	if dn.Cycle != 0 {
		a["color"] = "red"
	}
	if dn.Start {
		a["penwidth"] = "2.5"
	}
	if dn.Base {
		a["label"] = dn.Label + "\n(base: imported by " + strconv.Itoa(dn.ImportedBy) + ")"
		a["peripheries"] = "2"
	}
	return a
}

// EdgeAttrs are the Graphviz attributes of edge i (see NodeAttrs): grey,
// cycle edges bold red, an import of a missing package red dashed, an
// EditPackages order error orange dashed and labelled "order" (a cycle's
// or a missing package's red wins), the tooltip saying what it stands for.
func (d *Drawing) EdgeAttrs(i int) map[string]string {
	e := d.Edges[i]
	a := map[string]string{"color": "#555555", "arrowsize": "0.6"}
	tooltip := d.Nodes[e.From].Label + " imports " + plural(e.Objects, "object") + " of " + d.Nodes[e.To].Label
	if e.Imports == 0 {
		tooltip = d.Nodes[e.From].Label + " uses " + d.Nodes[e.To].Label + " in its sources"
	}
	if d.Overview {
		// Weighted: the more package imports, the thicker.
		tooltip = d.Nodes[e.From].ID + " -> " + d.Nodes[e.To].ID + ": " + plural(e.Imports, "package import") + " of " + plural(e.Objects, "object")
		a["penwidth"] = strconv.FormatFloat(min(1+math.Log2(float64(max(e.Imports, 1)))/2, 4), 'f', 1, 64)
	}
	a["tooltip"] = tooltip
	if e.Label != "" {
		a["label"], a["fontname"], a["fontsize"] = e.Label, "Helvetica", "10"
	}
	if e.Cycle {
		a["color"], a["penwidth"], a["style"] = "red", "2.5", "bold"
	}
	if e.Missing {
		a["color"], a["style"] = "red", "dashed"
	}
	if e.Order {
		a["fontcolor"], a["tooltip"] = "#e8590c", tooltip+"; it is listed before "+d.Nodes[e.To].Label+" in EditPackages"
		if !e.Cycle && !e.Missing {
			a["color"], a["style"], a["penwidth"] = "#e8590c", "dashed", "2"
		}
	}
	return a
}

// WriteDOT writes the drawing in Graphviz DOT, each node and edge with
// NodeAttrs and EdgeAttrs, base nodes on the last rank. Nodes and edges
// are created in sorted order and emicklei/dot writes attributes sorted,
// so the output is byte-stable.
func (d *Drawing) WriteDOT(w io.Writer) error {
	return d.WriteDOTContext(context.Background(), w)
}

// WriteDOTContext is WriteDOT that stops with ctx's error, writing
// nothing, when ctx is done before the text is complete.
func (d *Drawing) WriteDOTContext(ctx context.Context, w io.Writer) error {
	g := dot.NewGraph(dot.Directed)
	g.ID("upkdeps")
	g.Attr("rankdir", "LR")
	g.Attr("fontname", "Helvetica")
	g.Attr("ranksep", "0.3")
	g.Attr("nodesep", "0.15")
	var bases *dot.Graph // base nodes go on the last rank
	nodes := make([]dot.Node, len(d.Nodes))
	for i, dn := range d.Nodes {
		if i%1024 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		parent := g
		if dn.Base {
			if bases == nil {
				bases = g.Subgraph("bases")
				bases.Attr("rank", "sink")
			}
			parent = bases
		}
		n := parent.Node(dn.ID)
		nodes[i] = n
		for k, v := range d.NodeAttrs(i) {
			if k == "label" {
				n.Label(v)
				continue
			}
			n.Attr(k, v)
		}
	}
	for i, e := range d.Edges {
		if i%1024 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		de := g.Edge(nodes[e.From], nodes[e.To])
		for k, v := range d.EdgeAttrs(i) {
			if k == "label" {
				de.Label(v)
				continue
			}
			de.Attr(k, v)
		}
	}
	text := g.String()
	if err := ctx.Err(); err != nil {
		return err
	}
	_, err := io.WriteString(w, text)
	return err
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}
