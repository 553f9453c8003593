package report

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/check"
	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/internal/demo"
	"github.com/upkdeps/upkdeps/redirect"
	"github.com/upkdeps/upkdeps/search"
)

// demoGraph builds the graph of the demo install.
func demoGraph(t *testing.T) *graph.Graph {
	t.Helper()
	dir := t.TempDir()
	if err := demo.Write(dir); err != nil {
		t.Fatal(err)
	}
	f, err := ini.Load(filepath.Join(dir, demo.Ini))
	if err != nil {
		t.Fatal(err)
	}
	s, err := search.New(f, search.Options{Generation: 1})
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Build(context.Background(), graph.FromSearcher(s), graph.Options{Roots: graph.RootsOf(f, 1)})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// embedded returns the JSON of the page's data element.
func embedded(t *testing.T, page string) []byte {
	t.Helper()
	const open = `<script type="application/json" id="upkdeps-data">`
	i := strings.Index(page, open)
	j := strings.Index(page[i+len(open):], "</script>")
	if i < 0 || j < 0 {
		t.Fatal("no data element in the page")
	}
	return []byte(page[i+len(open) : i+len(open)+j])
}

func TestBuildAndRoundTrip(t *testing.T) {
	g := demoGraph(t)
	rep := &check.Report{SchemaVersion: check.SchemaVersion, Findings: []graph.Finding{{Kind: graph.MissingPackage,
		Severity: graph.Error, Package: "X", Message: "</script><b>x</b>"}}}
	d := Build(rep, g, Options{Generator: "upkdeps test", MaxObjects: -1})
	var page bytes.Buffer
	if err := Write(&page, d, "Demo.ini <i>"); err != nil {
		t.Fatal(err)
	}
	var back Data
	if err := json.Unmarshal(embedded(t, page.String()), &back); err != nil {
		t.Fatalf("embedded JSON: %v", err)
	}
	if !reflect.DeepEqual(back.Check, rep) {
		t.Errorf("check value: have %+v, want %+v", back.Check, rep)
	}
	if !reflect.DeepEqual(back.Graph, d.Graph) {
		t.Error("the graph does not round-trip")
	}
	if strings.Contains(page.String(), "<b>x</b>") || strings.Contains(page.String(), "Demo.ini <i>") {
		t.Error("data or title reached the page as markup")
	}
	byName := map[string]Package{}
	for _, p := range d.Graph.Packages {
		byName[p.Name] = p
	}
	if p := byName["Engine"]; p.File != "System/Engine.u" || p.Kind != graph.KindCode || p.Size <= 0 || p.GUID == "" {
		t.Errorf("Engine: %+v", p)
	}
	if p := byName["CityTex"]; p.Kind != graph.KindMissing || p.File != "" || p.Size != -1 || len(p.Flags) != 0 {
		t.Errorf("missing CityTex: %+v", p)
	}
	if len(d.Graph.Imports) != len(g.Edges()) || len(d.Graph.Cycles) != len(g.Cycles()) || len(d.Graph.Roots) != len(g.Roots()) {
		t.Errorf("imports %d, cycles %d, roots %d; graph has %d, %d, %d", len(d.Graph.Imports), len(d.Graph.Cycles),
			len(d.Graph.Roots), len(g.Edges()), len(g.Cycles()), len(g.Roots()))
	}
	for _, im := range d.Graph.Imports {
		if len(im.Objects) != im.Count {
			t.Errorf("import %d->%d lists %d of %d objects without a cap", im.From, im.To, len(im.Objects), im.Count)
		}
	}
}

func TestObjectCap(t *testing.T) {
	for _, tc := range []struct{ max, want int }{
		{-1, -1}, {111, -1}, {1000, -1}, {110, 99}, {21, 10}, {3, 1}, {1, 0},
	} {
		counts := []int{1, 10, 100, 0}
		if have := objectCap(counts, tc.max); have != tc.want {
			t.Errorf("cap for %d: %d, want %d", tc.max, have, tc.want)
		}
		if k := objectCap(counts, tc.max); k >= 0 {
			total := 0
			for _, c := range counts {
				total += min(c, k)
			}
			if total > tc.max {
				t.Errorf("cap %d for %d lists %d objects", k, tc.max, total)
			}
		}
	}
	g := demoGraph(t)
	d := Build(nil, g, Options{MaxObjects: 2})
	listed := 0
	for _, im := range d.Graph.Imports {
		listed += len(im.Objects)
	}
	if d.Graph.ObjectsPerImport < 0 || listed != 2 {
		t.Errorf("MaxObjects 2: objects_per_import %d, %d listed, want 2", d.Graph.ObjectsPerImport, listed)
	}
	for _, im := range d.Graph.Imports {
		if len(im.Objects) > d.Graph.ObjectsPerImport {
			t.Errorf("an import lists %d objects, more than objects_per_import %d", len(im.Objects), d.Graph.ObjectsPerImport)
		}
	}
}

func TestCSPForbidsRequests(t *testing.T) {
	csp := CSP()
	for _, want := range []string{"default-src 'none'", "script-src 'sha256-", "style-src 'sha256-", "base-uri 'none'", "form-action 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe") || strings.Contains(csp, "http") {
		t.Errorf("CSP %q allows unsafe code or a host", csp)
	}
}

// TestScriptUsesNoInnerHTML keeps the page's script away from the APIs
// that parse strings as markup or code.
func TestScriptUsesNoInnerHTML(t *testing.T) {
	js, err := os.ReadFile("assets/app.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"} {
		if bytes.Contains(js, []byte(bad)) {
			t.Errorf("assets/app.js uses %s", bad)
		}
	}
}

// TestBuildDownloads: the page keeps each root's sums without its package
// list, and at most MaxDownloadPackages packages, with their count.
func TestBuildDownloads(t *testing.T) {
	g := demoGraph(t)
	dl := &redirect.Downloads{
		Roots: []redirect.RootDownload{{Name: "DM-Demo", Kind: "map", Packages: []string{"DM-Demo", "DemoTex"},
			Sizes: redirect.Sizes{Count: 2, Bytes: 900, Compressed: -1}}},
		Total: redirect.Sizes{Count: MaxDownloadPackages + 5, Bytes: 1 << 20, Compressed: -1},
	}
	for i := range MaxDownloadPackages + 5 {
		dl.Packages = append(dl.Packages, redirect.PackageDownload{Name: "P" + strconv.Itoa(i), Bytes: 10, Compressed: -1, Roots: 1})
	}
	d := Build(&check.Report{}, g, Options{Downloads: dl})
	b, err := json.Marshal(d.Downloads)
	if err != nil {
		t.Fatal(err)
	}
	var have struct {
		Roots        []map[string]any `json:"roots"`
		Packages     []any            `json:"packages"`
		PackageCount int              `json:"package_count"`
		Total        redirect.Sizes   `json:"total"`
	}
	if err := json.Unmarshal(b, &have); err != nil {
		t.Fatal(err)
	}
	if len(have.Roots) != 1 || have.Roots[0]["name"] != "DM-Demo" || have.Roots[0]["bytes"] != 900.0 || have.Roots[0]["packages"] != nil {
		t.Errorf("roots: %v (want DM-Demo's sums, no package list)", have.Roots)
	}
	if len(have.Packages) != MaxDownloadPackages || have.PackageCount != MaxDownloadPackages+5 || have.Total != dl.Total {
		t.Errorf("%d packages of %d, total %+v; want %d of %d, %+v", len(have.Packages), have.PackageCount, have.Total,
			MaxDownloadPackages, MaxDownloadPackages+5, dl.Total)
	}
	if Build(&check.Report{}, g, Options{}).Downloads != nil {
		t.Error("no downloads given, yet the page has some")
	}
}

// TestObjectNamesOnce: the page's JSON lists every object name once, in
// graph.object_names (sorted), and an import's objects are indexes into
// it; an import's names read back in their order.
func TestObjectNamesOnce(t *testing.T) {
	g := demoGraph(t)
	d := Build(&check.Report{SchemaVersion: check.SchemaVersion}, g, Options{MaxObjects: -1})
	shared := map[string]int{}
	for _, im := range d.Graph.Imports {
		for _, o := range im.Objects {
			shared[o]++
		}
	}
	repeated := ""
	for o, n := range shared {
		if n > 1 && (repeated == "" || o < repeated) {
			repeated = o
		}
	}
	if repeated == "" {
		t.Fatal("the demo install imports no object name twice: nothing to intern")
	}
	var page bytes.Buffer
	if err := Write(&page, d, "demo"); err != nil {
		t.Fatal(err)
	}
	raw := embedded(t, page.String())
	var doc struct {
		Graph struct {
			ObjectNames []string            `json:"object_names"`
			Imports     [][]json.RawMessage `json:"imports"`
		} `json:"graph"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Graph.ObjectNames) != len(shared) || !slices.IsSorted(doc.Graph.ObjectNames) {
		t.Errorf("object_names: %d names (sorted: %v), want the %d distinct ones sorted",
			len(doc.Graph.ObjectNames), slices.IsSorted(doc.Graph.ObjectNames), len(shared))
	}
	quoted, _ := json.Marshal(repeated)
	if n := bytes.Count(raw, quoted); n != 1 {
		t.Errorf("%s, imported %d times, is written %d times, want once", quoted, shared[repeated], n)
	}
	for i, im := range doc.Graph.Imports {
		var idx []int
		if err := json.Unmarshal(im[3], &idx); err != nil {
			t.Fatalf("import %d's objects: %v", i, err)
		}
		for k, n := range idx {
			if have, want := doc.Graph.ObjectNames[n], d.Graph.Imports[i].Objects[k]; have != want {
				t.Errorf("import %d object %d: %q, want %q", i, k, have, want)
			}
		}
	}
}

// TestGraphJSONBadIndex: an object index out of object_names is an error
// naming the import, not a panic.
func TestGraphJSONBadIndex(t *testing.T) {
	var g Graph
	err := json.Unmarshal([]byte(`{"packages":[],"object_names":["A (Core.Class)"],"imports":[[0,0,1,[0]],[0,0,1,[1]]],"roots":[],"cycles":[],"objects_per_import":-1}`), &g)
	if err == nil || !strings.Contains(err.Error(), "import 1 names object 1 of 1") {
		t.Errorf("have %v", err)
	}
}

// TestVendoredScripts: the page carries each vendored library whole, with
// its licence text, each allowed by its hash; nothing in it asks for a
// source map; and assets/vendor/VERSIONS holds the versions and tarball
// hashes scripts/vendor-js.sh pins.
func TestVendoredScripts(t *testing.T) {
	var page bytes.Buffer
	if err := Write(&page, Build(&check.Report{}, demoGraph(t), Options{}), "demo"); err != nil {
		t.Fatal(err)
	}
	for _, f := range scriptFiles {
		js, err := assets.ReadFile("assets/" + f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(page.String(), "<script>"+string(js)+"</script>") {
			t.Errorf("the page does not hold %s as it is", f)
		}
		sum := sha256.Sum256(js)
		if h := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"; !strings.Contains(CSP(), h) {
			t.Errorf("the CSP does not allow %s (%s)", f, h)
		}
	}
	for _, want := range []string{"@dagrejs/dagre 3.1.3 (MIT):", "@dagrejs/graphlib 4.0.6 (MIT):", "d3-hierarchy 3.1.3 (ISC):", "Copyright (c) 2012-2014 Chris Pettitt", "Copyright 2010-2026 Mike Bostock"} {
		if !strings.Contains(page.String(), want) {
			t.Errorf("the page lacks the licence line %q", want)
		}
	}
	if strings.Contains(page.String(), "sourceMappingURL") {
		t.Error("the page names a source map: a browser's developer tools would request it")
	}
	script, err := os.ReadFile("../scripts/vendor-js.sh")
	if err != nil {
		t.Fatal(err)
	}
	versions, err := os.ReadFile("assets/vendor/VERSIONS")
	if err != nil {
		t.Fatal(err)
	}
	var pinned, vendored []string
	for _, line := range strings.Split(string(script), "\n") {
		if f := strings.Fields(line); len(f) == 5 && strings.HasPrefix(f[2], "sha512-") {
			pinned = append(pinned, f[0]+" "+f[1]+" "+f[2])
		}
	}
	for _, line := range strings.Split(string(versions), "\n") {
		if f := strings.Fields(line); len(f) == 4 && !strings.HasPrefix(line, "#") {
			vendored = append(vendored, f[0]+" "+f[1]+" "+f[3])
		}
	}
	if len(pinned) == 0 || !slices.Equal(pinned, vendored) {
		t.Errorf("scripts/vendor-js.sh pins %q, assets/vendor/VERSIONS has %q: run the script", pinned, vendored)
	}
}
