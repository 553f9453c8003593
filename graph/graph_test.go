package graph

import (
	"context"
	"github.com/upkdeps/upkdeps/ini"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/upkdeps/upkdeps/format"
)

// dirResolver resolves names against the files of one folder: exact names
// first, then case-insensitively (reported as a case mismatch).
type dirResolver struct{ dir string }

func (r dirResolver) Candidates() []Candidate {
	ents, _ := os.ReadDir(r.dir)
	var out []Candidate
	for _, e := range ents {
		n := e.Name()
		out = append(out, Candidate{Name: strings.TrimSuffix(n, filepath.Ext(n)), File: filepath.Join(r.dir, n), Rel: n})
	}
	return out
}

func (r dirResolver) Resolve(name string) Resolution {
	ents, _ := os.ReadDir(r.dir)
	for _, e := range ents {
		if strings.TrimSuffix(e.Name(), filepath.Ext(e.Name())) == name {
			return Resolution{File: filepath.Join(r.dir, e.Name()), Rel: e.Name()}
		}
	}
	for _, e := range ents {
		if strings.EqualFold(strings.TrimSuffix(e.Name(), filepath.Ext(e.Name())), name) {
			return Resolution{File: filepath.Join(r.dir, e.Name()), Rel: e.Name(), CaseMismatch: true}
		}
	}
	return Resolution{}
}

// pkgSpec describes a generated package: its file name, the objects it
// exports ("Group.Name:Class", class "Class" for classes) and imports
// ("Pkg.Group.Name:ClassPkg.Class").
type pkgSpec struct {
	file    string
	flags   format.PackageFlags
	exports []string
	imports []string
	native  []string // exported classes flagged native (RF_Native)
}

func writeSpecs(t *testing.T, dir string, specs []pkgSpec) {
	t.Helper()
	for _, s := range specs {
		b := format.NewBuilder(69, 0)
		b.File.Flags = s.flags | format.FlagAllowDownload
		b.File.GUID = format.GUID{uint32(len(s.file)), 1, 2, 3}
		for _, im := range s.imports {
			b.ImportSpec(im)
		}
		for _, ex := range s.exports {
			b.ExportSpec(ex, 16)
		}
		for _, c := range s.native {
			r := b.ExportSpec(c+":Class", 16)
			b.File.Exports[r.Index()].ObjectFlags |= format.ObjectFlagNative
		}
		if err := format.WriteFile(filepath.Join(dir, s.file), b.File); err != nil {
			t.Fatal(err)
		}
	}
}

