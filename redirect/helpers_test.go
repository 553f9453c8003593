package redirect

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/search"
)

// spec describes a generated package: exports "Name:ClassPkg.Class" (or
// ":Class" for a class), imports "Pkg.Path:ClassPkg.Class".
type spec struct {
	file    string // relative to the install root
	version uint16 // 0: 69
	flags   format.PackageFlags
	noDL    bool // without AllowDownload
	exports []string
	imports []string
	payload int    // bytes of serial data (compressible, seeded by guid)
	guid    uint32 // GUID seed (0: from the position in the list)
	random  bool   // incompressible payload
}

// server is a generated server install.
type server struct {
	root, ini string
	gen       int
}

const ue1Ini = `[Engine.Engine]
Language=int

[Core.System]
CachePath=../Cache
CacheExt=.uxx
Paths=../System/*.u
Paths=../Maps/*.%s
Paths=../Textures/*.utx
Paths=../Sounds/*.uax

[Engine.GameEngine]
%s
[IpDrv.HTTPDownload]
RedirectToURL=http://redirect.example.invalid/
UseCompression=True
`

// writeServer generates an install of engine generation gen under a new
// temporary folder, with the given ServerPackages.
func writeServer(t testing.TB, gen int, specs []spec, serverPackages ...string) *server {
	t.Helper()
	root := t.TempDir()
	mapExt := "unr"
	if gen == 2 {
		mapExt = "ut2"
	}
	var sp strings.Builder
	for _, p := range serverPackages {
		fmt.Fprintf(&sp, "ServerPackages=%s\n", p)
	}
	s := &server{root: root, ini: filepath.Join(root, "System", "Server.ini"), gen: gen}
	for _, d := range []string{"System", "Maps", "Textures", "Sounds", "Cache"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(s.ini, []byte(fmt.Sprintf(ue1Ini, mapExt, sp.String())), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, p := range specs {
		if p.guid == 0 {
			p.guid = uint32(i + 1)
		}
		if p.version == 0 {
			p.version = 69
			if gen == 2 {
				p.version = 128
			}
		}
		s.writePackage(t, p)
	}
	return s
}

// writePackage writes one package of the install.
func (s *server) writePackage(t testing.TB, p spec) {
	t.Helper()
	img := packageImage(t, p)
	path := filepath.Join(s.root, filepath.FromSlash(p.file))
	if err := os.WriteFile(path, img, 0o644); err != nil {
		t.Fatal(err)
	}
}

// packageImage builds the bytes of the package p, with its serial data
// filled so that the compressors have something to work on.
func packageImage(t testing.TB, p spec) []byte {
	t.Helper()
	if p.version == 0 {
		p.version = 69
	}
	b := format.NewBuilder(p.version, 0)
	b.File.Flags = p.flags
	if !p.noDL {
		b.File.Flags |= format.FlagAllowDownload
	}
	b.File.GUID = format.GUID{0xA0000000 + p.guid, 0x0B000000 + p.guid*7, 0x00C00000 | p.guid<<4, 0x000D0000 + p.guid}
	for _, im := range p.imports {
		b.ImportSpec(im)
	}
	for i, ex := range p.exports {
		size := int32(16)
		if i == 0 && p.payload > 0 {
			size = int32(p.payload)
		}
		b.ExportSpec(ex, size)
	}
	img, err := format.Marshal(b.File)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(uint64(p.guid), 42))
	words := []string{"Actor", "Texture", "Sound", "None", "Mesh", "Brush", "Level", "\x00\x00\x00\x00", "Pawn "}
	for _, ex := range b.File.Exports {
		data := img[ex.SerialOffset : ex.SerialOffset+ex.SerialSize]
		for i := 0; i < len(data); {
			if p.random {
				data[i] = byte(rng.Uint32())
				i++
				continue
			}
			i += copy(data[i:], words[rng.IntN(len(words))])
		}
	}
	return img
}

// graphOf builds the graph of s and returns it with the ini's ServerPackages.
func (s *server) graphOf(t testing.TB) (*graph.Graph, []string) {
	t.Helper()
	f, err := ini.Load(s.ini)
	if err != nil {
		t.Fatal(err)
	}
	srch, err := search.New(f, search.Options{Generation: s.gen})
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Build(context.Background(), graph.FromSearcher(srch), graph.Options{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	return g, f.ServerPackages()
}

// mapOf builds the graph of s and its package map.
func (s *server) mapOf(t testing.TB, opt MapOptions) *Map {
	t.Helper()
	g, sp := s.graphOf(t)
	if opt.ServerPackages == nil {
		opt.ServerPackages = sp
	}
	if opt.Generation == 0 {
		opt.Generation = s.gen
	}
	m, err := NewMap(g, opt)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// modServer is a small, healthy UE1 or UE2 server: two maps, a
// ServerPackages mod, textures and sounds, the retail Core and Engine, and
// a ServerSideOnly admin package nothing on the client side needs.
func modServer(t testing.TB, gen int) *server {
	ext := "unr"
	if gen == 2 {
		ext = "ut2"
	}
	return writeServer(t, gen, []spec{
		{file: "System/Core.u", exports: []string{"Object:Class"}},
		{file: "System/Engine.u", exports: []string{"Actor:Class", "Texture:Class", "Sound:Class", "GameInfo:Class"},
			imports: []string{"Core.Object:Core.Class"}},
		{file: "System/ModGame.u", exports: []string{"ModGameInfo:Class", "ModHUD:Class"}, payload: 300 << 10,
			imports: []string{"Engine.GameInfo:Core.Class", "ModTex.Wall:Engine.Texture", "ModSnd.Boom:Engine.Sound"}},
		{file: "System/ModAdmin.u", flags: format.FlagServerSideOnly, exports: []string{"Admin:Class"},
			imports: []string{"ModGame.ModGameInfo:Core.Class", "AdminTex.Icon:Engine.Texture"}},
		{file: "Textures/ModTex.utx", exports: []string{"Wall:Engine.Texture", "Floor:Engine.Texture"}, payload: 70 << 10,
			imports: []string{"Engine.Texture:Core.Class"}},
		{file: "Textures/AdminTex.utx", exports: []string{"Icon:Engine.Texture"}, imports: []string{"Engine.Texture:Core.Class"}},
		{file: "Sounds/ModSnd.uax", exports: []string{"Boom:Engine.Sound"}, payload: 5000, imports: []string{"Engine.Sound:Core.Class"}},
		{file: "Maps/DM-Gen." + ext, exports: []string{"MyLevel:Engine.Level"}, payload: 20000,
			imports: []string{"Engine.Level:Core.Class", "ModTex.Floor:Engine.Texture"}},
		{file: "Maps/CTF-Gen." + ext, exports: []string{"MyLevel:Engine.Level"}, payload: 9000,
			imports: []string{"Engine.Level:Core.Class", "ModGame.ModGameInfo:Core.Class"}},
	}, "ModGame")
}

// kinds returns the kinds of fs, in order.
func kinds(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, string(f.Kind)+":"+f.Package+":"+f.File)
	}
	return out
}

func writeRaw(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func readRaw(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
