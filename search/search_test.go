package search

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"unicode/utf16"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/internal/testutil"
)

// stockFiles is a small UT99-like install.
var stockFiles = []string{
	"System/Core.u", "System/Engine.u", "System/Botpack.u",
	"Maps/DM-Deck16][.unr", "Maps/DM-Tutorial.unr",
	"Textures/Credits.utx", "Textures/Faces.utx",
	"Sounds/Announcer.uax",
	"Music/Credits.umx", "Music/Foregone.umx",
	"Maps/Extra.unr",
}

// want is the expected outcome of one lookup.
type want struct {
	rel      string // "" for unresolved
	step     string
	index    int
	tried    []string // nil: not checked
	shadowed []string // nil: none
	warn     string   // a substring of one warning; "" for no warnings
	mismatch bool
}

func check(t *testing.T, label string, r Result, w want) {
	t.Helper()
	if r.Rel != w.rel || r.Step != w.step || r.PathIndex != w.index || r.CaseMismatch != w.mismatch {
		t.Errorf("%s: have rel %q step %q index %d mismatch %v, want %q %q %d %v (tried %q, warnings %q)",
			label, r.Rel, r.Step, r.PathIndex, r.CaseMismatch, w.rel, w.step, w.index, w.mismatch, r.Tried, r.Warnings)
	}
	if (r.File == "") != (w.rel == "") {
		t.Errorf("%s: have File %q for rel %q", label, r.File, w.rel)
	}
	if w.tried != nil && !reflect.DeepEqual(r.Tried, w.tried) {
		t.Errorf("%s: tried\nhave %q\nwant %q", label, r.Tried, w.tried)
	}
	if !reflect.DeepEqual(r.Shadowed, w.shadowed) {
		t.Errorf("%s: shadowed: have %q, want %q", label, r.Shadowed, w.shadowed)
	}
	switch {
	case w.warn == "" && len(r.Warnings) > 0:
		t.Errorf("%s: have warnings %q, want none", label, r.Warnings)
	case w.warn != "" && !strings.Contains(strings.Join(r.Warnings, "\n"), w.warn):
		t.Errorf("%s: have warnings %q, want one containing %q", label, r.Warnings, w.warn)
	}
}

func TestFindUE1(t *testing.T) {
	in := newInstall(t)
	in.files(stockFiles...)
	in.files("System/Foo", "Maps/Sub/DM-Sub.unr", "System/botpack.u.bak")
	s := in.searcher(in.ini("System/UnrealTournament.ini", ut99Ini), Options{})
	if s.Generation() != 1 {
		t.Fatalf("generation: have %d, want 1", s.Generation())
	}
	notFound := []string{"System/Nope", "System/Nope", "System/Nope.u", "Maps/Nope", "Maps/Nope.unr",
		"Textures/Nope", "Textures/Nope.utx", "Sounds/Nope", "Sounds/Nope.uax", "Music/Nope", "Music/Nope.umx",
		"System/Nope" + IgnoringCase, "System/Nope.u" + IgnoringCase, "Maps/Nope" + IgnoringCase, "Maps/Nope.unr" + IgnoringCase,
		"Textures/Nope" + IgnoringCase, "Textures/Nope.utx" + IgnoringCase, "Sounds/Nope" + IgnoringCase, "Sounds/Nope.uax" + IgnoringCase,
		"Music/Nope" + IgnoringCase, "Music/Nope.umx" + IgnoringCase}
	for _, tc := range []struct {
		name string
		want want
	}{
		{"Core", want{rel: "System/Core.u", step: StepPaths, index: 0, tried: []string{"System/Core", "System/Core", "System/Core.u"}}},
		{"DM-Tutorial", want{rel: "Maps/DM-Tutorial.unr", step: StepPaths, index: 1,
			tried: []string{"System/DM-Tutorial", "System/DM-Tutorial", "System/DM-Tutorial.u", "Maps/DM-Tutorial", "Maps/DM-Tutorial.unr"}}},
		{"DM-Deck16][", want{rel: "Maps/DM-Deck16][.unr", step: StepPaths, index: 1}},
		{"Faces", want{rel: "Textures/Faces.utx", step: StepPaths, index: 2}},
		// The name with its extension is found by dir + name.
		// A name with its extension names a file in System as given.
		{"Core.u", want{rel: "System/Core.u", step: StepAsGiven, index: -1, tried: []string{"System/Core.u"}}},
		// ... and is found by dir + name in another folder.
		{"Faces.utx", want{rel: "Textures/Faces.utx", step: StepPaths, index: 2,
			tried: []string{"System/Faces.utx", "System/Faces.utx", "System/Faces.utx.u", "Maps/Faces.utx", "Maps/Faces.utx.unr", "Textures/Faces.utx"}}},
		// A file named exactly like the package in System wins as given.
		{"Foo", want{rel: "System/Foo", step: StepAsGiven, index: -1, tried: []string{"System/Foo"}}},
		// A relative file name, both separators.
		{`..\Maps\DM-Tutorial.unr`, want{rel: "Maps/DM-Tutorial.unr", step: StepAsGiven, index: -1, tried: []string{"Maps/DM-Tutorial.unr"}}},
		{"../Maps/Sub/DM-Sub.unr", want{rel: "Maps/Sub/DM-Sub.unr", step: StepAsGiven, index: -1}},
		// A name with a folder is appended to each Paths folder too.
		{`Sub\DM-Sub`, want{rel: "Maps/Sub/DM-Sub.unr", step: StepPaths, index: 1,
			tried: []string{"System/Sub/DM-Sub", "System/Sub/DM-Sub", "System/Sub/DM-Sub.u", "Maps/Sub/DM-Sub", "Maps/Sub/DM-Sub.unr"}}},
		// Credits.utx (Textures, earlier) shadows Credits.umx.
		{"Credits", want{rel: "Textures/Credits.utx", step: StepPaths, index: 2, shadowed: []string{"Music/Credits.umx"}}},
		// Wrong case: found only by the case-insensitive pass.
		{"BotPack", want{rel: "System/Botpack.u", step: StepCaseInsensitive, index: 0, mismatch: true, warn: "case mismatch",
			tried: append([]string{}, "System/BotPack", "System/BotPack", "System/BotPack.u", "Maps/BotPack", "Maps/BotPack.unr",
				"Textures/BotPack", "Textures/BotPack.utx", "Sounds/BotPack", "Sounds/BotPack.uax", "Music/BotPack", "Music/BotPack.umx",
				"System/BotPack"+IgnoringCase, "System/BotPack.u"+IgnoringCase)}},
		{"credits", want{rel: "Textures/Credits.utx", step: StepCaseInsensitive, index: 2, mismatch: true, warn: "case mismatch", shadowed: []string{"Music/Credits.umx"}}},
		{"Nope", want{rel: "", index: -1, tried: notFound}},
		{"", want{rel: "", index: -1, warn: "empty package name", tried: nil}},
	} {
		check(t, tc.name, s.Find(tc.name), tc.want)
	}
}

