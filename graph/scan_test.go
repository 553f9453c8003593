package graph

import (
	"context"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/upkdeps/upkdeps/format"
)

// TestScanMixedCase checks the scan's grouping of object imports on a
// hand-made file that imports one package under two spellings ("Tex" and
// "tex", two name table entries, which the engine never writes): the
// dependencies are File.Dependencies' and the edge's objects stay in
// import-table order across both spellings.
func TestScanMixedCase(t *testing.T) {
	dir := t.TempDir()
	tex := format.NewBuilder(69, 0)
	tc := tex.ImportPath("Engine.Texture", "Core", "Class")
	for _, n := range []string{"A", "B", "C"} {
		tex.Export(0, n, tc, 0, 10)
	}
	if err := format.WriteFile(filepath.Join(dir, "Tex.utx"), tex.File); err != nil {
		t.Fatal(err)
	}
	m := format.NewBuilder(69, 0)
	m.Export(0, "MyLevel", m.ImportPath("Engine.Level", "Core", "Class"), 0, 10)
	upper := m.ImportPackage("Tex")
	m.Import(upper, "A", "Engine", "Texture")
	// The lower-case spelling as a second name: Builder.Name would fold it.
	m.File.Names = append(m.File.Names, format.Name{Name: "tex", Flags: 0x00070010})
	m.File.Imports = append(m.File.Imports, format.Import{ClassPackage: m.Name("Core"), ClassName: m.Name("Package"),
		ObjectName: int32(len(m.File.Names) - 1)})
	lower := format.ImportRef(len(m.File.Imports) - 1)
	m.Import(lower, "B", "Engine", "Texture")
	m.Import(upper, "C", "Engine", "Texture")
	if err := format.WriteFile(filepath.Join(dir, "DM-Mixed.unr"), m.File); err != nil {
		t.Fatal(err)
	}

	f, err := format.Open(filepath.Join(dir, "DM-Mixed.unr"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := newWorker(nil)
	s, err := scanFile(filepath.Join(dir, "DM-Mixed.unr"), w)
	if err != nil {
		t.Fatal(err)
	}
	if want := f.Dependencies(); !reflect.DeepEqual(s.deps, want) {
		t.Errorf("deps: have %q, want %q", s.deps, want)
	}
	if !s.mixedOrder {
		t.Error("two spellings of Tex not noticed")
	}
	// "tex" is no dependency (Tex is, once): the spellings are kept as
	// strings.
	if have, want := spellingsOf(s), []string{"Engine", "Tex", "tex"}; s.spellIdx != nil || !reflect.DeepEqual(have, want) {
		t.Errorf("spellings: have %q (places %v), want %q as strings", have, s.spellIdx, want)
	}

	g, err := Build(context.Background(), dirResolver{dir}, Options{Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	e := g.Edge(g.Package("DM-Mixed"), g.Package("Tex"))
	if e == nil {
		t.Fatal("no edge DM-Mixed -> Tex")
	}
	var paths []string
	for _, o := range e.Objects() {
		paths = append(paths, o.Path)
	}
	if want := []string{"A", "B", "C"}; !reflect.DeepEqual(paths, want) {
		t.Errorf("objects: have %q, want %q (import-table order)", paths, want)
	}

	// A graph that reuses the scan gets the same objects and leaves the
	// first graph's edge as it was (each edge is a run of the scan's
	// objects, 8 bytes in the edge).
	g2, err := Build(context.Background(), dirResolver{dir}, Options{Jobs: 1, Reuse: g})
	if err != nil {
		t.Fatal(err)
	}
	e2 := g2.Edge(g2.Package("DM-Mixed"), g2.Package("Tex"))
	if e2 == nil || e2.From.scan != e.From.scan {
		t.Fatal("the second graph has no edge DM-Mixed -> Tex of the same scan")
	}
	for _, x := range []*Edge{e, e2} {
		if have := x.Objects(); len(have) != 3 || have[0].Path != "A" || have[1].Path != "B" || have[2].Path != "C" || x.ObjectCount() != 3 {
			t.Errorf("objects after the second build: have %v (%d)", have, x.ObjectCount())
		}
	}
	if size := unsafe.Sizeof(Edge{}); size > 40 {
		t.Errorf("an Edge takes %d bytes, want at most 40", size)
	}
}

// TestScanLatin1Names checks the scan's names, which it reads through a
// format.View that decodes them on access: an 8-bit (Latin-1) import, its
// class and an exported class come out as UTF-8, as File reads them, and
// the export answers has() under its UTF-8 spelling.
func TestScanLatin1Names(t *testing.T) {
	dir := t.TempDir()
	b := format.NewBuilder(69, 0)
	b.ImportPath("Tëxtures.Grüppe.Stëin", "Engine", "Téxture")
	b.Export(0, "Klässe", 0, 0, 10)
	path := filepath.Join(dir, "Ünï.u")
	if err := format.WriteFile(path, b.File); err != nil {
		t.Fatal(err)
	}
	s, err := scanFile(path, newWorker(nil))
	if err != nil {
		t.Fatal(err)
	}
	want := []ImportedObject{{Path: "Grüppe.Stëin", Class: "Téxture", ClassPackage: "Engine"}}
	var objs []ImportedObject
	for _, id := range s.objects {
		objs = append(objs, s.tab.at(id))
	}
	if !reflect.DeepEqual(objs, want) || !reflect.DeepEqual(spellingsOf(s), []string{"Tëxtures"}) {
		t.Errorf("objects: have %+v under %q, want %+v under Tëxtures", objs, spellingsOf(s), want)
	}
	if !reflect.DeepEqual(s.classes, []string{"Klässe"}) || !s.exports.has("klässe", "Class") {
		t.Errorf("classes: have %q (has: %v), want Klässe", s.classes, s.exports.has("klässe", "Class"))
	}
}

// TestObjectsShared builds an install whose 60 maps each import the same
// 1,000 textures of one package: each edge lists its 1,000 objects in
// import-table order, every edge refers to the one copy of each object its
// worker read (the table holds each distinct object once), and Build allocates at most 32
// bytes per imported object (17 with a 4-byte index per import; 64 with
// the 48-byte ImportedObject per import it held before).
func TestObjectsShared(t *testing.T) {
	const maps, objects = 60, 1000
	dir := t.TempDir()
	tex := format.NewBuilder(69, 0)
	var want []ImportedObject
	for i := range objects {
		name := "T" + strconv.Itoa(i)
		tex.ExportPath("Grp."+name, "Engine.Texture", 10)
		want = append(want, ImportedObject{Path: "Grp." + name, Class: "Texture", ClassPackage: "Engine"})
	}
	if err := format.WriteFile(filepath.Join(dir, "Tex.utx"), tex.File); err != nil {
		t.Fatal(err)
	}
	for m := range maps {
		b := format.NewBuilder(69, 0)
		b.Export(0, "MyLevel", b.ImportPath("Engine.Level", "Core", "Class"), 0, 10)
		for _, o := range want {
			b.ImportPath("Tex."+o.Path, "Engine", "Texture")
		}
		if err := format.WriteFile(filepath.Join(dir, "DM-"+strconv.Itoa(m)+".unr"), b.File); err != nil {
			t.Fatal(err)
		}
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	g, err := Build(context.Background(), dirResolver{dir}, Options{Jobs: 1})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	tables := map[*objTable]bool{}
	for m := range maps {
		e := g.Edge(g.Package("DM-"+strconv.Itoa(m)), g.Package("Tex"))
		if e == nil {
			t.Fatalf("no edge DM-%d -> Tex", m)
		}
		if have := e.Objects(); !reflect.DeepEqual(have, want) {
			t.Fatalf("DM-%d's objects: have %d (%v...), want %d in table order", m, len(have), have[:min(3, len(have))], len(want))
		}
		if e.ObjectCount() != objects || e.Object(objects-1) != want[objects-1] {
			t.Errorf("DM-%d: ObjectCount %d, last %v", m, e.ObjectCount(), e.Object(e.ObjectCount()-1))
		}
		tables[e.From.scan.tab] = true
	}
	distinct := map[ImportedObject]bool{}
	for _, e := range g.Edges() {
		for _, o := range e.Objects() {
			distinct[o] = true
		}
	}
	for tab := range tables {
		if len(tab.objs) != len(distinct) {
			t.Errorf("a worker's table holds %d objects, want %d: each once", len(tab.objs), len(distinct))
		}
	}
	if per := float64(after.TotalAlloc-before.TotalAlloc) / (maps * objects); raceEnabled {
		t.Logf("Build allocated %.1f bytes per imported object under the race detector (not checked)", per)
	} else if per > 32 {
		t.Errorf("Build allocated %.1f bytes per imported object, want at most 32", per)
	} else {
		t.Logf("Build allocated %.1f bytes per imported object", per)
	}
}

// TestObjectKeyText: an import of the group path A.B as two names (group
// A, object B) and one of the single name "A.B" are one imported object,
// as the engine compares paths as text; so are the same path reached
// through different packages' tables.
func TestObjectKeyText(t *testing.T) {
	dir := t.TempDir()
	m := format.NewBuilder(69, 0)
	m.Export(0, "MyLevel", m.ImportPath("Engine.Level", "Core", "Class"), 0, 10)
	m.ImportPath("Tex.A.B", "Engine", "Texture")
	m.Import(m.ImportPackage("Tex"), "A.B", "Engine", "Texture")
	m.ImportPath("Tex.A.C", "Engine", "Texture")
	path := filepath.Join(dir, "DM-A.unr")
	if err := format.WriteFile(path, m.File); err != nil {
		t.Fatal(err)
	}
	w := newWorker(nil)
	s, err := scanFile(path, w)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, id := range s.objects {
		paths = append(paths, s.tab.at(id).Path)
	}
	if want := []string{"Level", "A.B", "A.B", "A.C"}; !reflect.DeepEqual(paths, want) || s.objects[1] != s.objects[2] || len(s.tab.objs) != 3 {
		t.Errorf("objects %q (ids %v, table %d), want %q with A.B once", paths, s.objects, len(s.tab.objs), want)
	}
}

// TestExportHashes: each export's hash is hashKey of its group path and
// the class ClassOf names (a class export, an imported class, a class the
// package exports itself, in groups), which has() asks.
func TestExportHashes(t *testing.T) {
	b := format.NewBuilder(69, 0)
	cls := b.Export(0, "MyClass", 0, 0, 10)
	grp := b.Export(0, "Walls", b.ImportPath("Core.Package", "Core", "Class"), 0, 0)
	b.Export(grp, "Marble", b.ImportPath("Engine.Texture", "Core", "Class"), 0, 10)
	b.Export(grp, "Mine", cls, 0, 10)
	sub := b.Export(grp, "SUB", b.ImportPath("Core.Package", "Core", "Class"), 0, 0)
	b.Export(sub, "Deep", b.ImportPath("Engine.Texture", "Core", "Class"), 0, 10)
	path := filepath.Join(t.TempDir(), "Pkg.u")
	if err := format.WriteFile(path, b.File); err != nil {
		t.Fatal(err)
	}
	var rd format.Reader
	v, err := rd.View(path)
	if err != nil {
		t.Fatal(err)
	}
	hs, checks := exportHashes(v, nil, nil)
	for i := range v.Exports() {
		ref := format.ExportRef(i)
		class, _ := v.ClassOf(ref)
		got := exportKey(checks[i])<<32 | exportKey(hs[i])
		if want := hashKey(strings.Join(v.GroupPath(ref), "."), class); got != want {
			t.Errorf("export %d (%s, class %s): hashes %x, want %x", i, v.ObjectPath(ref), class, got, want)
		}
	}
}

// TestHasPath: hasPath finds every export by its group path in any case,
// whatever its class and however deep (siblings after a leaf, whose bytes
// the arena drops), and nothing else: a prefix, a path with a
// segment more, or a name at the wrong depth.
func TestHasPath(t *testing.T) {
	b := format.NewBuilder(69, 0)
	tex := b.ImportPath("Engine.Texture", "Core", "Class")
	grp := b.Export(0, "Walls", b.ImportPath("Core.Package", "Core", "Class"), 0, 0)
	b.Export(grp, "Marble", tex, 0, 10)
	b.Export(grp, "Brick", tex, 0, 10)
	sub := b.Export(grp, "SUB", b.ImportPath("Core.Package", "Core", "Class"), 0, 0)
	b.Export(sub, "Deep", tex, 0, 10)
	b.Export(0, "Top", tex, 0, 10)
	path := filepath.Join(t.TempDir(), "Pkg.utx")
	if err := format.WriteFile(path, b.File); err != nil {
		t.Fatal(err)
	}
	x := &exportIndex{file: path}
	for _, p := range []string{"Walls", "walls.marble", "WALLS.Brick", "Walls.Sub", "walls.sub.DEEP", "Top"} {
		if !x.hasPath(path, p) {
			t.Errorf("hasPath(%q) = false, want true", p)
		}
	}
	for _, p := range []string{"Wall", "Marble", "Walls.Marble.X", "Walls.Deep", "Sub.Deep", "Walls.SUB.Top", ""} {
		if x.hasPath(path, p) {
			t.Errorf("hasPath(%q) = true, want false", p)
		}
	}
}

// TestHasPathTopLevel: the scan of a package with a native class keeps
// its top-level paths, and hasPath answers a path without a dot from them
// as the full set read again answers it (a class, a top-level texture,
// any case, a group's member's name, a missing name); a package without
// native classes keeps none.
func TestHasPathTopLevel(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, native bool) string {
		b := format.NewBuilder(69, 0)
		obj := b.ImportPath("Core.Object", "Core", "Class")
		cls := b.Export(0, "Actor", 0, obj, 10)
		if native {
			b.File.Exports[cls.Index()].ObjectFlags |= format.ObjectFlagNative
		}
		b.Export(cls, "Tick", b.ImportPath("Core.Function", "Core", "Class"), 0, 10)
		b.Export(0, "Logo", b.ImportPath("Engine.Texture", "Core", "Class"), 0, 10)
		grp := b.Export(0, "Skins", b.ImportPath("Core.Package", "Core", "Class"), 0, 0)
		b.Export(grp, "Metal", b.ImportPath("Engine.Texture", "Core", "Class"), 0, 10)
		path := filepath.Join(dir, name+".u")
		if err := format.WriteFile(path, b.File); err != nil {
			t.Fatal(err)
		}
		return path
	}
	w := newWorker(nil)
	path := write("Native", true)
	s, err := scanFile(path, w)
	if err != nil {
		t.Fatal(err)
	}
	if s.exports.top == nil {
		t.Fatal("a package with a native class kept no top-level paths")
	}
	full := &exportIndex{file: path}
	for _, p := range []string{"Actor", "actor", "LOGO", "Skins", "Tick", "Metal", "StaticMesh", "Actor.Tick", "skins.metal", "Skins.Tick"} {
		if got, want := s.exports.hasPath(path, p), full.hasPath(path, p); got != want {
			t.Errorf("hasPath(%q) = %v, the package read again says %v", p, got, want)
		}
	}
	if !s.exports.hasPath(path, "logo") || s.exports.hasPath(path, "StaticMesh") {
		t.Error("the top-level paths miss Logo or have StaticMesh")
	}
	if s, err := scanFile(write("Plain", false), w); err != nil || s.exports.top != nil {
		t.Errorf("a package without native classes: top %v, err %v", s.exports.top, err)
	}
}

// TestObjectTableFull: a worker whose table cannot take the next file's
// objects starts a new one (the scans before keep theirs, their objects
// unchanged), and a file that alone imports more distinct objects than a
// table holds is an error naming it, not a wrapped index.
func TestObjectTableFull(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, from, n int) string {
		b := format.NewBuilder(69, 0)
		pkg := b.ImportPackage("Tex")
		for i := from; i < from+n; i++ {
			b.Import(pkg, "T"+strconv.Itoa(i), "Engine", "Texture")
		}
		path := filepath.Join(dir, name)
		if err := format.WriteFile(path, b.File); err != nil {
			t.Fatal(err)
		}
		return path
	}
	w := newWorker(nil)
	a, err := scanFile(write("A.unr", 0, 40000), w)
	if err != nil {
		t.Fatal(err)
	}
	b, err := scanFile(write("B.unr", 40000, 40000), w)
	if err != nil {
		t.Fatal(err)
	}
	// byChain is reset with the table: its numbers index the table's
	// objects.
	if n := w.byChain.n; n != 40000 {
		t.Errorf("byChain holds %d objects after the new table, want only its 40000", n)
	}
	if a.tab == b.tab || len(a.tab.objs) != 40000 || len(b.tab.objs) != 40000 {
		t.Errorf("tables: same %v, sizes %d and %d, want two of 40000", a.tab == b.tab, len(a.tab.objs), len(b.tab.objs))
	}
	for _, c := range []struct {
		s    *scanned
		i    int
		want string
	}{{a, 0, "T0"}, {a, 39999, "T39999"}, {b, 0, "T40000"}, {b, 39999, "T79999"}} {
		if got := c.s.tab.at(c.s.objects[c.i]).Path; got != c.want {
			t.Errorf("object %d: %s, want %s", c.i, got, c.want)
		}
	}
	big := write("Big.unr", 0, maxTableObjects+1)
	if _, err := scanFile(big, w); err == nil || !strings.Contains(err.Error(), big) || !strings.Contains(err.Error(), "65536 distinct objects") {
		t.Errorf("scan of %d distinct objects: %v, want an error naming the file", maxTableObjects+1, err)
	}
}

// TestScanExactSlices: what the scan keeps per package (the spellings of
// its object imports, its exported classes, a map's groups) is gathered in
// the worker's memory and kept in exact-size copies, not in append-grown
// slices up to half spare; the next file the worker reads leaves them be.
func TestScanExactSlices(t *testing.T) {
	dir := t.TempDir()
	code := format.NewBuilder(69, 0)
	actor := code.ImportPath("Engine.Actor", "Core", "Class")
	code.ImportPath("Core.Object", "Core", "Class")
	code.ImportPath("Tex.Skins.Gold", "Engine", "Texture")
	for _, n := range []string{"A", "B", "C"} {
		code.Export(0, n, 0, actor, 10)
	}
	m := format.NewBuilder(69, 0)
	m.Export(0, "MyLevel", m.ImportPath("Engine.Level", "Core", "Class"), 0, 10)
	for _, n := range []string{"G1", "G2", "G3"} {
		m.ExportGroup(0, n)
	}
	for name, b := range map[string]*format.Builder{"Mod.u": code, "DM-G.unr": m} {
		if err := format.WriteFile(filepath.Join(dir, name), b.File); err != nil {
			t.Fatal(err)
		}
	}
	w := newWorker(nil)
	s, err := scanFile(filepath.Join(dir, "Mod.u"), w)
	if err != nil {
		t.Fatal(err)
	}
	sm, err := scanFile(filepath.Join(dir, "DM-G.unr"), w)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what       string
		have, want []string
	}{
		{"Mod's spellings", spellingsOf(s), []string{"Engine", "Core", "Tex"}},
		{"Mod's classes", s.classes, []string{"A", "B", "C"}},
		{"DM-G's groups", sm.groups, []string{"G1", "G2", "G3"}},
		{"DM-G's spellings", spellingsOf(sm), []string{"Engine", "Core"}},
	} {
		if !reflect.DeepEqual(c.have, c.want) {
			t.Errorf("%s: have %q, want %q", c.what, c.have, c.want)
		}
		if cap(c.have) != len(c.have) {
			t.Errorf("%s: capacity %d for %d", c.what, cap(c.have), len(c.have))
		}
	}
	if sm.classes != nil {
		t.Errorf("DM-G's classes: have %q, want none", sm.classes)
	}
	// The spellings are the dependencies': kept as their places.
	for _, sc := range []*scanned{s, sm} {
		if sc.spellings != nil || cap(sc.spellIdx) != len(sc.spellIdx) {
			t.Errorf("spellings kept as %q and places %v (capacity %d)", sc.spellings, sc.spellIdx, cap(sc.spellIdx))
		}
	}
}

// spellingsOf returns s's spellings in order, however they are kept.
func spellingsOf(s *scanned) []string {
	out := make([]string, s.spellingCount())
	for g := range out {
		out[g] = s.spelling(g)
	}
	return out
}
