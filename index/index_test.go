package index

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/upkdeps/upkdeps/archive"
	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/uz"
)

// pkgBytes builds a package with a GUID seeded by seed, importing the
// packages in imports (one class each) and exporting the objects in exports
// ("Group.Name:Pkg.Class" or "Name:Class").
func pkgBytes(t testing.TB, seed uint32, imports []string, exports ...string) []byte {
	t.Helper()
	b := format.NewBuilder(69, 0)
	b.File.GUID = format.GUID{seed, seed * 3, 0xABCD0000 + seed, 7}
	for _, im := range imports {
		b.ImportSpec(im + ".Thing:Core.Class")
	}
	for i, ex := range exports {
		b.ExportSpec(ex, int32(64+32*i))
	}
	data, err := format.Marshal(b.File)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func write(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func zipBytes(t testing.TB, members map[string][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range sortedKeys(members) {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(members[name])
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func sortedKeys(m map[string][]byte) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	for i := range ks {
		for j := i + 1; j < len(ks); j++ {
			if ks[j] < ks[i] {
				ks[i], ks[j] = ks[j], ks[i]
			}
		}
	}
	return ks
}

func uz2Bytes(t testing.TB, data []byte) []byte {
	var buf bytes.Buffer
	w := uz.NewWriter2(&buf, 1)
	w.Write(data)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func uzBytes(t testing.TB, name string, data []byte) []byte {
	var buf bytes.Buffer
	w, err := uz.NewWriter(&buf, name, uz.Sig1234)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(data)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func openDB(t testing.TB) *DB {
	t.Helper()
	db, err := Open(filepath.Join(t.TempDir(), "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// collection writes a folder with loose packages, a zip (with a nested
// umod), redirect downloads, a download cache and junk.
func collection(t testing.TB, dir string) {
	write(t, filepath.Join(dir, "System", "ModA.u"), pkgBytes(t, 1, []string{"ModB"}, "AWeapon:Class", "Skins.Red:Engine.Texture"))
	var um bytes.Buffer
	u := archive.NewUMODWriter(&um)
	u.Add(`System\ModC.u`, pkgBytes(t, 3, nil, "CThing:Class"))
	u.Add(`System\Manifest.ini`, []byte("[Setup]\r\n"))
	u.Close()
	write(t, filepath.Join(dir, "Downloads", "modb.zip"), zipBytes(t, map[string][]byte{
		"System/ModB.u":       pkgBytes(t, 2, []string{"ModC"}, "BThing:Class"),
		"Help/ReadMe.txt":     []byte("hello"),
		"extra/ModC.umod":     um.Bytes(),
		"../escape/Evil.u":    pkgBytes(t, 66, nil),
		"Textures/Tex.utx":    pkgBytes(t, 4, nil, "Walls.Brick:Engine.Texture"),
		"Redirect/ModD.u.uz2": uz2Bytes(t, pkgBytes(t, 5, nil, "DThing:Class")),
	}))
	write(t, filepath.Join(dir, "Redirect", "ModE.u.uz2"), uz2Bytes(t, pkgBytes(t, 6, nil)))
	write(t, filepath.Join(dir, "Redirect", "ModF.uz"), uzBytes(t, "ModF.u", pkgBytes(t, 7, nil)))
	guid := format.GUID{8, 24, 0xABCD0008, 7}
	write(t, filepath.Join(dir, "Cache", guid.String()+".uxx"), pkgBytes(t, 8, nil, "Sounds.Boom:Engine.Sound"))
	write(t, filepath.Join(dir, "Cache", "cache.ini"), []byte("[Cache]\r\n"+guid.String()+"=CachedSnd.uax\r\n"))
	write(t, filepath.Join(dir, "Junk", "notes.txt"), []byte("not a package"))
	write(t, filepath.Join(dir, "Junk", "Broken.u"), append(pkgBytes(t, 9, nil)[:40], 0, 0))
	write(t, filepath.Join(dir, "Junk", "bad.zip"), []byte("PK\x03\x04 this is no zip"))
}

func TestAddFind(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	collection(t, dir)
	db := openDB(t)
	res, err := db.Add(ctx, dir, AddOptions{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Source.Kind != KindDir {
		t.Errorf("kind %q", res.Source.Kind)
	}
	wantPkgs := map[string]string{ // name -> where suffix
		"ModA": "System/ModA.u", "ModB": "modb.zip!System/ModB.u", "ModC": "modb.zip!extra/ModC.umod!System/ModC.u",
		"Tex": "modb.zip!Textures/Tex.utx", "ModD": "modb.zip!Redirect/ModD.u.uz2", "ModE": "Redirect/ModE.u.uz2",
		"ModF": "Redirect/ModF.uz", "CachedSnd": filepath.Join("Cache", format.GUID{8, 24, 0xABCD0008, 7}.String()+".uxx"),
	}
	if res.Packages != len(wantPkgs) {
		t.Errorf("have %d packages, want %d", res.Packages, len(wantPkgs))
	}
	for name, where := range wantPkgs {
		ps, err := db.Find(ctx, Query{Name: strings.ToLower(name)})
		if err != nil {
			t.Fatal(err)
		}
		if len(ps) != 1 || !strings.HasSuffix(filepath.ToSlash(ps[0].Where()), filepath.ToSlash(where)) {
			t.Errorf("%s: have %+v, want one copy at ...%s", name, ps, where)
			continue
		}
		if ps[0].Name != name || ps[0].GUID == "" || len(ps[0].SHA256) != 64 {
			t.Errorf("%s: have %+v", name, ps[0])
		}
		data, err := ReadPackage(&ps[0], archive.Limits{})
		if err != nil {
			t.Errorf("%s: %v", name, err)
		} else if f, err := format.NewFile(bytes.NewReader(data), int64(len(data))); err != nil || f.GUID.String() != ps[0].GUID {
			t.Errorf("%s: the copy's bytes do not read back: %v", name, err)
		}
	}
	// Errors: the broken package, the bad zip, the escaping member.
	var errs []string
	for _, e := range res.Errors {
		errs = append(errs, filepath.Base(e.Path)+"!"+e.Member)
	}
	for _, want := range []string{"Broken.u!", "bad.zip!", "modb.zip!../escape/Evil.u"} {
		if !strings.Contains(strings.Join(errs, " "), want) {
			t.Errorf("errors %q lack %s", errs, want)
		}
	}
	// Objects and GUIDs.
	ps, err := db.Find(ctx, Query{Name: "ModA", Object: "skins.red"})
	if err != nil || len(ps) != 1 || ps[0].ObjectClass != "Texture" {
		t.Errorf("ModA.Skins.Red: have %+v, %v", ps, err)
	}
	ps, _ = db.Find(ctx, Query{Name: "ModA", Object: "Skins.Blue"})
	if len(ps) != 1 || ps[0].ObjectClass != "" {
		t.Errorf("ModA.Skins.Blue: have %+v", ps)
	}
	q, _ := ParseQuery(format.GUID{2, 6, 0xABCD0002, 7}.String())
	ps, _ = db.Find(ctx, q)
	if len(ps) != 1 || ps[0].Name != "ModB" {
		t.Errorf("by GUID: have %+v", ps)
	}
	im, _ := db.Imports(ctx, &ps[0])
	if strings.Join(im, ",") != "ModC" {
		t.Errorf("ModB imports %q", im)
	}
	st, err := db.Stats(ctx)
	if err != nil || st.Packages != len(wantPkgs) || st.Sources != 1 {
		t.Errorf("stats %+v %v", st, err)
	}
}

func TestAddIncremental(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	collection(t, dir)
	db := openDB(t)
	first, err := db.Add(ctx, dir, AddOptions{})
	if err != nil {
		t.Fatal(err)
	}
	again, err := db.Add(ctx, dir, AddOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if again.Read != 0 || again.Unchanged == 0 || again.Source.Packages != first.Source.Packages {
		t.Errorf("re-add read %d, kept %d, %d packages (first %d)", again.Read, again.Unchanged, again.Source.Packages, first.Source.Packages)
	}
	// Change one file, remove another, add a third.
	later := time.Now().Add(time.Hour)
	a := filepath.Join(dir, "System", "ModA.u")
	write(t, a, pkgBytes(t, 11, nil, "AWeapon:Class"))
	os.Chtimes(a, later, later)
	os.Remove(filepath.Join(dir, "Redirect", "ModE.u.uz2"))
	write(t, filepath.Join(dir, "System", "ModG.u"), pkgBytes(t, 12, nil))
	third, err := db.Add(ctx, dir, AddOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if third.Read != 2 || third.Removed != 1 {
		t.Errorf("third add read %d removed %d, want 2 and 1", third.Read, third.Removed)
	}
	ps, _ := db.ByName(ctx, "ModA")
	if len(ps) != 1 || ps[0].GUID != (format.GUID{11, 33, 0xABCD000B, 7}).String() {
		t.Errorf("ModA after the change: %+v", ps)
	}
	if ps, _ := db.ByName(ctx, "ModE"); len(ps) != 0 {
		t.Errorf("ModE is still indexed: %+v", ps)
	}
	// Remove the source: nothing is left.
	if err := db.Remove(ctx, dir); err != nil {
		t.Fatal(err)
	}
	st, _ := db.Stats(ctx)
	if st.Packages != 0 || st.Files != 0 || st.Exports != 0 {
		t.Errorf("after remove: %+v", st)
	}
	if err := db.Remove(ctx, dir); err == nil {
		t.Error("removing an absent source succeeded")
	}
}

func TestAddArchiveAndCache(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	collection(t, dir)
	db := openDB(t)
	res, err := db.Add(ctx, filepath.Join(dir, "Downloads", "modb.zip"), AddOptions{})
	if err != nil || res.Source.Kind != KindArchive || res.Packages != 4 {
		t.Fatalf("archive: %+v %v", res, err)
	}
	res, err = db.Add(ctx, filepath.Join(dir, "Cache"), AddOptions{})
	if err != nil || res.Source.Kind != KindCache || res.Packages != 1 {
		t.Fatalf("cache: %+v %v", res, err)
	}
	srcs, _ := db.Sources(ctx)
	if len(srcs) != 2 {
		t.Errorf("sources %+v", srcs)
	}
	// A hostile archive is an error of its source only.
	many := filepath.Join(dir, "many.zip")
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := 0; i < 30000; i++ {
		zw.CreateHeader(&zip.FileHeader{Name: "x", Method: zip.Store})
	}
	zw.Close()
	write(t, many, buf.Bytes())
	res, err = db.Add(ctx, many, AddOptions{})
	if err != nil || len(res.Errors) != 1 || !strings.Contains(res.Errors[0].Error, "limit") {
		t.Fatalf("many members: %+v %v", res, err)
	}
}

func TestPlanClosure(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	// A needs B and C; B needs C and D; C needs A (a cycle); D needs Gone.
	write(t, filepath.Join(dir, "A.u"), pkgBytes(t, 1, []string{"B", "C", "Core"}))
	write(t, filepath.Join(dir, "B.u"), pkgBytes(t, 2, []string{"C", "D"}))
	write(t, filepath.Join(dir, "C.u"), pkgBytes(t, 3, []string{"A"}))
	write(t, filepath.Join(dir, "D.u"), pkgBytes(t, 4, []string{"Gone"}))
	write(t, filepath.Join(dir, "two", "E.u"), pkgBytes(t, 5, nil))
	write(t, filepath.Join(dir, "E.u"), pkgBytes(t, 6, nil))
	db := openDB(t)
	if _, err := db.Add(ctx, dir, AddOptions{}); err != nil {
		t.Fatal(err)
	}
	installed := func(n string) bool { return strings.EqualFold(n, "Core") }
	plan, err := db.Plan(ctx, []Need{{Name: "A", NeededBy: []string{"Map"}}, {Name: "E"}}, PlanOptions{Installed: installed})
	if err != nil {
		t.Fatal(err)
	}
	var steps []string
	for _, s := range plan.Steps {
		steps = append(steps, s.Name+"<"+strings.Join(s.NeededBy, "+"))
	}
	if have, want := strings.Join(steps, " "), "A<C+Map B<A C<A+B D<B"; have != want {
		t.Errorf("steps: have %q, want %q", have, want)
	}
	var un []string
	for _, u := range plan.Unresolved {
		un = append(un, u.Name+":"+u.Reason[:min(9, len(u.Reason))])
	}
	if have, want := strings.Join(un, " "), "E:ambiguous Gone:not in th"; have != want {
		t.Errorf("unresolved: have %q, want %q", have, want)
	}
	// The ambiguity is typed, and its reason names no command-line flag.
	var ae *AmbiguousError
	if u := plan.Unresolved[0]; !errors.As(u.Err, &ae) || ae.Name != "E" || ae.Copies != 2 || len(ae.GUIDs) != 2 ||
		u.Reason != ae.Error()+"; pin one of them by its GUID" || strings.Contains(u.Reason, "--") || plan.Unresolved[1].Err != nil {
		t.Errorf("ambiguous E: %+v, %v", u, u.Err)
	}
	plan, _ = db.Plan(ctx, []Need{{Name: "E"}}, PlanOptions{Pins: map[string]string{"e": format.GUID{5, 15, 0xABCD0005, 7}.String()}})
	if len(plan.Steps) != 1 || !strings.Contains(plan.Steps[0].Copy.Path, "two") {
		t.Errorf("pinned E: %+v", plan)
	}
}

func TestOpenMigrates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "x.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var v int
	db.db.QueryRow("PRAGMA user_version").Scan(&v)
	var mode string
	db.db.QueryRow("PRAGMA journal_mode").Scan(&mode)
	db.Close()
	if v != SchemaVersion() || mode != "wal" {
		t.Errorf("user_version %d, journal %s", v, mode)
	}
	db, err = Open(path) // opening again migrates nothing
	if err != nil {
		t.Fatal(err)
	}
	db.db.Exec("PRAGMA user_version = 99")
	db.Close()
	if _, err := Open(path); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Errorf("a newer schema: %v", err)
	}
}

// TestAddArchiveMemberCRC re-reads only the members of a changed archive
// whose size or CRC-32 changed.
func TestAddArchiveMemberCRC(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	z := filepath.Join(dir, "pack.zip")
	write(t, z, zipBytes(t, map[string][]byte{"A.u": pkgBytes(t, 1, nil), "B.u": pkgBytes(t, 2, nil)}))
	db := openDB(t)
	if _, err := db.Add(ctx, dir, AddOptions{}); err != nil {
		t.Fatal(err)
	}
	write(t, z, zipBytes(t, map[string][]byte{"A.u": pkgBytes(t, 1, nil), "B.u": pkgBytes(t, 3, nil), "C.u": pkgBytes(t, 4, nil)}))
	later := time.Now().Add(time.Hour)
	os.Chtimes(z, later, later)
	res, err := db.Add(ctx, dir, AddOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Read: the archive's own row, B (changed) and C (new); A is kept.
	if res.Read != 3 || res.Unchanged != 1 || res.Source.Packages != 3 {
		t.Errorf("read %d, unchanged %d, packages %d; want 3, 1, 3", res.Read, res.Unchanged, res.Source.Packages)
	}
	ps, _ := db.ByName(ctx, "B")
	if len(ps) != 1 || ps[0].GUID != (format.GUID{3, 9, 0xABCD0003, 7}).String() {
		t.Errorf("B: %+v", ps)
	}
}

// TestAddOddPlaces: a database inside the folder it indexes, a folder
// added through a link, a database path with URI characters.
func TestAddOddPlaces(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "data", "A.u"), pkgBytes(t, 1, nil))
	// Characters a SQLite URI gives a meaning to; Windows forbids "?" in
	// file names, so there the name holds the others.
	name := "odd?name#1%.db"
	if runtime.GOOS == "windows" {
		name = "odd&name#1%.db"
	}
	db, err := Open(filepath.Join(dir, "data", name))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	link := filepath.Join(dir, "link")
	if err := os.Symlink(filepath.Join(dir, "data"), link); err != nil {
		t.Skip("no symbolic links here")
	}
	if _, err := os.Stat(link); err != nil {
		// wine 8's CreateSymbolicLinkW reports success and makes nothing.
		t.Skipf("the symbolic link was reported made but is not there: %v", err)
	}
	for range 2 {
		res, err := db.Add(ctx, link, AddOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Source.Packages != 1 || res.Source.Files != 1 || res.Source.Location != link {
			t.Errorf("have %+v", res.Source)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "data", name)); err != nil {
		t.Errorf("the database is not where it was named: %v", err)
	}
}

func TestParseQuery(t *testing.T) {
	for in, want := range map[string]Query{
		"BotPack":                          {Name: "BotPack"},
		"CityTex.utx":                      {Name: "CityTex"},
		"Engine.Actor":                     {Name: "Engine", Object: "Actor"},
		"CityTex.Walls.Brick":              {Name: "CityTex", Object: "Walls.Brick"},
		"d18a7b9211d38f04100067b9f6f8975a": {GUID: "D18A7B9211D38F04100067B9F6F8975A"},
	} {
		have, err := ParseQuery(in)
		if err != nil || have != want {
			t.Errorf("%s: have %+v, %v; want %+v", in, have, err, want)
		}
	}
	if _, err := ParseQuery(" "); err == nil {
		t.Error("an empty query parsed")
	}
	// Every game profile's package files are file names (.s4m, .rsm, .sfr
	// and .urt maps were objects named "s4m", ... before).
	for _, p := range ini.Profiles {
		for _, e := range p.Exts {
			in := "DM-Test" + strings.ToUpper(e)
			if have, err := ParseQuery(in); err != nil || have != (Query{Name: "DM-Test"}) {
				t.Errorf("%s (%s): have %+v, %v; want the package DM-Test", in, p.Game, have, err)
			}
		}
	}
}

// TestManyExports stores a package's exports in chunks: every one is found.
func TestManyExports(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	var exports []string
	for i := range 600 {
		exports = append(exports, fmt.Sprintf("G%d.Obj%d:Engine.Texture", i%7, i))
	}
	write(t, filepath.Join(dir, "Big.utx"), pkgBytes(t, 1, nil, exports...))
	db := openDB(t)
	if _, err := db.Add(ctx, dir, AddOptions{}); err != nil {
		t.Fatal(err)
	}
	st, _ := db.Stats(ctx)
	if st.Exports != 600+7 { // the objects and their groups
		t.Errorf("%d exports stored", st.Exports)
	}
	for _, obj := range []string{"G0.Obj0", "G3.Obj255", "G4.Obj256", "G4.Obj599"} {
		ps, err := db.Find(ctx, Query{Name: "Big", Object: obj})
		if err != nil || len(ps) != 1 || ps[0].ObjectClass != "Texture" {
			t.Errorf("%s: %+v %v", obj, ps, err)
		}
	}
}

// TestPlanPrefer: a preferred GUID decides between copies when a copy has
// it, and is ignored when none does; a pin no copy matches is refused.
func TestPlanPrefer(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "one", "E.u"), pkgBytes(t, 5, nil))
	write(t, filepath.Join(dir, "two", "E.u"), pkgBytes(t, 6, nil))
	write(t, filepath.Join(dir, "F.u"), pkgBytes(t, 7, nil))
	db := openDB(t)
	if _, err := db.Add(ctx, dir, AddOptions{}); err != nil {
		t.Fatal(err)
	}
	six := format.GUID{6, 18, 0xABCD0006, 7}.String()
	plan, _ := db.Plan(ctx, []Need{{Name: "E"}, {Name: "F"}}, PlanOptions{Prefer: map[string]string{"e": six, "f": six}})
	if len(plan.Steps) != 2 || !strings.Contains(plan.Steps[0].Copy.Path, "two") || plan.Steps[1].Name != "F" {
		t.Errorf("preferred: %+v", plan)
	}
	plan, _ = db.Plan(ctx, []Need{{Name: "F"}}, PlanOptions{Pins: map[string]string{"f": six}})
	if len(plan.Steps) != 0 || len(plan.Unresolved) != 1 || !strings.Contains(plan.Unresolved[0].Reason, "pin") {
		t.Errorf("pinned to an absent GUID: %+v", plan)
	}
}

// TestOverlappingSources: a file in two sources is one copy.
func TestOverlappingSources(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "sub", "A.u"), pkgBytes(t, 1, nil))
	db := openDB(t)
	db.Add(ctx, dir, AddOptions{})
	db.Add(ctx, filepath.Join(dir, "sub"), AddOptions{})
	ps, err := db.ByName(ctx, "A")
	if err != nil || len(ps) != 1 {
		t.Errorf("have %d copies, %v", len(ps), err)
	}
}