func TestPathsForms(t *testing.T) {
	// Indexed (out of order, "\", CRLF) and repeated Paths give the same search.
	in := newInstall(t)
	in.files(stockFiles...)
	repeated := in.searcher(in.ini("System/UnrealTournament.ini", ut99Ini), Options{})
	indexed := in.searcher(in.ini("System/Indexed.ini", ut99IndexedIni), Options{Generation: 1})
	var dirs [2][]string
	for i, s := range []*Searcher{repeated, indexed} {
		for _, p := range s.Paths() {
			dirs[i] = append(dirs[i], p.Rel+"|"+p.Ext)
		}
	}
	wantDirs := []string{"System|.u", "Maps|.unr", "Textures|.utx", "Sounds|.uax", "Music|.umx"}
	for i, d := range dirs {
		if !reflect.DeepEqual(d, wantDirs) {
			t.Errorf("searcher %d: paths have %q, want %q", i, d, wantDirs)
		}
	}
	for _, name := range []string{"Core", "Credits", "DM-Tutorial", "Foregone", "BotPack", "Nope"} {
		a, b := repeated.Find(name), indexed.Find(name)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: repeated %+v, indexed %+v", name, a, b)
		}
	}
	if have, want := indexed.CacheDir(), in.path("Cache"); have != want {
		t.Errorf("indexed CacheDir: have %q, want %q", have, want)
	}
}

func TestPathEntryWithoutFolder(t *testing.T) {
	// SWAT 4 writes Paths=*.u: the System folder itself.
	in := newInstall(t)
	in.files("Content/System/SwatGame.u", "Content/Maps/SP-Hotel.s4m", "Content/Textures/Foo.utx")
	s := in.searcher(in.ini("Content/System/Swat4.ini", "[Core.System]\nPaths=*.u\nPaths=..\\Maps\\*.s4m\nPaths=../Textures/*.utx\n"), Options{})
	if s.Generation() != 2 {
		t.Errorf("generation: have %d, want 2 (Swat4.ini)", s.Generation())
	}
	p := s.Paths()[0]
	if p.Dir != in.path("Content/System") || p.Rel != "System" || p.Ext != ".u" || p.Prefix != "" || !p.Exists {
		t.Errorf("Paths()[0]: have %+v", p)
	}
	check(t, "SwatGame", s.Find("SwatGame"), want{rel: "System/SwatGame.u", step: StepPaths, index: 0,
		tried: []string{"System/SwatGame", "System/SwatGame", "System/SwatGame.u"}})
	check(t, "SP-Hotel", s.Find("SP-Hotel"), want{rel: "Maps/SP-Hotel.s4m", step: StepPaths, index: 1})
	if s.Root() != in.path("Content") || s.Dir() != in.path("Content/System") {
		t.Errorf("root %q dir %q", s.Root(), s.Dir())
	}
}

