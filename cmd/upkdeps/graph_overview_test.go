package main

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/upkdeps/upkdeps/internal/demo"
)

// TestGraphOverview: on a generated 665-package server with 30 mods,
// graph without a view draws the overview (over --max-nodes), at most 60
// nodes and 150 edges; --from group:Mod05 (and --from Mod05's group by a
// name that is no package) draws the group's packages; --max-nodes 0 draws
// every package.
func TestGraphOverview(t *testing.T) {
	t.Chdir(server665(t))
	out, errOut, code := runCLI(t, "graph", "--ini", demo.ServerIni)
	nodes, edges := dotCounts(out)
	if code != exitOK || !strings.Contains(errOut, "drawing the overview") || nodes > 60 || edges > 150 || !strings.Contains(out, `label="Mod05\n`) {
		t.Errorf("overview: code %d, %d nodes, %d edges, stderr %q", code, nodes, edges, errOut)
	}
	if !strings.Contains(out, "missing: Mod04Voices") {
		t.Error("no group's tooltip names the missing Mod04Voices")
	}
	groups, err := demo.ServerGroups(665, 30)
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, code = runCLI(t, "graph", "--ini", demo.ServerIni, "--from", "group:Mod05", "--depth", "1")
	if code != exitOK {
		t.Fatalf("--from group:Mod05: code %d, stderr %q", code, errOut)
	}
	for _, p := range groups["Mod05"] {
		if !strings.Contains(out, `label="`+p+`"`) || !strings.Contains(out, `tooltip="Maps/`) {
			t.Errorf("--from group:Mod05 does not draw %s", p)
		}
	}
	if _, errOut, code := runCLI(t, "graph", "--ini", demo.ServerIni, "--from", "group:Nope"); code != exitError || !strings.Contains(errOut, "no such group") {
		t.Errorf("--from group:Nope: code %d, stderr %q", code, errOut)
	}
	out, errOut, code = runCLI(t, "graph", "--ini", demo.ServerIni, "--from", "Textures", "--depth", "1")
	if code != exitOK || !strings.Contains(out, `label="Shared0000"`) {
		t.Errorf("--from Textures (a folder group): code %d, stderr %q", code, errOut)
	}
	out, _, code = runCLI(t, "graph", "--ini", demo.ServerIni, "--max-nodes", "0")
	if nodes, _ := dotCounts(out); code != exitOK || nodes < 600 {
		t.Errorf("--max-nodes 0: code %d, %d nodes", code, nodes)
	}
}

// TestOverviewInBrowser: the report page of the generated 665-package
// server draws the overview (at most 60 groups, none overlapping), every
// missing package in a group's tooltip; clicking Mod05 opens it with its
// packages listed. Nothing logs an error or leaves the file.
func TestOverviewInBrowser(t *testing.T) {
	tb := newTab(t)
	tb.open(t, server665Page(t), "#/overview")
	var r []any
	tb.run(t, "overview boxes", chromedp.Evaluate(boxesOverlap+`("#overview-svg")`, &r))
	if r[0] != "" || r[1].(float64) > 60 || r[1].(float64) < 30 {
		t.Errorf("overview: %v nodes, overlapping %q", r[1], r[0])
	}
	var tips string
	tb.run(t, "tooltips", chromedp.Evaluate(`Array.from(document.querySelectorAll('#overview-svg a.node > title')).map(function (t) { return t.textContent; }).join('\n')`, &tips))
	for miss := range demo.ServerMissing(30) {
		if !strings.Contains(tips, miss) {
			t.Errorf("missing %s in no group's tooltip", miss)
		}
	}
	tb.run(t, "open Mod05", chromedp.Click(`#overview-svg a.node[data-name="Mod05"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`#group-members`, chromedp.ByQuery))
	listed := tb.text(t, "#group-members")
	groups, _ := demo.ServerGroups(665, 30)
	for _, p := range groups["Mod05"] {
		if !strings.Contains(listed, p) {
			t.Errorf("group Mod05 does not list %s: %q", p, listed)
		}
	}
	tb.clean(t)
}
