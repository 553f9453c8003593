package graph

import (
	"fmt"
	"io"
	"strconv"

	"github.com/emicklei/dot"
)

// DOTOptions configure WriteDOT.
type DOTOptions struct {
	// Only restricts the drawing to these packages (nil: all).
	Only []*Package
	// Folders label the clusters by Paths index (Folders[i] for PathIndex i).
	Folders []string
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

// WriteDOT draws the graph in Graphviz DOT: nodes styled by package kind,
// missing packages red and dashed, cycle edges bold red, one cluster per
// Paths folder, edges labelled with the number of objects imported. Nodes
// and edges are created in sorted order, so the output is byte-stable.
func (gr *Graph) WriteDOT(w io.Writer, opt DOTOptions) error {
	include := map[*Package]bool{}
	if opt.Only == nil {
		for _, p := range gr.pkgs {
			include[p] = true
		}
	} else {
		for _, p := range opt.Only {
			include[p] = true
		}
	}
	inCycle := map[*Package]int{}
	for i, comp := range gr.Cycles() {
		for _, p := range comp {
			inCycle[p] = i + 1
		}
	}

	g := dot.NewGraph(dot.Directed)
	g.ID("upkdeps")
	g.Attr("rankdir", "LR")
	g.Attr("fontname", "Helvetica")
	g.NodeInitializer(func(n dot.Node) { n.Attr("fontname", "Helvetica").Attr("style", "filled") })
	clusters := map[int]*dot.Graph{}
	cluster := func(p *Package) *dot.Graph {
		if p.Missing() || p.PathIndex < 0 {
			return g
		}
		if c, ok := clusters[p.PathIndex]; ok {
			return c
		}
		label := "Paths[" + strconv.Itoa(p.PathIndex) + "]"
		if p.PathIndex < len(opt.Folders) {
			label = opt.Folders[p.PathIndex]
		}
		c := g.Subgraph(fmt.Sprintf("%03d %s", p.PathIndex, label), dot.ClusterOption{})
		c.Label(label)
		clusters[p.PathIndex] = c
		return c
	}
	nodes := map[*Package]dot.Node{}
	for _, p := range gr.pkgs {
		if !include[p] {
			continue
		}
		n := cluster(p).Node(p.Name)
		st := kindStyle[p.Kind]
		n.Attr("shape", st[0]).Attr("fillcolor", st[1])
		switch {
		case p.Missing():
			n.Attr("color", "red").Attr("fontcolor", "red").Attr("style", "dashed")
			n.Attr("tooltip", p.Name+": missing")
		case p.Err != nil:
			n.Attr("color", "red").Attr("tooltip", p.Rel+": unreadable")
		default:
			n.Attr("tooltip", p.Rel)
		}
		nodes[p] = n
	}
	for _, e := range gr.Edges() {
		from, ok1 := nodes[e.From]
		to, ok2 := nodes[e.To]
		if !ok1 || !ok2 {
			continue
		}
		de := g.Edge(from, to)
		if n := len(e.Objects); n > 0 {
			de.Label(strconv.Itoa(n))
		}
		if c := inCycle[e.From]; c != 0 && c == inCycle[e.To] {
			de.Attr("color", "red").Attr("penwidth", "2.5").Attr("style", "bold")
		}
		if e.To.Missing() {
			de.Attr("color", "red").Attr("style", "dashed")
		}
	}
	_, err := io.WriteString(w, g.String())
	return err
}