func TestPathPatterns(t *testing.T) {
	in := newInstall(t)
	in.files("System/Core.u", "Mods/XFoo.u", "Plain/Bar", "Plain/Bar.u", "Music/Song.umx")
	cfg := in.ini("System/Test.ini", "[Core.System]\n"+
		"Paths=../Mods/X*.u\n"+ // a file-name prefix before the "*"
		"Paths=../Plain/\n"+ // no "*": the name alone
		"Paths=../Missing/*.u\n"+ // a folder that is not there
		"Paths=../System/*.u\n"+
		"Paths=../System/*.u\n"+ // the same entry twice
		"Paths=../Music/*.umx\n")
	s := in.searcher(cfg, Options{Generation: 1})
	ps := s.Paths()
	if ps[0].Prefix != "X" || ps[0].Rel != "Mods" || ps[1].Ext != "" || ps[2].Exists {
		t.Errorf("paths: have %+v", ps)
	}
	if m := s.MissingPaths(); len(m) != 1 || m[0].Raw != "../Missing/*.u" {
		t.Errorf("MissingPaths: have %+v, want ../Missing/*.u", m)
	}
	check(t, "Foo", s.Find("Foo"), want{rel: "Mods/XFoo.u", step: StepPaths, index: 0, tried: []string{"System/Foo", "Mods/XFoo", "Mods/XFoo.u"}})
	// "Plain/Bar" is found as dir + name; Bar.u is not tried there.
	check(t, "Bar", s.Find("Bar"), want{rel: "Plain/Bar", step: StepPaths, index: 1, tried: []string{"System/Bar", "Mods/XBar", "Mods/XBar.u", "Plain/Bar"}})
	check(t, "Core", s.Find("Core"), want{rel: "System/Core.u", step: StepPaths, index: 3,
		tried: []string{"System/Core", "Mods/XCore", "Mods/XCore.u", "Plain/Core", "Missing/Core", "Missing/Core.u", "System/Core", "System/Core.u"}})
	// The missing folder gives no warning per lookup.
	check(t, "Song", s.Find("Song"), want{rel: "Music/Song.umx", step: StepPaths, index: 5})
	// Packages lists a file once, for the first entry reaching it; "Plain/"
	// (no "*") reaches none.
	var rels []string
	for _, c := range s.Packages() {
		rels = append(rels, fmt.Sprintf("%s|%s|%d|%v", c.Name, c.Rel, c.PathIndex, c.Wins))
	}
	wantRels := []string{"Foo|Mods/XFoo.u|0|true", "Core|System/Core.u|3|true", "Song|Music/Song.umx|5|true"}
	if !reflect.DeepEqual(rels, wantRels) {
		t.Errorf("Packages:\nhave %q\nwant %q", rels, wantRels)
	}
}

func TestIniEncodings(t *testing.T) {
	// The same ini as UTF-8, UTF-8 with BOM and CRLF, and UTF-16LE with BOM.
	crlf := strings.ReplaceAll(ut99Ini, "\n", "\r\n")
	u16 := []byte{0xFF, 0xFE}
	for _, r := range utf16.Encode([]rune(crlf)) {
		u16 = binary.LittleEndian.AppendUint16(u16, r)
	}
	forms := map[string][]byte{
		"utf8":      []byte(ut99Ini),
		"bom-crlf":  append([]byte("\xEF\xBB\xBF"), crlf...),
		"utf16-bom": u16,
	}
	in := newInstall(t)
	in.files(stockFiles...)
	var first []Result
	for _, form := range []string{"utf8", "bom-crlf", "utf16-bom"} {
		rel := "System/" + form + ".ini"
		in.file(rel, forms[form])
		s := in.searcher(in.load(rel), Options{Generation: 1})
		if len(s.Paths()) != 5 || s.CacheExt() != ".uxx" || s.CacheDir() != in.path("Cache") {
			t.Errorf("%s: paths %+v, cache %q %q", form, s.Paths(), s.CacheDir(), s.CacheExt())
		}
		var rs []Result
		for _, n := range []string{"Core", "Credits", "Foregone", "BotPack"} {
			rs = append(rs, s.Find(n))
		}
		if first == nil {
			first = rs
		} else if !reflect.DeepEqual(rs, first) {
			t.Errorf("%s: results differ from utf8:\nhave %+v\nwant %+v", form, rs, first)
		}
	}
}

