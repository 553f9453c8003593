package unrealarchive

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/install"
	"github.com/upkdeps/upkdeps/internal/demo"
	"github.com/upkdeps/upkdeps/internal/testutil"
)

// item makes an item of game UT shipping files ("Name.ext"), with one
// download (ok, direct as given).
func item(hash int, name string, ok, direct bool, files ...string) Item {
	it := Item{Name: name, Game: "Unreal Tournament", Hash: sha(hash), Size: int64(1000 + hash)}
	state := "MISSING"
	if ok {
		state = "OK"
	}
	it.Downloads = []Download{{URL: "https://example.invalid/" + name, Direct: direct, State: state}}
	for i, f := range files {
		it.Files = append(it.Files, File{Name: f, Size: 10, Hash: sha(hash*100 + i)})
	}
	return it
}

func brought(r PlanResult) []string {
	var out []string
	for _, c := range r.Choices {
		out = append(out, c.Item.Name+"="+strings.Join(c.Brings, "+"))
	}
	return out
}

func TestPlanSmallestSet(t *testing.T) {
	items := []Item{
		item(1, "pack-ab", true, true, "A.utx", "B.u"),
		item(2, "only-c", true, false, "C.uax"),
		item(3, "all-dead", false, false, "A.utx", "B.u", "C.uax"), // no working download
		item(4, "big-abc", true, false, "A.utx", "B.u", "C.uax"),
		item(5, "ut2004-d", true, true, "D.u"),
	}
	items[4].Game = "Unreal Tournament 2004"
	r := Plan(items, PlanRequest{Missing: []Need{{Name: "A"}, {Name: "b", Code: true}, {Name: "C"}, {Name: "D"}},
		Games: []string{"Unreal Tournament"}})
	if have, want := brought(r), []string{"big-abc=A+b+C"}; !slices.Equal(have, want) {
		t.Errorf("choices %q, want %q", have, want)
	}
	if !slices.Equal(r.Unprovided, []string{"D"}) || !r.Exact {
		t.Errorf("unprovided %q exact %v", r.Unprovided, r.Exact)
	}
	// Without the big pack: two items; the dead one only when nothing else has it.
	r = Plan(items[:3], PlanRequest{Missing: []Need{{Name: "A"}, {Name: "B"}, {Name: "C"}}})
	if have, want := brought(r), []string{"pack-ab=A+B", "only-c=C"}; !slices.Equal(have, want) {
		t.Errorf("choices %q, want %q", have, want)
	}
	r = Plan([]Item{items[2]}, PlanRequest{Missing: []Need{{Name: "A"}}})
	if len(r.Choices) != 1 || r.Choices[0].Download != nil {
		t.Errorf("a dead item is still named when it is the only source: %+v", r.Choices)
	}
}

func TestPlanCodeStockAndExtensions(t *testing.T) {
	items := []Item{
		item(1, "sounds", true, true, "Botpack.uax", "Mod.uax"),
		item(2, "mapzip", true, true, "Botpack.u", "Mod.u", "Mod.int"),
	}
	stock := func(n string) bool { return strings.EqualFold(n, "Botpack") }
	r := Plan(items, PlanRequest{Missing: []Need{{Name: "Botpack", Code: true}, {Name: "Mod", Code: true}}, Stock: stock})
	if have, want := brought(r), []string{"mapzip=Mod"}; !slices.Equal(have, want) {
		t.Errorf("choices %q, want %q", have, want)
	}
	if !slices.Equal(r.Unprovided, []string{"Botpack"}) {
		t.Errorf("unprovided %q", r.Unprovided)
	}
}

// TestPlanCloses: what a chosen item's own files need (its dependency
// hints) and the install lacks is planned too, safely around cycles.
func TestPlanCloses(t *testing.T) {
	a := item(1, "a-pack", true, true, "A.unr")
	a.Dependencies = map[string][]Dependency{"A.unr": {{"B", "MISSING"}, {"Engine", "OK"}, {"Have", "MISSING"}}}
	b := item(2, "b-pack", true, true, "B.u")
	b.Dependencies = map[string][]Dependency{"B.u": {{"A", "MISSING"}, {"Nowhere", "MISSING"}}}
	r := Plan([]Item{a, b}, PlanRequest{Missing: []Need{{Name: "A"}}, Have: func(n string) bool { return n == "Have" }})
	if have, want := brought(r), []string{"a-pack=A", "b-pack=B"}; !slices.Equal(have, want) {
		t.Errorf("choices %q, want %q", have, want)
	}
	if !slices.Equal(r.Choices[1].Needed, []string{"B"}) || !slices.Equal(r.Unprovided, []string{"Nowhere"}) {
		t.Errorf("needed %q, unprovided %q", r.Choices[1].Needed, r.Unprovided)
	}
}

