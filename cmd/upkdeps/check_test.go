package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/internal/demo"
)

// chdirDemo generates the demo install in a temporary folder and makes it the
// working folder, so outputs hold short relative paths.
func chdirDemo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := demo.Write(dir); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	return dir
}

func TestCheckDemo(t *testing.T) {
	chdirDemo(t)
	out, errOut, code := runCLI(t, "check", "--ini", demo.Ini)
	if code != exitFindings {
		t.Errorf("check: code %d, want %d (stderr %q)", code, exitFindings, errOut)
	}
	golden(t, "check-demo.txt", out)

	out, _, code = runCLI(t, "check", "--ini", demo.Ini, "--json")
	if code != exitFindings {
		t.Errorf("check --json: code %d", code)
	}
	golden(t, "check-demo.json", out)
	var rep struct {
		SchemaVersion   int `json:"schema_version"`
		PackagesScanned int `json:"packages_scanned"`
		Findings        []struct {
			Kind, Severity, Package, Message string
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, f := range rep.Findings {
		kinds[f.Kind] = true
	}
	for _, k := range []string{"missing_package", "missing_object", "class_mismatch", "native_unknown", "case_mismatch",
		"collision", "shadowed", "cycle", "edit_order", "edit_missing", "unreadable", "server_side_only"} {
		if !kinds[k] {
			t.Errorf("the demo does not exhibit %s", k)
		}
	}
	if rep.SchemaVersion != 3 || rep.PackagesScanned != 14 {
		t.Errorf("schema_version %d, packages_scanned %d", rep.SchemaVersion, rep.PackagesScanned)
	}
}

func TestCheckFindsIni(t *testing.T) {
	dir := chdirDemo(t)
	t.Chdir(filepath.Join(dir, "System"))
	_, errOut, code := runCLI(t, "check")
	if code != exitError || !strings.Contains(errOut, "UnrealTournament.ini") {
		t.Errorf("no known ini: code %d, stderr %q (want the list of tried names)", code, errOut)
	}
	if err := os.Rename("Demo.ini", "UnrealTournament.ini"); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runCLI(t, "check"); code != exitFindings {
		t.Errorf("ini found in .: code %d, stderr %q", code, errOut)
	}
}

func TestOrderDepsWhy(t *testing.T) {
	chdirDemo(t)
	for _, tc := range []struct {
		golden string
		code   int
		args   []string
	}{
		{"order-demo.txt", exitFindings, []string{"order", "--explain"}},
		{"order-demo.json", exitFindings, []string{"order", "--json"}},
		{"deps-demo.txt", exitFindings, []string{"deps", "DM-Demo"}},
		{"deps-demo.json", exitFindings, []string{"deps", "--json", "DM-Demo"}},
		{"rdeps-demo.txt", exitOK, []string{"rdeps", "Engine", "--depth", "1"}},
		{"why-demo.txt", exitOK, []string{"why", "DM-Demo", "DemoSnd"}},
		{"why-demo.json", exitOK, []string{"why", "--json", "DM-Demo", "Engine"}},
		{"graph-demo.dot", exitOK, []string{"graph"}},
		{"graph-demo-from.dot", exitOK, []string{"graph", "--from", "DemoWeapons", "--depth", "1"}},
		{"downloads-demo.txt", exitOK, []string{"downloads"}},
		{"downloads-demo.json", exitOK, []string{"downloads", "--json", "DM-Second"}},
		{"graph-demo-all.dot", exitOK, []string{"graph", "--all-edges", "--stock"}},
		{"graph-demo-path.dot", exitOK, []string{"graph", "--path", "DM-Demo", "DemoSnd"}},
		{"graph-demo-cycle.dot", exitOK, []string{"graph", "--cycle", "1"}},
	} {
		out, errOut, code := runCLI(t, append(tc.args, "--ini", demo.Ini)...)
		if code != tc.code {
			t.Errorf("%v: code %d, want %d (stderr %q)", tc.args, code, tc.code, errOut)
		}
		golden(t, tc.golden, out)
	}
	if _, errOut, code := runCLI(t, "downloads", "--ini", demo.Ini, "DM-Nope"); code != exitError || !strings.Contains(errOut, "DM-Nope: no such map") {
		t.Errorf("downloads of an unknown map: code %d, stderr %q", code, errOut)
	}
	if _, _, code := runCLI(t, "why", "--ini", demo.Ini, "Core", "DM-Demo"); code != exitFindings {
		t.Errorf("why with no chain: code %d, want %d", code, exitFindings)
	}
	if _, errOut, code := runCLI(t, "deps", "--ini", demo.Ini, "NoSuchPkg"); code != exitError || !strings.Contains(errOut, "NoSuchPkg") {
		t.Errorf("deps of unknown package: code %d, stderr %q", code, errOut)
	}
}

func TestGraphOutputFile(t *testing.T) {
	chdirDemo(t)
	if _, errOut, code := runCLI(t, "graph", "--ini", demo.Ini, "-o", "deps.dot"); code != exitOK {
		t.Fatalf("graph -o: code %d, stderr %q", code, errOut)
	}
	if err := os.WriteFile("deps.dot", []byte("something else"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runCLI(t, "graph", "--ini", demo.Ini, "-o", "deps.dot"); code != exitError || !strings.Contains(errOut, "--force") {
		t.Errorf("graph over a different file: code %d, stderr %q", code, errOut)
	}
	if _, _, code := runCLI(t, "graph", "--ini", demo.Ini, "-o", "deps.dot", "--force"); code != exitOK {
		t.Errorf("graph --force: code %d", code)
	}
	if _, _, code := runCLI(t, "graph", "--ini", demo.Ini, "--format", "gif"); code != exitError {
		t.Errorf("bad --format: code %d", code)
	}
}

// TestGraphViews: the views' usage errors, and a picture too big to be
// legible is refused in one line (DOT is still written, with a warning).
func TestGraphViews(t *testing.T) {
	chdirDemo(t)
	for _, args := range [][]string{
		{"--cycle", "2"}, {"--path", "DM-Demo"}, {"--path", "Core", "DM-Demo"}, {"--from", "Core", "--cycle", "1"},
	} {
		if _, errOut, code := runCLI(t, append([]string{"graph", "--ini", demo.Ini}, args...)...); code != exitError || strings.Count(errOut, "\n") > 3 {
			t.Errorf("graph %v: code %d, stderr %q", args, code, errOut)
		}
	}
	_, errOut, code := runCLI(t, "graph", "--ini", demo.Ini, "--format", "svg", "--max-nodes", "5")
	if _, err := exec.LookPath("dot"); err != nil {
		// Without Graphviz (as under wine) svg is refused for that first.
		if code != exitError || !strings.Contains(errOut, "needs Graphviz's dot") {
			t.Errorf("svg without dot: code %d, stderr %q", code, errOut)
		}
	} else if code != exitError || !strings.Contains(errOut, "too many to draw legibly") || !strings.Contains(errOut, "--from PKG --depth 1") {
		t.Errorf("svg past --max-nodes: code %d, stderr %q", code, errOut)
	}
	// Past --max-nodes without a view: the overview, still too big for 5.
	out, errOut, code := runCLI(t, "graph", "--ini", demo.Ini, "--max-nodes", "5")
	if code != exitOK || !strings.HasPrefix(out, "digraph") || !strings.Contains(errOut, "drawing the overview") || !strings.Contains(errOut, "warning: graph:") {
		t.Errorf("dot past --max-nodes: code %d, stderr %q", code, errOut)
	}
	_, errOut, _ = runCLI(t, "graph", "--ini", demo.Ini)
	if !strings.Contains(errOut, "graph: 18 nodes for 19 packages (2 stock packages grouped") {
		t.Errorf("no summary of what is drawn: %q", errOut)
	}
}

func TestGraphSVG(t *testing.T) {
	if _, err := exec.LookPath("dot"); err != nil {
		// CI installs Debian's graphviz for the Linux runs; the Windows
		// programs it runs under wine have no Windows dot to find.
		if os.Getenv("CI") != "" && os.Getenv("UPKDEPS_NO_GRAPHVIZ") == "" && runtime.GOOS != "windows" {
			t.Fatal("CI must install graphviz for this test (.ci/run does)")
		}
		t.Skip("graphviz's dot is not installed")
	}
	chdirDemo(t)
	out, errOut, code := runCLI(t, "graph", "--ini", demo.Ini, "--format", "svg")
	if code != exitOK || !strings.Contains(out, "<svg") || !strings.Contains(out, "DemoGame") {
		t.Errorf("graph --format svg: code %d, stderr %q, output %.200q", code, errOut, out)
	}
	if _, errOut, code := runCLI(t, "graph", "--ini", demo.Ini, "--format", "png", "-o", "g.png"); code != exitOK {
		t.Errorf("png: code %d, stderr %q", code, errOut)
	}
	if b, _ := os.ReadFile("g.png"); len(b) < 8 || string(b[1:4]) != "PNG" {
		t.Errorf("g.png is not a PNG")
	}
}

// TestCheckWithCacheAgreesAfterExtract: what check --with-cache predicts is
// what a plain check says once the cache is extracted into the install.
func TestCheckWithCacheAgreesAfterExtract(t *testing.T) {
	chdirDemo(t)
	out, _, code := runCLI(t, "check", "--ini", demo.Ini, "--with-cache")
	if code != exitFindings {
		t.Errorf("check --with-cache: code %d", code)
	}
	golden(t, "check-demo-with-cache.txt", out)

	type report struct {
		Findings  []struct{ Kind, Package, Message string }
		WithCache *struct {
			FindingsRemoved []struct{ Kind, Package string } `json:"findings_removed"`
		} `json:"with_cache"`
	}
	var withCache, after report
	out, _, _ = runCLI(t, "check", "--ini", demo.Ini, "--with-cache", "--json")
	if err := json.Unmarshal([]byte(out), &withCache); err != nil {
		t.Fatal(err)
	}
	if withCache.WithCache == nil || len(withCache.WithCache.FindingsRemoved) != 1 || withCache.WithCache.FindingsRemoved[0].Package != "CityTex" {
		t.Fatalf("with_cache: %+v", withCache.WithCache)
	}
	if _, errOut, code := runCLI(t, "cache", "extract", "--ini", demo.Ini); code == exitError {
		t.Fatalf("cache extract: code %d, stderr %q", code, errOut)
	}
	out, _, _ = runCLI(t, "check", "--ini", demo.Ini, "--json")
	if err := json.Unmarshal([]byte(out), &after); err != nil {
		t.Fatal(err)
	}
	summarize := func(r report) []string {
		var s []string
		for _, f := range r.Findings {
			s = append(s, f.Kind+" "+f.Package)
		}
		return s
	}
	if have, want := summarize(after), summarize(withCache); !slices.Equal(have, want) {
		t.Errorf("after extract, check differs from check --with-cache:\nhave %q\nwant %q", have, want)
	}
}