func TestLanguage(t *testing.T) {
	in := newInstall(t)
	in.files("System/Foo.u", "System/Foo.det_u", "System/Bar.u", "Textures/Tex.det_utx")
	cfg := in.ini("System/UnrealTournament.ini", "[Engine.Engine]\nLanguage=det\n[Core.System]\nPaths=../System/*.u\nPaths=../Textures/*.utx\n")
	s := in.searcher(cfg, Options{})
	if s.Language() != "det" {
		t.Fatalf("language: have %q", s.Language())
	}
	// The localized extension is tried before the plain one.
	check(t, "Foo/det", s.Find("Foo"), want{rel: "System/Foo.det_u", step: StepPaths, index: 0,
		tried: []string{"System/Foo", "System/Foo", "System/Foo.det_u"}, shadowed: []string{"System/Foo.u"}})
	check(t, "Bar/det", s.Find("Bar"), want{rel: "System/Bar.u", step: StepPaths, index: 0,
		tried: []string{"System/Bar", "System/Bar", "System/Bar.det_u", "System/Bar.u"}})
	check(t, "Tex/det", s.Find("Tex"), want{rel: "Textures/Tex.det_utx", step: StepPaths, index: 1})
	// Options.Language overrides the ini.
	si := in.searcher(cfg, Options{Language: "int"})
	check(t, "Foo/int", si.Find("Foo"), want{rel: "System/Foo.u", step: StepPaths, index: 0,
		tried: []string{"System/Foo", "System/Foo", "System/Foo.u"}})
	check(t, "Tex/int", si.Find("Tex"), want{rel: "", index: -1})
	// A localized file and its plain file are not a collision.
	if c := s.Collisions(); len(c) != 0 {
		t.Errorf("collisions: have %+v, want none", c)
	}
	var names []string
	for _, c := range s.Packages() {
		names = append(names, fmt.Sprintf("%s|%s|%v|%v", c.Name, c.Rel, c.Localized, c.Wins))
	}
	wantNames := []string{"Bar|System/Bar.u|false|true", "Foo|System/Foo.det_u|true|true", "Foo|System/Foo.u|false|false", "Tex|Textures/Tex.det_utx|true|true"}
	if !reflect.DeepEqual(names, wantNames) {
		t.Errorf("Packages:\nhave %q\nwant %q", names, wantNames)
	}
}

func TestCacheUE1(t *testing.T) {
	in := newInstall(t)
	in.files(stockFiles...)
	in.pkg("System/Mod.u", false, guidB, 0)
	in.files("Cache/"+guidA.String()+".uxx", "Cache/"+guidB.String()+".uxx", "Cache/Other.uxx")
	s := in.searcher(in.ini("System/UnrealTournament.ini", ut99Ini), Options{})
	ga := guidA.String()
	cacheTried := []string{"System/Pkg", "System/Pkg", "System/Pkg.u", "Maps/Pkg", "Maps/Pkg.unr", "Textures/Pkg", "Textures/Pkg.utx",
		"Sounds/Pkg", "Sounds/Pkg.uax", "Music/Pkg", "Music/Pkg.umx", "Cache/" + ga, "Cache/" + ga + ".uxx"}
	check(t, "guid", s.FindGUID("Pkg", guidA, 0), want{rel: "Cache/" + ga + ".uxx", step: StepCache, index: -1, tried: cacheTried})
	// Without a GUID the cache is never searched.
	check(t, "no guid", s.Find("Pkg"), want{rel: "", index: -1})
	// A zero GUID is no GUID.
	check(t, "zero guid", s.FindGUID("Pkg", format.GUID{}, 0), want{rel: "", index: -1})
	// The cache comes last: an installed file wins, whatever its GUID; the
	// cached package is shadowed, and a GUID mismatch is a warning.
	check(t, "installed other guid", s.FindGUID("Mod", guidA, 0), want{rel: "System/Mod.u", step: StepPaths, index: 0,
		shadowed: []string{"Cache/" + ga + ".uxx"}, warn: "version mismatch"})
	check(t, "installed same guid", s.FindGUID("Mod", guidB, 0), want{rel: "System/Mod.u", step: StepPaths, index: 0,
		shadowed: []string{"Cache/" + guidB.String() + ".uxx"}})
	// Installed but not a package: the GUID cannot be compared.
	check(t, "unreadable", s.FindGUID("Core", guidA, 0), want{rel: "System/Core.u", step: StepPaths, index: 0,
		shadowed: []string{"Cache/" + ga + ".uxx"}, warn: "cannot read the package header"})
	// Missing from the cache.
	r := s.FindGUID("Gone", format.GUID{9, 9, 9, 9}, 0)
	check(t, "missing", r, want{rel: "", index: -1})
	if last := r.Tried[len(r.Tried)-1]; last != "Cache/00000009000000090000000900000009.uxx"+IgnoringCase {
		t.Errorf("missing: last tried %q", last)
	}
	// A cache file in the wrong case is found by the case-insensitive pass.
	lower := format.GUID{0xABCDEF01, 7, 7, 7}
	in.files("Cache/" + strings.ToLower(lower.String()) + ".uxx")
	s = in.searcher(in.load("System/UnrealTournament.ini"), Options{})
	check(t, "lower-case cache", s.FindGUID("Low", lower, 0), want{rel: "Cache/abcdef01000000070000000700000007.uxx",
		step: StepCaseInsensitive, index: -1, mismatch: true, warn: "case mismatch"})
}

