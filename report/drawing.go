package report

import (
	"embed"
	"html/template"
	"io"
	"sync"

	"github.com/upkdeps/upkdeps/graph"
)

// The drawing page's files: its template, script and style, and the
// report's vendored dagre, which lays it out.
//
//go:embed assets/drawing.html assets/drawing.js assets/drawing.css assets/vendor/dagre.min.js
var drawingAssets embed.FS

// drawingPage is the parsed template of the drawing page with its scripts,
// style and policy (the report page's), read on first use.
var drawingPage = sync.OnceValue(func() pageAssets {
	return loadPage(drawingAssets, "drawing", "drawing.html", []string{"vendor/dagre.min.js", "drawing.js"}, "drawing.css")
})

// DrawingCSP is the Content-Security-Policy of the drawing page.
func DrawingCSP() string { return drawingPage().csp }

// drawingData is the drawing page's JSON: each node and edge with the
// Graphviz attributes WriteDOT gives it (graph.Drawing.NodeAttrs and
// EdgeAttrs), so that both pictures follow one description.
type drawingData struct {
	Nodes []drawingNode `json:"nodes"`
	Edges []drawingEdge `json:"edges"`
}

type drawingNode struct {
	ID    string            `json:"id"`
	Attrs map[string]string `json:"attrs"`
}

type drawingEdge struct {
	From  int               `json:"from"`
	To    int               `json:"to"`
	Attrs map[string]string `json:"attrs"`
}

// WriteDrawing writes d as one self-contained HTML page (`graph --format
// html`): the report's dagre lays it out in the browser, where it is drawn
// as SVG with the look of the DOT, and a button saves that SVG. title names
// the install, summary says what the drawing stands for.
func WriteDrawing(w io.Writer, d *graph.Drawing, title, summary string) error {
	data := drawingData{Nodes: make([]drawingNode, len(d.Nodes)), Edges: make([]drawingEdge, len(d.Edges))}
	for i, n := range d.Nodes {
		data.Nodes[i] = drawingNode{ID: n.ID, Attrs: d.NodeAttrs(i)}
	}
	for i, e := range d.Edges {
		data.Edges[i] = drawingEdge{From: e.From, To: e.To, Attrs: d.EdgeAttrs(i)}
	}
	return drawingPage().tmpl.Execute(w, struct {
		Title, Summary, CSP string
		CSS                 template.CSS
		Scripts             []template.JS
		Data                drawingData
	}{title, summary, drawingPage().csp, drawingPage().css, drawingPage().scripts, data})
}
