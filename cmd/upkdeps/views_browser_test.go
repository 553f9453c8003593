package main

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/upkdeps/upkdeps/internal/demo"
	"github.com/upkdeps/upkdeps/redirect"
)

// columnsScript returns the package names of each column of the
// neighbourhood diagram, top to bottom, left column first.
const columnsScript = `(function () {
	var cols = new Map();
	document.querySelectorAll('#nb-svg a.node').forEach(function (a) {
		var r = a.querySelector('rect'), x = Math.round(+r.getAttribute('x'));
		if (!cols.has(x)) cols.set(x, []);
		cols.get(x).push([+r.getAttribute('y'), a.getAttribute('data-name') || '']);
	});
	return Array.from(cols.keys()).sort(function (a, b) { return a - b; }).map(function (x) {
		return cols.get(x).sort(function (a, b) { return a[0] - b[0]; }).map(function (e) { return e[1]; }).filter(function (n) { return n; });
	});
})()`

// TestNeighbourhoodColumnsAToZ: each column of a package's neighbourhood
// lists its packages A to Z from the top (case aside).
func TestNeighbourhoodColumnsAToZ(t *testing.T) {
	chdirDemo(t)
	tb := newTab(t)
	if _, errOut, code := runCLI(t, "report", "--ini", demo.Ini, "-o", "report.html"); code == exitError {
		t.Fatalf("report: %s", errOut)
	}
	for _, pkg := range []string{"DM-Demo", "DemoGame", "Engine"} {
		for _, d := range []string{"", "?d=2"} {
			tb.open(t, "report.html", "#/pkg/"+pkg+d)
			var cols [][]string
			tb.run(t, "columns", chromedp.Evaluate(columnsScript, &cols))
			multi := false
			for _, c := range cols {
				multi = multi || len(c) > 2
				if !slices.IsSortedFunc(c, func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) }) {
					t.Errorf("%s%s: column %v is not A to Z", pkg, d, c)
				}
			}
			if !multi {
				t.Errorf("%s%s: no column of 3 packages or more: %v", pkg, d, cols)
			}
		}
	}
	tb.clean(t)
}

// TestTreemapCompressedInBrowser: with report --redirect DIR, the
// Downloads view offers raw and compressed sizes, and each tile is the
// size downloads --json --redirect gives (compressed where DIR has the
// file); without it, no switch.
func TestTreemapCompressedInBrowser(t *testing.T) {
	chdirDemo(t)
	tb := newTab(t)
	if _, errOut, code := runCLI(t, "redirect", "build", "--ini", demo.Ini, "-o", "redirect"); code == exitError {
		t.Fatalf("redirect build: %s", errOut)
	}
	if _, errOut, code := runCLI(t, "report", "--ini", demo.Ini, "--redirect", "redirect", "-o", "report.html"); code == exitError {
		t.Fatalf("report: %s", errOut)
	}
	out, _, _ := runCLI(t, "downloads", "--ini", demo.Ini, "--redirect", "redirect", "--json")
	var dl redirect.Downloads
	if err := json.Unmarshal([]byte(out), &dl); err != nil {
		t.Fatal(err)
	}
	want := func(compressed bool) map[string]float64 {
		m := map[string]float64{}
		for _, p := range dl.Packages {
			m[p.Name] = float64(p.Bytes)
			if compressed && p.Compressed >= 0 {
				m[p.Name] = float64(p.Compressed)
			}
		}
		return m
	}
	tiles := func() map[string]float64 {
		var pairs [][]any
		tb.run(t, "tiles", chromedp.Evaluate(`Array.from(document.querySelectorAll('#dl-treemap .tile[data-name]')).map(function (t) { return [t.getAttribute('data-name'), +t.getAttribute('data-bytes')]; })`, &pairs))
		m := map[string]float64{}
		for _, p := range pairs {
			m[p[0].(string)] = p[1].(float64)
		}
		return m
	}
	if dl.Total.CompressedCount == 0 || maps.Equal(want(true), want(false)) {
		t.Fatal("redirect build wrote no compressed file the downloads see, or none of another size")
	}
	for _, c := range []struct {
		frag       string
		compressed bool
	}{{"#/downloads", false}, {"#/downloads?size=compressed", true}} {
		tb.open(t, "report.html", c.frag)
		if have, w := tiles(), want(c.compressed); !maps.Equal(have, w) {
			t.Errorf("%s: tiles %v, want %v", c.frag, have, w)
		}
		if !strings.Contains(tb.text(t, "#dl-size"), "compressed") {
			t.Errorf("%s: no size switch", c.frag)
		}
	}
	if _, errOut, code := runCLI(t, "report", "--ini", demo.Ini, "-o", "plain.html"); code == exitError {
		t.Fatalf("report: %s", errOut)
	}
	tb.open(t, "plain.html", "#/downloads")
	var n int
	tb.run(t, "switch", chromedp.Evaluate(`document.querySelectorAll('#dl-size').length`, &n))
	if n != 0 {
		t.Error("a page without compressed sizes offers the switch")
	}
	tb.clean(t)
}