func TestCacheOptions(t *testing.T) {
	in := newInstall(t)
	in.files("System/Core.u", "Cache/"+guidA.String()+".ucache", "Elsewhere/"+guidA.String()+".ucache")
	cfg := in.ini("System/Test.ini", "[Core.System]\nPaths=../System/*.u\nCachePath=..\\Cache\nCacheExt=.ucache\n")
	s := in.searcher(cfg, Options{Generation: 1})
	check(t, "CacheExt", s.FindGUID("X", guidA, 0), want{rel: "Cache/" + guidA.String() + ".ucache", step: StepCache, index: -1})
	s = in.searcher(cfg, Options{Generation: 1, CacheDir: in.path("Elsewhere")})
	check(t, "CacheDir", s.FindGUID("X", guidA, 0), want{rel: "Elsewhere/" + guidA.String() + ".ucache", step: StepCache, index: -1})
	// No CachePath: said once per GUID lookup.
	s = in.searcher(in.ini("System/NoCache.ini", "[Core.System]\nPaths=../System/*.u\n"), Options{Generation: 1})
	if s.CacheDir() != "" || s.CacheExt() != ".uxx" {
		t.Errorf("no cache: have %q %q", s.CacheDir(), s.CacheExt())
	}
	check(t, "no CachePath", s.FindGUID("X", guidA, 0), want{rel: "", index: -1, warn: "no CachePath"})
}

func TestCacheUE2(t *testing.T) {
	in := newInstall(t)
	ga, gb := guidA.String(), guidB.String()
	in.pkg("System/Core.u", true, guidB, format.FlagOfficial)
	in.pkg("System/ModCode.u", true, guidB, 0)                      // a .u: no GUID check
	in.pkg("Textures/ModTex.utx", true, guidB, 0)                   // another GUID: skipped
	in.pkg("Textures/OffTex.utx", true, guidB, format.FlagOfficial) // Official: taken
	in.pkg("Textures/Same.utx", true, guidA, 0)                     // the GUID asked for: taken
	in.file("Textures/Junk.utx", []byte("not a package"))
	in.files("Cache/"+ga+"-1.uxx", "Cache/"+ga+"-3.uxx", "Cache/"+ga+"-2.uxx.tmp", "Cache/"+gb+"-1.uxx")
	s := in.searcher(in.ini("System/UT2004.ini", ut2004Ini), Options{})
	if s.Generation() != 2 || s.CacheExt() != ".uxx" {
		t.Fatalf("generation %d, cache ext %q", s.Generation(), s.CacheExt())
	}
	for _, tc := range []struct {
		label, name string
		gen         int
		want        want
	}{
		{"highest generation", "Pkg", 0, want{rel: "Cache/" + ga + "-3.uxx", step: StepCache, index: -1}},
		{"generation 1", "Pkg", 1, want{rel: "Cache/" + ga + "-1.uxx", step: StepCache, index: -1}},
		{"generation 2 missing", "Pkg", 2, want{rel: "", index: -1}},
		{"mismatched utx skipped", "ModTex", 0, want{rel: "Cache/" + ga + "-3.uxx", step: StepCache, index: -1, warn: "skipped Textures/ModTex.utx: its GUID is " + gb}},
		// An installed file shadows the cache file the lookup would take.
		{"official utx taken", "OffTex", 0, want{rel: "Textures/OffTex.utx", step: StepPaths, index: 2,
			shadowed: []string{"Cache/" + ga + "-3.uxx"}}},
		{"matching utx taken", "Same", 1, want{rel: "Textures/Same.utx", step: StepPaths, index: 2,
			shadowed: []string{"Cache/" + ga + "-1.uxx"}}},
		{"u not checked", "ModCode", 0, want{rel: "System/ModCode.u", step: StepPaths, index: 0, warn: "version mismatch",
			shadowed: []string{"Cache/" + ga + "-3.uxx"}}},
		{"unreadable skipped", "Junk", 0, want{rel: "Cache/" + ga + "-3.uxx", step: StepCache, index: -1, warn: "skipped Textures/Junk.utx: cannot read"}},
	} {
		check(t, tc.label, s.FindGUID(tc.name, guidA, tc.gen), tc.want)
	}
	r := s.FindGUID("Pkg", guidA, 2)
	if want := []string{"Cache/" + ga + "-2", "Cache/" + ga + "-2.uxx"}; !reflect.DeepEqual(r.Tried[15:17], want) {
		t.Errorf("generation 2: tried %q", r.Tried)
	}
	r = s.FindGUID("Pkg", format.GUID{5, 5, 5, 5}, 0)
	if r.Tried[15] != "Cache/00000005000000050000000500000005-*.uxx" {
		t.Errorf("no generation, none cached: tried %q", r.Tried)
	}
	// Without a GUID, UE2 checks nothing.
	check(t, "no guid", s.Find("ModTex"), want{rel: "Textures/ModTex.utx", step: StepPaths, index: 2})
	// A skipped file is still skipped by the case-insensitive pass, and said once.
	r = s.FindGUID("modtex", format.GUID{5, 5, 5, 5}, 0)
	if r.File != "" || len(r.Warnings) != 1 {
		t.Errorf("modtex: have %q, warnings %q", r.Rel, r.Warnings)
	}
}

