package report

import (
	"bytes"
	"encoding/json"
	"html"
	"os"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/graph"
)

// TestWriteDrawing: the drawing page carries every node and edge of the
// drawing with the attributes its DOT has, its scripts allowed by hash
// under a policy that forbids every fetch, and a hostile name only as
// escaped data.
func TestWriteDrawing(t *testing.T) {
	d := demoGraph(t).Draw(graph.DOTOptions{})
	var page bytes.Buffer
	if err := WriteDrawing(&page, d, `</script><script>alert(1)</script>`, "summary line"); err != nil {
		t.Fatal(err)
	}
	s := page.String()
	const open = `<script type="application/json" id="upkdeps-graph">`
	i := strings.Index(s, open)
	j := strings.Index(s[i+len(open):], "</script>")
	if i < 0 || j < 0 {
		t.Fatal("no data element")
	}
	var data drawingData
	if err := json.Unmarshal([]byte(s[i+len(open):i+len(open)+j]), &data); err != nil {
		t.Fatal(err)
	}
	if len(data.Nodes) != len(d.Nodes) || len(data.Edges) != len(d.Edges) || len(d.Nodes) == 0 {
		t.Fatalf("page has %d nodes and %d edges, the drawing %d and %d", len(data.Nodes), len(data.Edges), len(d.Nodes), len(d.Edges))
	}
	var dot bytes.Buffer
	if err := d.WriteDOT(&dot); err != nil {
		t.Fatal(err)
	}
	for i, n := range data.Nodes {
		if n.ID != d.Nodes[i].ID || n.Attrs["fillcolor"] == "" || !strings.Contains(dot.String(), `fillcolor="`+n.Attrs["fillcolor"]+`"`) {
			t.Errorf("node %d: %+v", i, n)
		}
	}
	if strings.Contains(s, "<script>alert(1)") {
		t.Error("the title reached the page as markup")
	}
	csp := DrawingCSP()
	if !strings.Contains(html.UnescapeString(s), csp) || !strings.Contains(csp, "default-src 'none'") || strings.Contains(csp, "unsafe") || strings.Contains(csp, "http") {
		t.Errorf("policy %q", csp)
	}
	for _, f := range []string{"vendor/dagre.min.js", "drawing.js"} {
		js, _ := drawingAssets.ReadFile("assets/" + f)
		if !strings.Contains(s, "<script>"+string(js)+"</script>") || !strings.Contains(csp, cspHash(string(js))) {
			t.Errorf("%s not inline or not allowed by hash", f)
		}
	}
	js, err := os.ReadFile("assets/drawing.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function", "fetch(", "XMLHttpRequest"} {
		if bytes.Contains(js, []byte(bad)) {
			t.Errorf("assets/drawing.js uses %s", bad)
		}
	}
}
