package cache

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/search"
	"github.com/upkdeps/upkdeps/uz"
)

// g returns a GUID whose text form is n repeated: g(0xA) is AAAA...A.
func g(n uint32) format.GUID {
	v := n * 0x11111111
	return format.GUID{v, v, v, v}
}

// pkg returns a package image with the GUID. UE2 (version 128) packages get
// gens generations.
func pkg(t testing.TB, ue2 bool, guid format.GUID, gens int) []byte {
	t.Helper()
	return pkgExport(t, ue2, guid, gens, "Thing")
}

// pkgExport is pkg with the name of its one export.
func pkgExport(t testing.TB, ue2 bool, guid format.GUID, gens int, export string) []byte {
	t.Helper()
	b := format.NewBuilder(69, 0)
	if ue2 {
		b = format.NewBuilder(128, 29)
		for i := range gens {
			b.File.Generations = append(b.File.Generations, format.Generation{ExportCount: int32(i + 1), NameCount: 4})
		}
	}
	b.File.GUID = guid
	b.Export(0, export, b.ImportPath("Engine.Actor", "Core", "Class"), 0, 16)
	data, err := format.Marshal(b.File)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// writeFile writes data to root/rel, making folders.
func writeFile(t testing.TB, root, rel string, data []byte) string {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// compressUZ returns data as a .uz file naming name.
func compressUZ(t testing.TB, name string, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := uz.NewWriter(&buf, name, uz.Sig1234)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// compressUZ2 returns data as a .uz2 file.
func compressUZ2(t testing.TB, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := uz.NewWriter2(&buf, 1)
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// ue1Ini is a UE1 game ini: CachePath ../Cache, CacheExt .uxx, three Paths.
const ue1Ini = "[Engine.Engine]\r\nLanguage=int\r\n\r\n[Core.System]\r\nPurgeCacheDays=30\r\nCachePath=../Cache\r\nCacheExt=.uxx\r\n" +
	"Paths=../System/*.u\r\nPaths=../Maps/*.unr\r\nPaths=../Textures/*.utx\r\nPaths=../Extra/*.u\r\n"

// ue1Fixture is a UE1 install whose cache has an entry in every state, all
// stray kinds, a bad key, a comment and another section. The cache.ini
// uses CRLF line ends.
type ue1Fixture struct {
	root, system, cache string
	ini                 string // the game ini
	pkgs                map[string][]byte
}

// Keys of ue1Fixture's entries by the state they are in.
var ue1States = map[string]State{
	g(0x1).String(): StateOK,             // Alpha.u
	g(0x2).String(): StateMissingFile,    // Bravo.u
	g(0x3).String(): StateOrphanFile,     // no name
	g(0x4).String(): StateGUIDMismatch,   // Delta.u, holds GUID 5
	g(0x6).String(): StateNotAPackage,    // Echo.u
	g(0x7).String(): StateEmptyEntry,     // moved
	g(0x8).String(): StateInstalledSame,  // Golf.u, System/Golf.u same bytes
	g(0x9).String(): StateInstalledOther, // Hotel.u, System/Hotel.u has GUID A
	g(0xB).String(): StateOK,             // Map.unr -> Maps
	g(0xC).String(): StateOK,             // Tex.utx -> Textures
}

const ue1CacheIni = "; downloads\r\n[Cache]\r\n" +
	"11111111111111111111111111111111=Alpha.u\r\n" +
	"22222222222222222222222222222222=Bravo.u\r\n" +
	"44444444444444444444444444444444=Delta.u\r\n" +
	"66666666666666666666666666666666=Echo.u\r\n" +
	"77777777777777777777777777777777=\r\n" +
	"88888888888888888888888888888888=Golf.u\r\n" +
	"99999999999999999999999999999999=Hotel.u\r\n" +
	"BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB=Map.unr\r\n" +
	"cccccccccccccccccccccccccccccccc=Tex.utx\r\n" +
	"NotAGuid=Foo.u\r\n" +
	"\r\n[Other]\r\nKeep=me\r\n"

func newUE1Fixture(t testing.TB) *ue1Fixture {
	t.Helper()
	root := t.TempDir()
	f := &ue1Fixture{root: root, system: filepath.Join(root, "System"), cache: filepath.Join(root, "Cache"), pkgs: map[string][]byte{}}
	f.ini = writeFile(t, root, "System/Test.ini", []byte(ue1Ini))
	add := func(name string, guid format.GUID) []byte {
		data := pkg(t, false, guid, 1)
		f.pkgs[name] = data
		return data
	}
	writeFile(t, root, "Cache/cache.ini", []byte(ue1CacheIni))
	writeFile(t, root, "Cache/"+g(1).String()+".uxx", add("Alpha.u", g(1)))
	writeFile(t, root, "Cache/"+g(3).String()+".uxx", add("orphan", g(3)))
	writeFile(t, root, "Cache/"+g(4).String()+".uxx", add("Delta.u", g(5)))
	writeFile(t, root, "Cache/"+g(6).String()+".uxx", []byte("this is not a package at all"))
	golf := add("Golf.u", g(8))
	writeFile(t, root, "Cache/"+g(8).String()+".uxx", golf)
	writeFile(t, root, "System/Golf.u", golf)
	writeFile(t, root, "Cache/"+g(9).String()+".uxx", add("Hotel.u", g(9)))
	writeFile(t, root, "System/Hotel.u", pkg(t, false, g(0xA), 1))
	writeFile(t, root, "Cache/"+g(0xB).String()+".uxx", add("Map.unr", g(0xB)))
	writeFile(t, root, "Cache/"+g(0xC).String()+".uxx", add("Tex.utx", g(0xC)))

	// Strays: a .uz of Alpha.u, a .uz2 of Golf.u, a package cut short, an
	// unknown file, an old-style Cache????.tmp beside the cache holding a
	// .uz of a package found nowhere else, and an upkdeps temporary file.
	writeFile(t, root, "Cache/0000.tmp", compressUZ(t, "Alpha.u", f.pkgs["Alpha.u"]))
	writeFile(t, root, "Cache/0002.tmp", compressUZ2(t, golf))
	writeFile(t, root, "Cache/0004.tmp", f.pkgs["Alpha.u"][:60])
	writeFile(t, root, "Cache/0006.tmp", []byte("garbage"))
	writeFile(t, root, "Cache000A.tmp", compressUZ(t, "Unique.u", pkg(t, false, g(0xD), 1)))
	writeFile(t, root, "Cache/.upkdeps-123.tmp", []byte("half a file"))
	// Files that are none of the above.
	writeFile(t, root, "Cache/readme.txt", []byte("hello"))
	writeFile(t, root, "Other0000.tmp", []byte("not ours"))
	return f
}

// searcher returns a Searcher for the fixture's ini.
func searcher(t testing.TB, iniPath string, gen int) *search.Searcher {
	t.Helper()
	f, err := ini.Load(iniPath)
	if err != nil {
		t.Fatal(err)
	}
	s, err := search.New(f, search.Options{Generation: gen})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// open opens dir and classifies it against iniPath when given.
func open(t testing.TB, dir string, opt Options, iniPath string) *Cache {
	t.Helper()
	c, err := Open(context.Background(), dir, opt)
	if err != nil {
		t.Fatal(err)
	}
	if iniPath != "" {
		c.Classify(searcher(t, iniPath, opt.Generation))
	}
	return c
}

// states maps key to state.
func states(c *Cache) map[string]State {
	out := map[string]State{}
	for _, e := range c.Entries() {
		out[e.Key] = e.State
	}
	return out
}

// lines renders a plan, paths relative to root.
func lines(p *Plan, root string) []string {
	rel := func(path string) string {
		r, err := filepath.Rel(root, path)
		if err != nil {
			return path
		}
		return filepath.ToSlash(r)
	}
	out := []string{}
	for _, a := range p.Actions {
		out = append(out, a.Format(rel))
	}
	return out
}

// tree lists every file under root (relative, "/"), sorted.
func tree(t testing.TB, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			r, _ := filepath.Rel(root, path)
			out = append(out, filepath.ToSlash(r))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func diffLines(have, want []string) string {
	return "have:\n  " + strings.Join(have, "\n  ") + "\nwant:\n  " + strings.Join(want, "\n  ")
}