func TestGenerationGuess(t *testing.T) {
	in := newInstall(t)
	in.pkg("System/Core.u", true, guidA, 0)
	// An ini name and content that tell nothing: Core.u's version decides.
	s := in.searcher(in.ini("System/Mystery.ini", "[Core.System]\nPaths=../System/*.u\n"), Options{})
	if s.Generation() != 2 {
		t.Errorf("UE2 Core.u: have generation %d, want 2", s.Generation())
	}
	in2 := newInstall(t)
	in2.pkg("System/Core.u", false, guidA, 0)
	if s := in2.searcher(in2.ini("System/Mystery.ini", "[Core.System]\nPaths=../System/*.u\n"), Options{}); s.Generation() != 1 {
		t.Errorf("UE1 Core.u: have generation %d, want 1", s.Generation())
	}
	if s := in2.searcher(in2.load("System/Mystery.ini"), Options{Generation: 2}); s.Generation() != 2 {
		t.Errorf("forced: have generation %d, want 2", s.Generation())
	}
	// No Core: the readable packages through Paths decide (an install
	// whose only readable package is version 128 is UE2, not UE1), and an
	// unreadable file does not count.
	in3 := newInstall(t)
	in3.pkg("Maps/DM-Only.unr", true, guidA, 0)
	in3.file("System/Broken.u", []byte("not a package"))
	if s := in3.searcher(in3.ini("System/Mystery.ini", "[Core.System]\nPaths=../System/*.u\nPaths=../Maps/*.unr\n"), Options{}); s.Generation() != 2 {
		t.Errorf("no Core, one UE2 map: have generation %d, want 2", s.Generation())
	}
	in4 := newInstall(t)
	in4.pkg("System/ModA.u", false, guidA, 0)
	in4.pkg("System/ModB.u", false, guidA, 0)
	in4.pkg("Maps/DM-Two.unr", true, guidA, 0)
	if s := in4.searcher(in4.ini("System/Mystery.ini", "[Core.System]\nPaths=../System/*.u\nPaths=../Maps/*.unr\n"), Options{}); s.Generation() != 1 {
		t.Errorf("no Core, two UE1 packages and a UE2 map: have generation %d, want 1", s.Generation())
	}
	if _, err := New(in2.load("System/Mystery.ini"), Options{Generation: 3}); err == nil {
		t.Error("generation 3: no error")
	}
	if _, err := New(nil, Options{}); err == nil {
		t.Error("nil ini: no error")
	}
}

func TestCollisions(t *testing.T) {
	in := newInstall(t)
	testutil.SkipCaseInsensitive(t, in.root, "System/Core.u beside System/core.u")
	in.files(stockFiles...)
	in.files("Mods/Engine.u", "Mods/Unique.u", "System/core.u", "Music/faces.umx")
	cfg := in.ini("System/Test.ini", strings.Replace(ut99Ini, "Paths=../Music/*.umx\n", "Paths=../Music/*.umx\nPaths=../Mods/*.u\n", 1))
	s := in.searcher(cfg, Options{Generation: 1})
	var have []string
	for _, c := range s.Collisions() {
		have = append(have, fmt.Sprintf("%s %s %s <- %s", c.Kind, c.Name, c.Winner, strings.Join(c.Others, ",")))
		if c.Message == "" || !strings.Contains(c.Message, c.Winner) {
			t.Errorf("%s: message %q", c.Kind, c.Message)
		}
	}
	wantColl := []string{
		"case Core System/Core.u <- System/core.u",
		"collision Credits Textures/Credits.utx <- Music/Credits.umx",
		"shadowed Engine System/Engine.u <- Mods/Engine.u",
		"collision Faces Textures/Faces.utx <- Music/faces.umx", // one finding: another extension and another case
	}
	if !reflect.DeepEqual(have, wantColl) {
		t.Errorf("collisions:\nhave %q\nwant %q", have, wantColl)
	}
	wantMsg := map[string]string{
		"Credits": "Credits: Textures/Credits.utx is loaded; Music/Credits.umx can never be loaded by name (same name, another extension, later in Paths)",
		"Faces": "Faces: on a case-insensitive file system (Windows) Textures/Faces.utx is loaded for every spelling and Music/faces.umx can never be loaded by name (same name, another extension, later in Paths); " +
			"on a case-sensitive one (Linux) the spelling decides: \"Faces\" loads Textures/Faces.utx, \"faces\" loads Music/faces.umx",
		"Core": "Core: on a case-insensitive file system (Windows) System/Core.u is loaded for every spelling and System/core.u differs only in case; " +
			"on a case-sensitive one (Linux) the spelling decides: \"Core\" loads System/Core.u, \"core\" loads System/core.u",
	}
	for _, c := range s.Collisions() {
		if w, ok := wantMsg[c.Name]; ok && c.Message != w {
			t.Errorf("%s:\nhave %q\nwant %q", c.Name, c.Message, w)
		}
	}
	// Wins: the exact-case lookup of each spelling.
	wins := map[string]bool{}
	for _, c := range s.Packages() {
		wins[c.Rel] = c.Wins
	}
	for rel, w := range map[string]bool{"System/Core.u": true, "System/core.u": true, "Music/Credits.umx": false, "Mods/Engine.u": false, "Mods/Unique.u": true, "Music/faces.umx": true} {
		if wins[rel] != w {
			t.Errorf("Wins[%s]: have %v, want %v", rel, wins[rel], w)
		}
	}
	// Shadowed by a lookup: every other reachable file of the name, any case.
	check(t, "Faces", s.Find("Faces"), want{rel: "Textures/Faces.utx", step: StepPaths, index: 2, shadowed: []string{"Music/faces.umx"}})
	check(t, "Core", s.Find("Core"), want{rel: "System/Core.u", step: StepPaths, index: 0, shadowed: []string{"System/core.u"}})
}

