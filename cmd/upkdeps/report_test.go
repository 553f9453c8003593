package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/internal/demo"
	"github.com/upkdeps/upkdeps/internal/testutil"
)

// pageData returns the JSON embedded in a report page.
func pageData(t *testing.T, page string) map[string]any {
	t.Helper()
	const open = `<script type="application/json" id="upkdeps-data">`
	i := strings.Index(page, open)
	if i < 0 {
		t.Fatal("the page has no data element")
	}
	rest := page[i+len(open):]
	j := strings.Index(rest, "</script>")
	if j < 0 {
		t.Fatal("the data element is not closed")
	}
	var d map[string]any
	if err := json.Unmarshal([]byte(rest[:j]), &d); err != nil {
		t.Fatalf("the embedded data is not JSON: %v", err)
	}
	return d
}

func TestReportDataIsCheckJSON(t *testing.T) {
	chdirDemo(t)
	for _, extra := range [][]string{nil, {"--with-cache"}} {
		page, errOut, code := runCLI(t, append([]string{"report", "--ini", demo.Ini, "-o", "-"}, extra...)...)
		if code != exitFindings {
			t.Fatalf("report %v: code %d, stderr %q", extra, code, errOut)
		}
		checkOut, _, _ := runCLI(t, append([]string{"check", "--ini", demo.Ini, "--json"}, extra...)...)
		var want any
		if err := json.Unmarshal([]byte(checkOut), &want); err != nil {
			t.Fatal(err)
		}
		d := pageData(t, page)
		if !reflect.DeepEqual(d["check"], want) {
			t.Errorf("report %v: the page's check value differs from check --json", extra)
		}
		g := d["graph"].(map[string]any)
		if n := len(g["packages"].([]any)); n != 19 {
			t.Errorf("report %v: %d packages in the page's graph, want 19", extra, n)
		}
		if d["order"] == nil {
			t.Errorf("report %v: no EditPackages order in the page", extra)
		}
	}
}

func TestReportWritesFile(t *testing.T) {
	chdirDemo(t)
	out, errOut, code := runCLI(t, "report", "--ini", demo.Ini, "--dry-run")
	if code != exitFindings || !strings.HasPrefix(out, "would write upkdeps-report.html") {
		t.Fatalf("--dry-run: code %d, out %q, stderr %q", code, out, errOut)
	}
	if _, err := os.Stat(defaultReportFile); !os.IsNotExist(err) {
		t.Fatalf("--dry-run wrote the file (stat: %v)", err)
	}
	out, _, code = runCLI(t, "report", "--ini", demo.Ini)
	if code != exitFindings || !strings.HasPrefix(out, "wrote upkdeps-report.html") {
		t.Fatalf("report: code %d, out %q", code, out)
	}
	first, err := os.ReadFile(defaultReportFile)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, code := runCLI(t, "report", "--ini", demo.Ini); code != exitFindings {
		t.Errorf("the same page again: code %d, want %d", code, exitFindings)
	}
	again, _ := os.ReadFile(defaultReportFile)
	if !bytes.Equal(first, again) {
		t.Error("the page is not byte-stable between runs")
	}
	if err := os.WriteFile(defaultReportFile, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runCLI(t, "report", "--ini", demo.Ini); code != exitError || !strings.Contains(errOut, "--force") {
		t.Errorf("over another file: code %d, stderr %q", code, errOut)
	}
	if _, _, code := runCLI(t, "report", "--ini", demo.Ini, "--force"); code != exitFindings {
		t.Errorf("--force: code %d", code)
	}
	// The only URLs in the page are the SVG namespace and the banner
	// comment of the vendored d3-hierarchy, neither a request.
	noNS := bytes.ReplaceAll(first, []byte(`'http://www.w3.org/2000/svg'`), nil)
	noNS = bytes.ReplaceAll(noNS, []byte("// https://d3js.org/d3-hierarchy/ v"), nil)
	for _, needle := range []string{"<meta http-equiv=\"Content-Security-Policy\"", "default-src &#39;none&#39;", "http://", "https://"} {
		has := bytes.Contains(noNS, []byte(needle))
		if want := !strings.Contains(needle, "//"); has != want {
			t.Errorf("page contains %q: %v, want %v", needle, has, want)
		}
	}
}

// hostileNames are package names that would break a page that pasted them
// into markup or script.
var hostileNames = []string{
	`<img src=x onerror=top['pwned']=1>`,
	`"quo'tes"&amp;`,
	`..`,
	`Пакет-ünïcødé`,
	`{{.Data}}`,
}

// writeHostileInstall writes an install whose packages have hostile names,
// and a map that imports each of them plus a missing one whose name closes
// the data element.
func writeHostileInstall(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, sub := range []string{"System", "Maps"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ini := "[Core.System]\nPaths=../System/*.u\nPaths=../Maps/*.unr\n[Engine.GameEngine]\nServerPackages=" + hostileNames[0] + "\n"
	if err := os.WriteFile(filepath.Join(dir, "System", "Hostile.ini"), []byte(ini), 0o644); err != nil {
		t.Fatal(err)
	}
	m := format.NewBuilder(69, 0)
	for i, n := range hostileNames {
		b := format.NewBuilder(69, 0)
		b.Export(0, "Thing", 0, 0, 100)
		// Windows forbids <, >, " and a few more in file names: there such
		// a name is only imported (a missing package), in the page all the same.
		if forbidden := runtime.GOOS == "windows" && strings.ContainsAny(n, `<>:"/\|?*`); !forbidden {
			if err := format.WriteFile(filepath.Join(dir, "System", n+".u"), b.File); err != nil {
				t.Fatal(err)
			}
		}
		if i != 3 { // the non-Latin-1 name is found through Paths only
			m.ImportPath(n+".Thing", "Core", "Class")
		}
	}
	m.ImportPath(`</script><script>top['pwned']=2</script>.X`, "Core", "Class")
	m.Export(0, "LevelInfo0", 0, 0, 10)
	if err := format.WriteFile(filepath.Join(dir, "Maps", "DM-Hostile.unr"), m.File); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "System", "Hostile.ini")
}

func TestReportHostileNamesStayData(t *testing.T) {
	ini := writeHostileInstall(t)
	page, errOut, code := runCLI(t, "report", "--ini", ini, "-o", "-")
	if code == exitError {
		t.Fatalf("report: stderr %q", errOut)
	}
	for _, bad := range []string{"<img", "</script><script>top", "{{.Data}}</script>"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page contains %q unescaped", bad)
		}
	}
	if n := strings.Count(page, "<script"); n != 4 {
		t.Errorf("%d script elements, want 4 (data, dagre, d3-hierarchy, the page's code)", n)
	}
	names := map[string]bool{}
	for _, p := range pageData(t, page)["graph"].(map[string]any)["packages"].([]any) {
		names[p.(map[string]any)["name"].(string)] = true
	}
	for _, n := range append(hostileNames, `</script><script>top['pwned']=2</script>`) {
		if !names[n] {
			t.Errorf("package %q is not in the page's data (have %v)", n, names)
		}
	}
}