func build(t *testing.T, specs []pkgSpec) *Graph {
	t.Helper()
	dir := t.TempDir()
	writeSpecs(t, dir, specs)
	g, err := Build(context.Background(), dirResolver{dir}, Options{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// adjacency renders the graph as "From -> To, To" lines.
func adjacency(g *Graph) []string {
	var out []string
	for _, p := range g.Packages() {
		var to []string
		for _, q := range g.Imports(p) {
			to = append(to, q.Name)
		}
		out = append(out, p.Name+" -> "+strings.Join(to, ", "))
	}
	return out
}

func findingsOf(fs []Finding, kind FindingKind) []Finding {
	var out []Finding
	for _, f := range fs {
		if f.Kind == kind {
			out = append(out, f)
		}
	}
	return out
}

var baseSpecs = []pkgSpec{
	{file: "Core.u", exports: []string{"Object:Class"}, imports: []string{"Core.Class:Core.Class", "Core.Package:Core.Class"}},
	{file: "Engine.u", exports: []string{"Actor:Class", "Actor.Touching:Core.ArrayProperty", "Pawn:Class"},
		imports: []string{"Core.Object:Core.Class", "Engine.Level:Core.Class"}},
}

func TestAdjacencyAndFindings(t *testing.T) {
	specs := append(slices.Clone(baseSpecs),
		pkgSpec{file: "ModA.u", exports: []string{"A:Class"}, imports: []string{
			"Engine.Actor:Core.Class", "Engine.Actor.Touching:Core.ObjectProperty", // class mismatch
			"ModB.B:Core.Class", "Missing1.X:Core.Class", "Core.State:Core.Class", // native-only State
			"Engine.Polys:Core.Class", "Engine.Bogus:Core.Class", // Bogus: native_unknown
		}},
		pkgSpec{file: "ModB.u", exports: []string{"B:Class"}, imports: []string{"modA.A:Core.Class", "Tex.Walls.Gone:Engine.Texture", "Engine.Pawn:Core.Function"}},
		pkgSpec{file: "Tex.utx", exports: []string{"Walls.Brick:Engine.Texture"}},
		pkgSpec{file: "Snd.uax", exports: []string{"Boom:Engine.Sound"}},
		pkgSpec{file: "DM-Map.unr", exports: []string{"MyLevel:Engine.Level"}, imports: []string{
			"ModA.A:Core.Class", "Snd.Boom:Engine.Sound", "Snd.NoSuch:Engine.Sound", "Snd.Announcer:Core.Class", "SSO.Thing:Core.Class"}},
		pkgSpec{file: "SSO.u", flags: format.FlagServerSideOnly, exports: []string{"Thing:Class"}},
	)
	g := build(t, specs)
	want := []string{
		"Core -> ",
		"DM-Map -> Engine, ModA, Snd, SSO",
		"Engine -> Core",
		"Missing1 -> ",
		"ModA -> Core, Engine, Missing1, ModB",
		"ModB -> Engine, ModA, Tex",
		"Snd -> Engine",
		"SSO -> ",
		"Tex -> Core, Engine",
	}
	if have := adjacency(g); !reflect.DeepEqual(have, want) {
		t.Errorf("adjacency:\nhave %q\nwant %q", have, want)
	}
	fs := checkAll(t, g, CheckOptions{ServerPackages: []string{"ModA"}})

	mp := findingsOf(fs, MissingPackage)
	if len(mp) != 1 || mp[0].Package != "Missing1" || !reflect.DeepEqual(mp[0].NeededBy, []string{"ModA"}) {
		t.Errorf("missing_package: %+v", mp)
	} else if have, want := mp[0].Chain, []string{"ModA (ModA.u)", "Missing1 (missing)"}; !reflect.DeepEqual(have, want) {
		t.Errorf("missing_package chain: have %q, want %q", have, want)
	}

	// The importer is named as the package to rebuild; UT v469's
	// compatibility for v436's Actor.Touching makes that one a warning.
	cm := findingsOf(fs, ClassMismatch)
	if len(cm) != 2 || cm[0].Package != "ModB" || cm[0].Severity != Error || !reflect.DeepEqual(cm[0].Packages, []string{"ModB", "Engine"}) ||
		!strings.HasPrefix(cm[0].Message, "ModB (ModB.u) was built against another Engine") || !strings.Contains(cm[0].Objects[0].String(), "imported as Core.Function, exported as Core.Class") {
		t.Errorf("class_mismatch: %+v", cm)
	} else if cm[1].Package != "ModA" || cm[1].Severity != Warning || !strings.Contains(cm[1].Message, "UT v469's linker maps v436's Actor.Touching") ||
		!strings.Contains(cm[1].Objects[0].String(), "imported as Core.ObjectProperty, exported as Core.ArrayProperty") {
		t.Errorf("class_mismatch (v469 compatibility): %+v", cm[1])
	}
	mo := findingsOf(fs, MissingObject)
	var moPkgs []string
	for _, f := range mo {
		moPkgs = append(moPkgs, f.Package+":"+strings.Join(ObjectStrings(f.Objects), ","))
	}
	wantMO := []string{
		"Snd:Snd.Announcer (Core.Class),Snd.NoSuch (Engine.Sound)",
		"Tex:Tex.Walls.Gone (Engine.Texture)",
	}
	if !reflect.DeepEqual(moPkgs, wantMO) {
		t.Errorf("missing_object:\nhave %q\nwant %q", moPkgs, wantMO)
	}
	for _, f := range mo {
		if f.Package == "Snd" && !strings.Contains(f.Message, "1 of them are classes, but Snd.uax is a sound package") {
			t.Errorf("sound package message: %s", f.Message)
		}
	}
	nu := findingsOf(fs, NativeUnknown)
	if len(nu) != 1 || nu[0].Objects[0].String() != "Engine.Bogus (Core.Class)" || nu[0].Severity != Warning {
		t.Errorf("native_unknown: %+v", nu)
	}
	cy := findingsOf(fs, Cycle)
	if len(cy) != 1 || !reflect.DeepEqual(cy[0].Packages, []string{"ModA", "ModB"}) || cy[0].Severity != Warning || len(cy[0].Chain) != 2 {
		t.Errorf("cycle: %+v", cy)
	}
	cs := findingsOf(fs, CaseMismatch)
	if len(cs) != 1 || cs[0].Package != "ModA" || !reflect.DeepEqual(cs[0].NeededBy, []string{"ModB"}) {
		t.Errorf("case_mismatch: %+v", cs)
	}
	sso := findingsOf(fs, ServerSideOnly)
	if len(sso) != 1 || sso[0].Package != "SSO" || !reflect.DeepEqual(sso[0].NeededBy, []string{"DM-Map"}) {
		t.Errorf("server_side_only: %+v", sso)
	}
	for _, f := range fs {
		if f.Kind == MissingObject && (f.Package == "Core" || f.Package == "Engine") {
			t.Errorf("native-only class reported missing: %+v", f)
		}
	}
}

func TestUnreadable(t *testing.T) {
	dir := t.TempDir()
	writeSpecs(t, dir, []pkgSpec{{file: "Good.u", imports: []string{"Bad.X:Core.Class"}}})
	if err := os.WriteFile(filepath.Join(dir, "Bad.u"), []byte("\xc1\x83\x2a\x9e\x45\x00\x00\x00junk"), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := Build(context.Background(), dirResolver{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	fs := findingsOf(checkAll(t, g, CheckOptions{}), Unreadable)
	if len(fs) != 1 || fs[0].Package != "Bad" || !strings.Contains(fs[0].Message, "offset") || !reflect.DeepEqual(fs[0].NeededBy, []string{"Good"}) {
		t.Errorf("unreadable: %+v", fs)
	}
}

func TestEditPackagesOrder(t *testing.T) {
	specs := append(slices.Clone(baseSpecs),
		pkgSpec{file: "A.u", exports: []string{"A:Class"}, imports: []string{"Engine.Actor:Core.Class"}},
		pkgSpec{file: "B.u", exports: []string{"B:Class"}, imports: []string{"A.A:Core.Class"}},
		pkgSpec{file: "C.u", exports: []string{"C:Class"}, imports: []string{"B.B:Core.Class", "Gone.G:Core.Class"}},
	)
	g := build(t, specs)
	for _, tc := range []struct {
		name      string
		edit      []string
		clean     bool
		valid     bool
		suggested []string
		kinds     []FindingKind
	}{
		{"valid order kept", []string{"Core", "Engine", "A", "B", "C"}, true, true, []string{"Core", "Engine", "A", "B", "C"}, []FindingKind{EditMissing}},
		{"forward reference", []string{"Core", "Engine", "B", "A", "C"}, true, false, []string{"Core", "Engine", "A", "B", "C"}, []FindingKind{EditOrder, EditMissing}},
		{"listed twice", []string{"Core", "Engine", "A", "A", "B", "C"}, true, false, []string{"Core", "Engine", "A", "B", "C"}, []FindingKind{EditOrder, EditMissing}},
		{"independent order kept", []string{"Engine", "Core", "C", "A", "B"}, true, false, []string{"Core", "Engine", "A", "B", "C"}, []FindingKind{EditOrder, EditOrder, EditMissing}},
		// Every .u exists and nothing has sources: ucc make rebuilds
		// nothing, so the forward references are warnings.
		{"forward reference, nothing rebuilt", []string{"Core", "Engine", "B", "A", "C"}, false, true, []string{"Core", "Engine", "A", "B", "C"}, []FindingKind{EditMissing, EditOrder}},
		{"independent order, nothing rebuilt", []string{"Engine", "Core", "C", "A", "B"}, false, true, []string{"Core", "Engine", "A", "B", "C"}, []FindingKind{EditMissing, EditOrder, EditOrder}},
	} {
		res := g.CheckEditPackages(tc.edit, OrderOptions{Clean: tc.clean})
		var kinds []FindingKind
		for _, f := range res.Findings {
			kinds = append(kinds, f.Kind)
		}
		if res.Valid != tc.valid || !reflect.DeepEqual(res.Suggested, tc.suggested) || !reflect.DeepEqual(kinds, tc.kinds) {
			t.Errorf("%s: have valid %v suggested %v kinds %v, want %v %v %v", tc.name, res.Valid, res.Suggested, kinds, tc.valid, tc.suggested, tc.kinds)
		}
	}
	// A cycle through sources: no order works.
	src := &Sources{deps: map[string][]OrderDep{
		"a": {{Package: "A", On: "B", Evidence: "A/Classes/A.uc:1: class A extends Actor within B;", Source: "source"}},
		"b": {{Package: "B", On: "A", Evidence: "B/Classes/B.uc:1: class B extends A;", Source: "source"}},
	}}
	res := g.CheckEditPackages([]string{"Core", "Engine", "A", "B"}, OrderOptions{Sources: src, Clean: true})
	cy := findingsOf(res.Findings, Cycle)
	if res.Valid || res.Suggested != nil || len(cy) != 1 || len(cy[0].Chain) != 2 {
		t.Errorf("source cycle: valid %v suggested %v findings %+v", res.Valid, res.Suggested, res.Findings)
	}
}

// TestBuildReuse: a second build over the same install reads nothing again
// and finds the same.
func TestBuildReuse(t *testing.T) {
	dir := t.TempDir()
	writeSpecs(t, dir, baseSpecs)
	first, err := Build(context.Background(), dirResolver{dir}, Options{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	read := 0
	second, err := Build(context.Background(), dirResolver{dir}, Options{Jobs: 2, Reuse: first,
		Progress: func(n int) func() { read += n; return func() {} }})
	if err != nil {
		t.Fatal(err)
	}
	if read != 0 {
		t.Errorf("the second build read %d files, want 0", read)
	}
	for _, p := range first.Packages() {
		if q := second.Package(p.Name); q == nil || q.scan != p.scan {
			t.Errorf("%s: summary not reused", p.Name)
		}
	}
	if have, want := adjacency(second), adjacency(first); !reflect.DeepEqual(have, want) {
		t.Errorf("reused graph differs:\nhave %q\nwant %q", have, want)
	}
	// What only a build's link used is let go once it is done: a scan
	// that kept its link table kept the builder and its maps.
	for _, g := range []*Graph{first, second} {
		for _, p := range g.Packages() {
			if s := p.scan; s != nil && s.link != nil {
				t.Errorf("%s: the scan keeps its link table and dependency numbers", p.Name)
			}
		}
	}
}

// checkAll is Check for a test: its error fails the test.
func checkAll(tb testing.TB, g *Graph, opt CheckOptions) []Finding {
	tb.Helper()
	fs, err := g.Check(context.Background(), opt)
	if err != nil {
		tb.Fatal(err)
	}
	return fs
}

// meetingResolver is a dirResolver whose first two calls of Resolve wait
// for each other (each for at most wait): they meet only when two
// goroutines resolve at once.
type meetingResolver struct {
	dirResolver
	wait           time.Duration
	calls, waiting *atomic.Int32
	met            chan struct{}
	ok             *atomic.Bool
}

func (r meetingResolver) Resolve(name string) Resolution {
	if r.calls.Add(1) <= 2 {
		if r.waiting.Add(1) == 2 {
			r.ok.Store(true)
			close(r.met)
		}
		select {
		case <-r.met:
		case <-time.After(r.wait):
		}
		r.waiting.Add(-1)
	}
	return r.dirResolver.Resolve(name)
}

// TestResolveAhead checks that Build resolves the names the packages import
// on its reading goroutines, two at once with two jobs, not one by one on
// the goroutine that links them (where it was two thirds of the serial
// link's time on 20,000 packages), and that the graph is the same.
func TestResolveAhead(t *testing.T) {
	dir := t.TempDir()
	writeSpecs(t, dir, []pkgSpec{
		{file: "A.u", exports: []string{"AC:Class"}},
		{file: "B.u", exports: []string{"BC:Class"}},
		{file: "M1.u", imports: []string{"A.AC:Core.Class"}},
		{file: "M2.u", imports: []string{"B.BC:Core.Class"}},
	})
	r := meetingResolver{dirResolver: dirResolver{dir}, wait: 10 * time.Second,
		calls: &atomic.Int32{}, waiting: &atomic.Int32{}, met: make(chan struct{}), ok: &atomic.Bool{}}
	g, err := Build(context.Background(), r, Options{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !r.ok.Load() {
		t.Error("no two calls of Resolve were made at once")
	}
	for _, e := range [][2]string{{"M1", "A"}, {"M2", "B"}} {
		if ed := g.Edge(g.Package(e[0]), g.Package(e[1])); ed == nil || ed.ObjectCount() != 1 || ed.To.File == "" {
			t.Errorf("edge %s -> %s: %+v", e[0], e[1], ed)
		}
	}
}

// TestCyclesTrimmed: Cycles looks for cycles only among the packages
// mayCycle leaves (a package between two cycles stays; one that only
// leads into a cycle, or hangs below one, goes), and finds what Tarjan's
// search over every package finds, here and on a benchmark install.
func TestCyclesTrimmed(t *testing.T) {
	// From -> what it imports.
	table := map[string][]string{
		"D": {"A"}, "A": {"B"}, "B": {"C"}, "C": {"B", "E", "X"},
		"X": {"Y"}, "Y": {"Z"}, "Z": {"Y"}, "E": nil,
	}
	var specs []pkgSpec
	for from, to := range table {
		s := pkgSpec{file: from + ".u", exports: []string{from + ":Class"}}
		for _, q := range to {
			s.imports = append(s.imports, q+"."+q+":Core.Class")
		}
		specs = append(specs, s)
	}
	g := build(t, specs)
	var left []string
	for id, ok := range g.mayCycle() {
		if ok {
			left = append(left, g.byID[int64(id)].Name)
		}
	}
	slices.Sort(left)
	if want := []string{"B", "C", "X", "Y", "Z"}; !reflect.DeepEqual(left, want) {
		t.Errorf("mayCycle leaves %q, want %q", left, want)
	}
	bench, _, _ := buildBench(t, 300)
	for _, g := range []*Graph{g, bench} {
		all := g.components(nil, directed{g, nil})
		sortCycles(all)
		have, want := cycleNames(g.Cycles()), cycleNames(all)
		if !reflect.DeepEqual(have, want) || len(want) == 0 {
			t.Errorf("Cycles = %q, want %q (Tarjan over every package; not none)", have, want)
		}
	}
}

func cycleNames(cs [][]*Package) []string {
	var out []string
	for _, c := range cs {
		out = append(out, strings.Join(names(c), " "))
	}
	return out
}

// TestAdjacencySorted: on a benchmark install, every Imports and
// ImportedBy list is sorted by name, and q is in ImportedBy(p) exactly
// when p is in Imports(q), with an edge between them.
func TestAdjacencySorted(t *testing.T) {
	g, _, _ := buildBench(t, 300)
	byName := func(a, b *Package) int { return cmpName(a.Name, b.Name) }
	edges := 0
	for _, p := range g.Packages() {
		out, in := g.Imports(p), g.ImportedBy(p)
		if !slices.IsSortedFunc(out, byName) || !slices.IsSortedFunc(in, byName) {
			t.Errorf("%s: Imports %q or ImportedBy %q not sorted", p.Name, names(out), names(in))
		}
		for _, q := range out {
			if g.Edge(p, q) == nil || !slices.Contains(g.ImportedBy(q), p) {
				t.Errorf("%s imports %s: no edge, or not among its importers", p.Name, q.Name)
			}
		}
		for _, q := range in {
			if !slices.Contains(g.Imports(q), p) {
				t.Errorf("%s is imported by %s, which does not list it", p.Name, q.Name)
			}
		}
		edges += len(out)
	}
	if edges != len(g.Edges()) || edges == 0 {
		t.Errorf("%d edges in the lists, %d edges", edges, len(g.Edges()))
	}
}

// TestObjectCheckAcrossTables: two importers read by different workers
// (two builds, the second reusing the first's reads) hold their objects
// in two tables, where the same index is a different object: Grp.A,
// exported, in M1's, Grp.Gone, missing, in M2's. The object check, which
// asks each distinct object once per target and run of edges, tells them
// apart (M3's 64 objects make M1's and M2's edges one run).
func TestObjectCheckAcrossTables(t *testing.T) {
	dir := t.TempDir()
	tex := format.NewBuilder(69, 0)
	tex.ExportPath("Grp.A", "Engine.Texture", 10)
	for i := range 64 {
		tex.ExportPath("Grp.T"+strconv.Itoa(i), "Engine.Texture", 10)
	}
	if err := format.WriteFile(filepath.Join(dir, "Tex.utx"), tex.File); err != nil {
		t.Fatal(err)
	}
	writeMap := func(name string, objects ...string) {
		b := format.NewBuilder(69, 0)
		for _, o := range objects { // first: the same indices in both tables
			b.ImportPath("Tex.Grp."+o, "Engine", "Texture")
		}
		b.Export(0, "MyLevel", b.ImportPath("Engine.Level", "Core", "Class"), 0, 10)
		if err := format.WriteFile(filepath.Join(dir, name+".unr"), b.File); err != nil {
			t.Fatal(err)
		}
	}
	writeMap("M1", "A")
	var many []string
	for i := range 64 {
		many = append(many, "T"+strconv.Itoa(i))
	}
	writeMap("M3", many...)
	first, err := Build(context.Background(), dirResolver{dir}, Options{Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	writeMap("M2", "Gone")
	g, err := Build(context.Background(), dirResolver{dir}, Options{Jobs: 1, Reuse: first})
	if err != nil {
		t.Fatal(err)
	}
	e1, e2 := g.Edge(g.Package("M1"), g.Package("Tex")), g.Edge(g.Package("M2"), g.Package("Tex"))
	if e1 == nil || e2 == nil || e1.From.scan.tab == e2.From.scan.tab || !slices.Equal(e1.objs(), e2.objs()) {
		t.Fatalf("want two edges to Tex with the same indices in two tables")
	}
	for _, jobs := range []int{1, 2} {
		var have []string
		for _, f := range checkAll(t, g, CheckOptions{Jobs: jobs}) {
			if f.Kind == MissingObject {
				have = append(have, f.Package+": "+strings.Join(ObjectStrings(f.Objects), ", ")+" needed by "+strings.Join(f.NeededBy, ", "))
			}
		}
		if want := []string{"Tex: Tex.Grp.Gone (Engine.Texture) needed by M2"}; !slices.Equal(have, want) {
			t.Errorf("jobs=%d: missing objects %q, want %q", jobs, have, want)
		}
	}
}

// TestUnaskedHashesDropped: a build keeps the export hashes of the
// packages whose objects are imported or named by the ini, lets go of the
// others' (a third of a server's), and their exports are still found, by
// reading the file again.
func TestUnaskedHashesDropped(t *testing.T) {
	dir := t.TempDir()
	writeSpecs(t, dir, []pkgSpec{
		{file: "Asked.u", exports: []string{"A:Class", "Grp.B:Engine.Texture"}},
		{file: "Root.u", exports: []string{"R:Class"}},
		{file: "Alone.u", exports: []string{"Lone:Class", "Grp.Tex:Engine.Texture"}},
		{file: "User.u", exports: []string{"U:Class"}, imports: []string{"Asked.A:Core.Class"}},
	})
	g, err := Build(context.Background(), dirResolver{dir}, Options{Jobs: 2,
		Roots: []Root{{Reference: ini.Reference{Section: "Engine.GameEngine", Key: "ServerActors", Value: "Root.R", Line: 1,
			Package: "Root", Object: "R", Load: ini.LoadServer}, Ini: "Test.ini"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		kept bool
	}{{"Asked", true}, {"Root", true}, {"Alone", false}, {"User", false}} {
		x := &g.Package(c.name).scan.exports
		if kept := x.set.hashes != nil; kept != c.kept {
			t.Errorf("%s: hashes kept %v, want %v", c.name, kept, c.kept)
		}
	}
	x := &g.Package("Alone").scan.exports
	if !x.has("Grp.Tex", "Texture") || !x.has("Lone", "Class") || x.has("Grp.Tex", "Class") || x.has("Gone", "Class") {
		t.Error("Alone's exports, read again: Grp.Tex (Texture) and Lone (Class) not found, or Grp.Tex as a Class or Gone found")
	}
}