// TestListingsCached proves a lookup costs no file system call once the
// folders are listed: 100,000 lookups (10,000 under the race detector), one
// listing per folder.
func TestListingsCached(t *testing.T) {
	in := newInstall(t)
	in.files(stockFiles...)
	cfs := newCountingFS()
	s := in.searcher(in.ini("System/UnrealTournament.ini", ut99Ini), Options{FS: cfs})
	n := 100_000
	if raceEnabled {
		n = 10_000
	}
	found := 0
	for i := range n {
		name := []string{"Core", "Credits", "DM-Tutorial", "botpack", "Nope"}[i%5]
		if i%7 == 0 {
			name = fmt.Sprintf("Missing%d", i)
		}
		if s.Find(name).Found() {
			found++
		}
	}
	dirs, perDir, opens := cfs.calls()
	// The five Paths folders; System is also the ini folder (names as given);
	// the missing CachePath folder and the root, where its name is looked
	// for ignoring case.
	if dirs > 7 || perDir != 1 || opens != 0 {
		t.Errorf("%d lookups: %d ReadDir calls (max %d per folder), %d opens; want at most 7, 1, 0", n, dirs, perDir, opens)
	}
	if found == 0 {
		t.Error("nothing found")
	}
	// A name with a folder lists that folder under each Paths folder, once.
	in.files("Maps/Sub/A.unr")
	for range 100 {
		s.Find("../Maps/Sub/A.unr")
		s.Find("Sub/A")
	}
	if dirs2, perDir2, _ := cfs.calls(); dirs2 > dirs+5 || perDir2 != 1 {
		t.Errorf("sub-folder lookups: %d ReadDir calls (was %d), max %d per folder", dirs2, dirs, perDir2)
	}
}

func TestConcurrentFind(t *testing.T) {
	in := newInstall(t)
	in.files(stockFiles...)
	s := in.searcher(in.ini("System/UnrealTournament.ini", ut99Ini), Options{})
	first := s.Find("Credits")
	done := make(chan bool)
	for range 4 {
		go func() {
			ok := true
			for range 200 {
				ok = ok && reflect.DeepEqual(s.Find("Credits"), first) && len(s.Packages()) == len(stockFiles)
			}
			done <- ok
		}()
	}
	for range 4 {
		if !<-done {
			t.Error("concurrent lookups differ")
		}
	}
}

func TestDeterministic(t *testing.T) {
	in := newInstall(t)
	in.files(stockFiles...)
	in.files("Mods/Engine.u", "System/core.u")
	cfg := in.ini("System/Test.ini", ut99Ini+"Paths=../Mods/*.u\n")
	var first string
	for i := range 3 {
		s := in.searcher(cfg, Options{Generation: 1})
		var b bytes.Buffer
		fmt.Fprintf(&b, "%+v\n%+v\n%+v\n", s.Packages(), s.Collisions(), s.Find("Engine"))
		if i == 0 {
			first = b.String()
		} else if b.String() != first {
			t.Fatalf("run %d differs:\n%s\nfirst:\n%s", i, b.String(), first)
		}
	}
}

func FuzzFind(f *testing.F) {
	for _, s := range []string{"Core", "..\\Maps\\DM-Tutorial.unr", "Sub/A", "..", ".", "/", "a/../../..", "\\\\x", "Core.u", "crédits"} {
		f.Add(s)
	}
	in := newInstall(f)
	in.files(stockFiles...)
	s := in.searcher(in.ini("System/UnrealTournament.ini", ut99Ini), Options{})
	f.Fuzz(func(t *testing.T, name string) {
		r := s.FindGUID(name, guidA, 0)
		if r.File != "" && (r.Rel == "" || r.Step == "") {
			t.Errorf("%q: found %q without rel or step", name, r.File)
		}
	})
}

