package main

import (
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/upkdeps/upkdeps/internal/demo"
)

// TestGraphWithoutDot: with no dot on PATH, svg, png and pdf exit 2 with
// one line naming both ways out (install Graphviz, or --format html), and
// html needs no dot.
func TestGraphWithoutDot(t *testing.T) {
	chdirDemo(t)
	t.Setenv("PATH", t.TempDir())
	for _, format := range []string{"svg", "png", "pdf"} {
		out, errOut, code := runCLI(t, "graph", "--ini", demo.Ini, "--format", format, "-o", "g."+format)
		if code != exitError || out != "" || strings.Count(errOut, "\n") != 1 ||
			!strings.Contains(errOut, "install Graphviz") || !strings.Contains(errOut, "--format html") {
			t.Errorf("--format %s without dot: code %d, stdout %q, stderr %q", format, code, out, errOut)
		}
		if _, err := os.Stat("g." + format); err == nil {
			t.Errorf("--format %s without dot wrote g.%s", format, format)
		}
	}
	out, errOut, code := runCLI(t, "graph", "--ini", demo.Ini, "--format", "html")
	if code != exitOK || !strings.HasPrefix(out, "<!doctype html>") || !strings.Contains(out, "Content-Security-Policy") {
		t.Errorf("--format html without dot: code %d, stderr %q, output %.200q", code, errOut, out)
	}
}

// dotCounts counts the node statements and edges of a DOT text.
func dotCounts(dot string) (nodes, edges int) {
	nodes = len(regexp.MustCompile(`(?m)^\s*n\d+\[`).FindAllString(dot, -1))
	edges = strings.Count(dot, "->")
	return nodes, edges
}

// pageNodesOverlap is a script returning the ids of the first two nodes of
// the drawing page whose shapes overlap ("" when none do), with the
// numbers of nodes and edges drawn.
const pageNodesOverlap = `(function () {
	var gs = Array.from(document.querySelectorAll('#drawing svg g.node'));
	var rs = gs.map(function (g) { return g.querySelector('rect, ellipse, polygon').getBoundingClientRect(); });
	var hit = '';
	for (var i = 0; i < rs.length && !hit; i++) for (var j = i + 1; j < rs.length; j++) {
		var a = rs[i], b = rs[j];
		if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) { hit = gs[i].getAttribute('data-id') + ' / ' + gs[j].getAttribute('data-id'); break; }
	}
	return [hit, gs.length, document.querySelectorAll('#drawing svg g.edge').length];
})()`

// TestGraphHTMLInBrowser: `graph --format html` of the demo, opened in
// headless Chromium without dot on PATH, draws as many nodes and edges as
// the DOT has, none overlapping, with no console error and no request; its
// Save as SVG button downloads a well-formed SVG of the same drawing.
func TestGraphHTMLInBrowser(t *testing.T) {
	chdirDemo(t)
	tb := newTab(t)
	dotText, _, code := runCLI(t, "graph", "--ini", demo.Ini)
	if code != exitOK {
		t.Fatalf("graph: code %d", code)
	}
	wantNodes, wantEdges := dotCounts(dotText)
	t.Setenv("PATH", t.TempDir())
	if _, errOut, code := runCLI(t, "graph", "--ini", demo.Ini, "--format", "html", "-o", "graph.html"); code != exitOK {
		t.Fatalf("graph --format html: code %d, stderr %q", code, errOut)
	}
	tb.open(t, "graph.html", "")
	var r []any
	tb.run(t, "nodes of the drawing", chromedp.Evaluate(pageNodesOverlap, &r))
	if r[0] != "" {
		t.Errorf("nodes overlap: %v", r[0])
	}
	if nodes, edges := int(r[1].(float64)), int(r[2].(float64)); nodes != wantNodes || edges != wantEdges || nodes == 0 {
		t.Errorf("page draws %d nodes and %d edges, the DOT has %d and %d", nodes, edges, wantNodes, wantEdges)
	}

	dir := t.TempDir()
	done := make(chan string, 1)
	chromedp.ListenTarget(tb.ctx, func(ev any) {
		if e, ok := ev.(*cdpbrowser.EventDownloadProgress); ok && e.State == cdpbrowser.DownloadProgressStateCompleted {
			select {
			case done <- e.GUID:
			default:
			}
		}
	})
	tb.run(t, "save as SVG",
		cdpbrowser.SetDownloadBehavior(cdpbrowser.SetDownloadBehaviorBehaviorAllowAndName).WithDownloadPath(dir).WithEventsEnabled(true),
		chromedp.Click("#save-svg", chromedp.ByQuery))
	var guid string
	select {
	case guid = <-done:
	case <-time.After(stepTimeout):
		t.Fatal("Save as SVG: no download")
	}
	b, err := os.ReadFile(filepath.Join(dir, guid))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		XMLName xml.Name
		Width   string `xml:"width,attr"`
		Groups  []struct {
			Class string `xml:"class,attr"`
			Items []struct {
				Class string `xml:"class,attr"`
				ID    string `xml:"data-id,attr"`
			} `xml:"g"`
		} `xml:"g"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("saved SVG is not well-formed XML: %v\n%.300s", err, b)
	}
	if doc.XMLName.Space != "http://www.w3.org/2000/svg" || doc.XMLName.Local != "svg" {
		t.Errorf("saved file's root is %v, not an SVG", doc.XMLName)
	}
	if w, err := strconv.Atoi(doc.Width); err != nil || w <= 0 {
		t.Errorf("saved SVG's width %q", doc.Width)
	}
	count := map[string]int{}
	for _, g := range doc.Groups {
		for _, it := range g.Items {
			count[it.Class]++
		}
	}
	if count["node"] != wantNodes || count["edge"] != wantEdges {
		t.Errorf("saved SVG has %d nodes and %d edges, the DOT %d and %d", count["node"], count["edge"], wantNodes, wantEdges)
	}
	if !strings.Contains(string(b), ">DemoGame</text>") {
		t.Errorf("saved SVG does not name DemoGame")
	}
	tb.clean(t)
}

// TestGraphPDF: with dot, --format pdf writes a PDF of the demo (and
// needs -o, as png does).
func TestGraphPDF(t *testing.T) {
	if _, err := exec.LookPath("dot"); err != nil {
		t.Skip("graphviz's dot is not installed")
	}
	chdirDemo(t)
	if _, errOut, code := runCLI(t, "graph", "--ini", demo.Ini, "--format", "pdf"); code != exitError || !strings.Contains(errOut, "needs -o FILE") {
		t.Errorf("pdf to stdout: code %d, stderr %q", code, errOut)
	}
	if _, errOut, code := runCLI(t, "graph", "--ini", demo.Ini, "--format", "pdf", "-o", "g.pdf"); code != exitOK {
		t.Fatalf("pdf: code %d, stderr %q", code, errOut)
	}
	if b, _ := os.ReadFile("g.pdf"); !strings.HasPrefix(string(b), "%PDF-") {
		t.Errorf("g.pdf is not a PDF: %.20q", b)
	}
}
