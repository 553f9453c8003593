package main

import (
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/internal/demo"
)

// TestGraphOverview: on a generated 665-package server with 30 mods,
// graph without a view draws the overview (over --max-nodes), at most 60
// nodes and 150 edges; --from group:Mod05 (and --from Mod05's group by a
// name that is no package) draws the group's packages; --max-nodes 0 draws
// every package.
func TestGraphOverview(t *testing.T) {
	dir := t.TempDir()
	if err := demo.WriteServer(dir, 665, 30); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
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