// TestLicenseeSystemSection: a licensee ini keeps Paths under
// [Engine.System] and names its own extensions; the Searcher takes both
// from the ini.
func TestLicenseeSystemSection(t *testing.T) {
	in := newInstall(t)
	in.files("System/Core.u", "System/Engine.u", "Maps/Level1.dnf", "Textures/Walls.dtx",
		"Sounds/Doors.dfx", "Music/Theme.dmx", "Meshes/Hero.dsx", "Textures/Stray.utx")
	cfg := in.ini("System/Game.ini", "[Engine.Engine]\nLanguage=int\n[Engine.System]\nCachePath=../Cache\n"+
		"Paths=../System/*.u\nPaths=../Maps/*.dnf\nPaths=../Textures/*.dtx\nPaths=../Sounds/*.dfx\nPaths=../Music/*.dmx\nPaths=../Meshes/*.dsx\n")
	s, err := New(cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Section() != "Engine.System" || !strings.HasSuffix(filepath.ToSlash(s.CacheDir()), "/Cache") {
		t.Errorf("section %q, cache %q", s.Section(), s.CacheDir())
	}
	var have []string
	for _, c := range s.Packages() {
		have = append(have, c.Rel)
	}
	wantRels := []string{"System/Core.u", "System/Engine.u", "Maps/Level1.dnf", "Textures/Walls.dtx",
		"Sounds/Doors.dfx", "Music/Theme.dmx", "Meshes/Hero.dsx"}
	if !reflect.DeepEqual(have, wantRels) {
		t.Errorf("Packages:\nhave %q\nwant %q (Stray.utx: no Paths entry names .utx)", have, wantRels)
	}
	check(t, "Walls", s.Find("Walls"), want{rel: "Textures/Walls.dtx", step: StepPaths, index: 2})
}

// TestJoinName: joinName is filepath.Join for the clean folders a Searcher
// makes and any folder entry's name.
func TestJoinName(t *testing.T) {
	dirs := []string{filepath.FromSlash("/"), filepath.FromSlash("/srv/ut/Maps"), filepath.FromSlash("ut/Maps"), ".", ""}
	names := []string{"DM-Deck16.unr", "a", ".", "..", "", "..x", "a b", `a\b`, "a/b", "x:y"}
	for _, d := range dirs {
		for _, n := range names {
			if have, want := joinName(d, n), filepath.Join(d, n); have != want {
				t.Errorf("joinName(%q, %q) = %q, want %q", d, n, have, want)
			}
		}
	}
}

// TestListingsOnceConcurrent: goroutines asking for folders at once (as
// New's prefetch, Packages and a check's workers do) still list each folder
// once.
func TestListingsOnceConcurrent(t *testing.T) {
	in := newInstall(t)
	in.files(stockFiles...)
	in.files("Maps/Sub/A.unr")
	cfs := newCountingFS()
	s := in.searcher(in.ini("System/UnrealTournament.ini", ut99Ini), Options{FS: cfs})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				s.Locate([]string{"Core", "Credits", "DM-Tutorial", "Nope"}[(g+i)%4])
				s.Find("Sub/A")
			}
		})
	}
	wg.Wait()
	if _, perDir, _ := cfs.calls(); perDir != 1 {
		t.Errorf("a folder was listed %d times, want once", perDir)
	}
	if len(s.Packages()) == 0 {
		t.Error("no packages")
	}
}

// TestLocateAfterPackages: Locate answers the package files' names from
// what Packages looked up, exactly as a Searcher that never listed its
// packages answers them.
func TestLocateAfterPackages(t *testing.T) {
	in := newInstall(t)
	in.files(stockFiles...)
	in.files("Textures/Core.utx", "Maps/core.unr", "Music/Botpack.umx")
	cfg := in.ini("System/UnrealTournament.ini", ut99Ini)
	listed := in.searcher(cfg, Options{})
	fresh := in.searcher(cfg, Options{})
	var names []string
	for _, c := range listed.Packages() {
		names = append(names, c.Name, strings.ToUpper(c.Name))
	}
	set := listed.located.Load()
	if set == nil {
		t.Fatal("Packages kept no results")
	}
	// Both kinds of answer are kept: a candidate's own file, by number,
	// and, for a name two files share (Core.u and Textures/Core.utx), the
	// answer of the one the other wins over, with strings of its own.
	own, other := 0, 0
	for _, l := range set.byName {
		if l.at >= 0 {
			own++
		} else {
			other++
		}
	}
	if own == 0 || other == 0 {
		t.Errorf("answers by candidate %d, of their own %d: want both", own, other)
	}
	for _, n := range append(names, "Nope", "") {
		if have, want := listed.Locate(n), fresh.Locate(n); !reflect.DeepEqual(have, want) {
			t.Errorf("Locate(%q) after Packages = %+v, want %+v", n, have, want)
		}
	}
}

// TestAllPackages: AllPackages yields what Packages returns, in its order,
// stops when asked to, and shares the list that Packages copies.
func TestAllPackages(t *testing.T) {
	in := newInstall(t)
	in.files(stockFiles...)
	in.files("Textures/Core.utx", "Music/Botpack.umx")
	s := in.searcher(in.ini("System/UnrealTournament.ini", ut99Ini), Options{})
	var all []Candidate
	for c := range s.AllPackages() {
		all = append(all, c)
	}
	if want := s.Packages(); len(want) < 3 || !reflect.DeepEqual(all, want) {
		t.Errorf("AllPackages yields %+v, want Packages' %+v", all, want)
	}
	n := 0
	for range s.AllPackages() {
		if n++; n == 2 {
			break
		}
	}
	if n != 2 {
		t.Errorf("stopped after %d, want 2", n)
	}
	// A caller's changes to Packages' copy do not reach the list.
	p := s.Packages()
	p[0].Name = "Changed"
	for c := range s.AllPackages() {
		if c.Name == "Changed" {
			t.Error("Packages returned the shared list")
		}
		break
	}
	if allocs := testing.AllocsPerRun(10, func() {
		for range s.AllPackages() {
		}
	}); allocs > 1 {
		t.Errorf("AllPackages allocates %v times a walk, want at most 1", allocs)
	}
}