func TestReportCorpus(t *testing.T) {
	for _, rel := range corpusInstalls {
		ini := testutil.CorpusFile(t, rel)
		page, errOut, code := runCLI(t, "report", "--ini", ini, "-o", "-")
		if code == exitError {
			t.Fatalf("report %s: stderr %q", rel, errOut)
		}
		checkOut, _, _ := runCLI(t, "check", "--ini", ini, "--json")
		var want any
		if err := json.Unmarshal([]byte(checkOut), &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(pageData(t, page)["check"], want) {
			t.Errorf("%s: the page's check value differs from check --json", rel)
		}
		t.Logf("%s report: %d bytes", rel, len(page))
	}
}

// indexedReport writes the report of fix's test world with --index and
// returns the page and what check --index --json prints.
func indexedReport(t *testing.T, out string) (string, string) {
	t.Helper()
	game, coll := fixWorld(t)
	db := filepath.Join(t.TempDir(), "index.db")
	ini := filepath.Join(game, "System", "Game.ini")
	if o, errOut, code := runCLI(t, "index", "add", "--index", db, "--no-progress", coll); code != exitOK {
		t.Fatalf("index add: code %d\n%s%s", code, o, errOut)
	}
	page, errOut, code := runCLI(t, "report", "--ini", ini, "--game", "ut99", "--index", db, "--no-progress", "-o", out)
	if code == exitError {
		t.Fatalf("report --index: %s", errOut)
	}
	checkOut, _, _ := runCLI(t, "check", "--ini", ini, "--game", "ut99", "--index", db, "--json", "--no-progress")
	return page, checkOut
}

func TestReportIndex(t *testing.T) {
	page, checkOut := indexedReport(t, "-")
	var want map[string]any
	if err := json.Unmarshal([]byte(checkOut), &want); err != nil {
		t.Fatal(err)
	}
	have := pageData(t, page)["check"]
	if !reflect.DeepEqual(have, any(want)) {
		t.Error("report --index: the page's check value differs from check --index --json")
	}
	if want["index"] == nil || len(want["index"].(map[string]any)["candidates"].([]any)) == 0 {
		t.Error("the fix world's check --index finds no candidates: the test checks nothing")
	}
}

// TestReportBudget665: the page of the generated 665-package install (the
// size of the UT2004 server of issue 30) stays under 3 MB with the
// default --max-objects: it was 3.5 MB with each import's object names
// written out, 1.0 MB with the names written once.
func TestReportBudget665(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 665-package install")
	}
	page := bench665Page(t)
	fi, err := os.Stat(page)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() >= 3<<20 {
		t.Errorf("the 665-package page is %.2f MB, the budget 3 MB", float64(fi.Size())/(1<<20))
	}
	data := pageData(t, string(readFile(t, page)))
	g := data["graph"].(map[string]any)
	if g["objects_per_import"].(float64) != -1 {
		t.Errorf("objects_per_import %v: the page should list every object of the 665-package install", g["objects_per_import"])
	}
}
