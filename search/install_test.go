package search

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/ini"
)

// install is a generated game installation in a temporary folder.
type install struct {
	t    testing.TB
	root string
}

func newInstall(t testing.TB) *install {
	t.Helper()
	return &install{t: t, root: t.TempDir()}
}

// path returns the absolute path of rel ("System/Core.u").
func (in *install) path(rel string) string { return filepath.Join(in.root, filepath.FromSlash(rel)) }

// file writes raw bytes at rel, making its folder.
func (in *install) file(rel string, data []byte) {
	in.t.Helper()
	p := in.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		in.t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		in.t.Fatal(err)
	}
}

// files writes empty files: the search reads names, not contents.
func (in *install) files(rels ...string) {
	in.t.Helper()
	for _, r := range rels {
		in.file(r, nil)
	}
}

// pkg writes a real package at rel: version 69 (UE1) or 128/29 (UE2), with
// the given GUID and flags.
func (in *install) pkg(rel string, ue2 bool, guid format.GUID, flags format.PackageFlags) {
	in.t.Helper()
	b := format.NewBuilder(69, 0)
	if ue2 {
		b = format.NewBuilder(128, 29)
	}
	b.File.GUID = guid
	b.File.Flags = flags
	b.Export(0, "Thing", b.ImportPath("Core.Package", "Core", "Class"), 0, 0)
	p := in.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		in.t.Fatal(err)
	}
	if err := format.WriteFile(p, b.File); err != nil {
		in.t.Fatal(err)
	}
}

// dir makes an empty folder.
func (in *install) dir(rel string) {
	in.t.Helper()
	if err := os.MkdirAll(in.path(rel), 0o755); err != nil {
		in.t.Fatal(err)
	}
}

// ini writes text as the ini at rel and loads it.
func (in *install) ini(rel, text string) *ini.File {
	in.t.Helper()
	in.file(rel, []byte(text))
	return in.load(rel)
}

func (in *install) load(rel string) *ini.File {
	in.t.Helper()
	f, err := ini.Load(in.path(rel))
	if err != nil {
		in.t.Fatal(err)
	}
	return f
}

// searcher makes a Searcher for cfg.
func (in *install) searcher(cfg *ini.File, opt Options) *Searcher {
	in.t.Helper()
	s, err := New(cfg, opt)
	if err != nil {
		in.t.Fatal(err)
	}
	return s
}

// countingFS counts the calls a Searcher makes.
type countingFS struct {
	mu      sync.Mutex
	readDir map[string]int
	open    int
}

func newCountingFS() *countingFS { return &countingFS{readDir: make(map[string]int)} }

func (c *countingFS) ReadDir(dir string) ([]fs.DirEntry, error) {
	c.mu.Lock()
	c.readDir[dir]++
	c.mu.Unlock()
	return OS.ReadDir(dir)
}

func (c *countingFS) Open(name string) (File, error) {
	c.mu.Lock()
	c.open++
	c.mu.Unlock()
	return OS.Open(name)
}

func (c *countingFS) calls() (readDirs, maxPerDir, opens int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, n := range c.readDir {
		readDirs += n
		maxPerDir = max(maxPerDir, n)
	}
	return readDirs, maxPerDir, c.open
}

// Fixed GUIDs for the cache tests.
var (
	guidA = format.GUID{0x11111111, 0x22222222, 0x33333333, 0x44444444}
	guidB = format.GUID{0xAAAAAAAA, 0xBBBBBBBB, 0xCCCCCCCC, 0xDDDDDDDD}
)

// ut99Ini is a UE1 ini in the 469 style: repeated Paths with "/".
const ut99Ini = `[Engine.Engine]
GameEngine=Engine.GameEngine

[Core.System]
PurgeCacheDays=30
SavePath=../Save
CachePath=../Cache
CacheExt=.uxx
Paths=../System/*.u
Paths=../Maps/*.unr
Paths=../Textures/*.utx
Paths=../Sounds/*.uax
Paths=../Music/*.umx
`

// ut99IndexedIni is the same in the older style: indexed Paths with "\",
// written out of order.
const ut99IndexedIni = "[Core.System]\r\n" +
	"CachePath=..\\Cache\r\n" +
	"CacheExt=.uxx\r\n" +
	"Paths[2]=..\\Textures\\*.utx\r\n" +
	"Paths[0]=..\\System\\*.u\r\n" +
	"Paths[1]=..\\Maps\\*.unr\r\n" +
	"Paths[4]=..\\Music\\*.umx\r\n" +
	"Paths[3]=..\\Sounds\\*.uax\r\n"

// ut2004Ini is a UE2 ini.
const ut2004Ini = `[Core.System]
PurgeCacheDays=30
CachePath=../Cache
CacheExt=.uxx
Paths=../System/*.u
Paths=../Maps/*.ut2
Paths=../Textures/*.utx
Paths=../Sounds/*.uax
Paths=../Music/*.umx
Paths=../StaticMeshes/*.usx
Paths=../Animations/*.ukx
`
