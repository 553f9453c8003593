package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/upkdeps/upkdeps/internal/demo"
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