func TestPlanGreedyBound(t *testing.T) {
	var items []Item
	var missing []Need
	for i := 0; i < 30; i++ {
		n := "P" + string(rune('A'+i%26)) + string(rune('a'+i/26))
		missing = append(missing, Need{Name: n})
		items = append(items, item(i+1, "single-"+n, true, true, n+".utx"))
	}
	r := Plan(items, PlanRequest{Missing: missing, MaxExact: 5})
	if r.Exact || len(r.Choices) != 30 || r.Bound < 3.9 || r.Bound > 4.0 {
		t.Errorf("exact %v, %d choices, bound %v", r.Exact, len(r.Choices), r.Bound)
	}
}

// TestPlanCorpusSample: a UT99 install missing SGTech1 and K_vision gets
// items of the real metadata that ship them.
func TestPlanCorpusSample(t *testing.T) {
	root := filepath.Join(testutil.Corpus(t), "unreal-archive-data__sample")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("no Unreal Archive sample: %v", err)
	}
	res, err := Walk(context.Background(), root, 2)
	if err != nil {
		t.Fatal(err)
	}
	r := Plan(res.Items, PlanRequest{Missing: []Need{{Name: "SGTech1"}, {Name: "K_vision"}}, Games: []string{"Unreal Tournament"}})
	var got []string
	for _, c := range r.Choices {
		got = append(got, c.Brings...)
		if c.Item.Game != "Unreal Tournament" {
			t.Errorf("an item of %s", c.Item.Game)
		}
	}
	slices.Sort(got)
	if !slices.Contains(got, "SGTech1") || !slices.Contains(got, "K_vision") {
		t.Errorf("brought %q; choices %q; unprovided %q", got, brought(r), r.Unprovided)
	}
	t.Logf("plan: %q, unprovided %q", brought(r), r.Unprovided)
}

// TestRequest: the request of the demo install's missing packages has a
// Need per missing_package finding, a code Need where classes are
// imported from it; Have answers from the graph (a missing package is not
// had) and Stock is the stock list.
func TestRequest(t *testing.T) {
	dir := t.TempDir()
	if err := demo.Write(dir); err != nil {
		t.Fatal(err)
	}
	in, err := install.Open(install.Options{Ini: filepath.Join(dir, demo.Ini)})
	if err != nil {
		t.Fatal(err)
	}
	g, err := in.Graph(context.Background(), install.GraphOptions{})
	if err != nil {
		t.Fatal(err)
	}
	findings := []graph.Finding{
		{Kind: graph.MissingPackage, Package: "DemoVoices"},
		{Kind: graph.MissingPackage, Package: "DemoStats", Objects: []graph.Object{{Package: "DemoStats", Path: "StatsUplink", ClassPackage: "Core", Class: "Class"}}},
		{Kind: graph.MissingObject, Package: "DemoGame"},
	}
	req := Request(g, findings, []string{"Unreal Tournament"})
	if want := []Need{{Name: "DemoVoices"}, {Name: "DemoStats", Code: true}}; !slices.Equal(req.Missing, want) {
		t.Errorf("missing %+v, want %+v", req.Missing, want)
	}
	if !slices.Equal(req.Games, []string{"Unreal Tournament"}) || req.Stock == nil || !req.Stock("Engine") || req.Stock("DemoGame") {
		t.Errorf("games %q, or Stock does not say Engine is stock and DemoGame is not", req.Games)
	}
	if !req.Have("DemoGame") || req.Have("DemoVoices") || req.Have("NoSuchPackage") {
		t.Error("Have: want DemoGame had, DemoVoices (missing) and NoSuchPackage not")
	}
}
