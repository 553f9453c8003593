package demo

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/upkdeps/upkdeps/format"
)

// BenchIni is the generated benchmark install's game ini, relative to its
// root.
const BenchIni = "System/Bench.ini"

// The benchmark install (WriteBench) is a UT99-style server of n packages
// with the shape of a real one: the stock System packages (Core.u, Engine.u,
// Botpack.u, ...) present and exporting every class, property and function
// the rest imports; mods built on them; texture and sound packages with
// groups; music; maps with a few hundred to a few thousand imports and
// exports. Folders keep the proportions of the earlier benchmark: per 20
// packages 2 code, 6 texture, 3 sound, 1 music and 8 maps. It has a handful
// of true findings, as a real server has (BenchFindings).
//
// Every choice is a function of a package's index (no random state), so an
// importer knows what its exporter exports without reading it, and the same
// n always writes the same bytes.

// benchBase is a stock System package: its classes and what it builds on.
type benchBase struct {
	name    string
	deps    []string // earlier stock packages it imports from
	classes []string // named classes, then generated ones up to count
	count   int
}

var benchBases = []benchBase{
	{"Core", nil, []string{"Object", "Class", "Package", "Field", "Struct", "State", "Function", "Property",
		"ByteProperty", "IntProperty", "BoolProperty", "FloatProperty", "ObjectProperty", "ClassProperty",
		"NameProperty", "StrProperty", "StructProperty", "ArrayProperty", "Const", "Enum", "TextBuffer",
		"Commandlet", "Subsystem", "Locale"}, 40},
	{"Engine", []string{"Core"}, []string{"Actor", "Info", "GameInfo", "GameEngine", "Level", "LevelInfo",
		"Model", "Brush", "Polys", "Light", "PlayerStart", "PathNode", "Pawn", "Mover", "Trigger", "ZoneInfo",
		"Inventory", "Weapon", "Decoration", "Mutator", "Texture", "Palette", "Sound", "Music", "Font", "Mesh",
		"LodMesh", "Projectile", "Effects", "Keypoint", "AmbientSound", "Teleporter", "NavigationPoint"}, 250},
	{"Editor", []string{"Core", "Engine"}, nil, 60},
	{"UWindow", []string{"Core", "Engine"}, nil, 80},
	{"Fire", []string{"Core", "Engine"}, nil, 20},
	{"IpDrv", []string{"Core", "Engine"}, []string{"TcpLink", "UdpLink", "InternetLink"}, 40},
	{"UWeb", []string{"Core", "Engine", "IpDrv"}, nil, 20},
	{"UBrowser", []string{"Core", "Engine", "UWindow", "IpDrv"}, nil, 80},
	{"UnrealShare", []string{"Core", "Engine", "Fire"}, nil, 200},
	{"UnrealI", []string{"Core", "Engine", "UnrealShare"}, nil, 150},
	{"IpServer", []string{"Core", "Engine", "IpDrv"}, nil, 20},
	{"Botpack", []string{"Core", "Engine", "UnrealShare", "UnrealI"}, []string{"DeathMatchPlus",
		"TournamentWeapon", "TournamentPlayer", "TournamentPickup", "CTFGame", "Domination"}, 300},
	{"UMenu", []string{"Core", "Engine", "UWindow"}, nil, 90},
	{"UTMenu", []string{"Core", "Engine", "UWindow", "UMenu", "Botpack"}, nil, 90},
}

var propTypes = []string{"ByteProperty", "IntProperty", "BoolProperty", "FloatProperty", "ObjectProperty",
	"ClassProperty", "NameProperty", "StrProperty", "StructProperty", "ArrayProperty"}

var groupNames = []string{"Base", "Trim", "Walls", "Floor", "Ceiling", "Light", "Glass", "Metal", "Rock", "Wood",
	"Panel", "Pipe", "Door", "Sky", "Water", "Lava"}

var sndGroups = []string{"Ambient", "Weapon", "Pickup", "Door", "Voice", "Water", "Machine", "Wind"}

var mapPrefixes = []string{"DM-", "CTF-", "DOM-", "AS-"}

// mix is a small integer hash (splitmix64's finaliser) of an index and a
// salt, the source of every choice.
func mix(i, salt int) int {
	x := uint64(i)*0x9e3779b97f4a7c15 + uint64(salt)*0xbf58476d1ce4e5b9 + 1
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return int(x >> 1 & 0x3fffffff)
}

// benchLayout is the number of packages of each kind of an n-package
// install.
type benchLayout struct {
	n, mods, tex, snd, music, maps int
}

func layoutFor(n int) benchLayout {
	l := benchLayout{n: n}
	code := max(len(benchBases)+4, n*2/20)
	l.mods = code - len(benchBases)
	l.tex = max(2, n*6/20)
	l.snd = max(2, n*3/20)
	l.music = max(1, n/20)
	l.maps = max(2, n-code-l.tex-l.snd-l.music)
	return l
}

// Package names.
func modName(i int) string   { return fmt.Sprintf("Mod%05d", i) }
func texName(i int) string   { return fmt.Sprintf("TexPack%05d", i) }
func sndName(i int) string   { return fmt.Sprintf("SndPack%05d", i) }
func musicName(i int) string { return fmt.Sprintf("Music%05d", i) }
func mapName(i int) string   { return mapPrefixes[i%len(mapPrefixes)] + fmt.Sprintf("Map%05d", i) }

// A code class: its name, properties and functions.
func baseClassCount(b int) int { return max(benchBases[b].count, len(benchBases[b].classes)) }

func baseClass(b, k int) string {
	if k < len(benchBases[b].classes) {
		return benchBases[b].classes[k]
	}
	return benchBases[b].name + "Class" + strconv.Itoa(k)
}

func modClassCount(m int) int  { return 3 + mix(m, 1)%30 }
func modClass(m, k int) string { return modName(m) + "Class" + strconv.Itoa(k) }
func propCount(cls string) int { return 3 + len(cls)%5 + int(cls[len(cls)-1])%8 }
func funcCount(cls string) int { return 2 + int(cls[0]+cls[len(cls)-1])%6 }
func propName(j int) string    { return "Prop" + strconv.Itoa(j) }
func funcName(j int) string    { return "Func" + strconv.Itoa(j) }
func propType(cls string, j int) string {
	return propTypes[(j+len(cls))%len(propTypes)]
}

// Texture and sound packages: groups, and objects per group.
func texGroups(t int) int      { return 1 + mix(t, 2)%6 }
func texPerGroup(t, g int) int { return 5 + mix(t*16+g, 3)%56 }
func texObject(g, k int) string {
	return groupNames[g%len(groupNames)] + fmt.Sprintf("%02d", k)
}
func sndGroupCount(s int) int   { return 1 + mix(s, 4)%4 }
func sndPerGroup(s, g int) int  { return 4 + mix(s*8+g, 5)%30 }
func sndObject(g, k int) string { return sndGroups[g%len(sndGroups)] + "Snd" + strconv.Itoa(k) }

// benchWriter writes the install's packages.
type benchWriter struct {
	dir string
	l   benchLayout
}

// WriteBench writes the benchmark install of n packages (at least 40) under
// dir: its ini is BenchIni. Regenerate it with
// go run ./internal/demo/genbench -n 20000 DIR.
func WriteBench(dir string, n int) error {
	if n < 40 {
		return fmt.Errorf("demo: a benchmark install has at least 40 packages, not %d", n)
	}
	w := &benchWriter{dir: dir, l: layoutFor(n)}
	for _, d := range []string{"System", "Textures", "Sounds", "Music", "Maps"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(dir, BenchIni), []byte(w.ini()), 0o644); err != nil {
		return err
	}
	type job struct {
		kind string
		i    int
	}
	jobs := make(chan job, 64)
	go func() {
		defer close(jobs)
		for b := range benchBases {
			jobs <- job{"base", b}
		}
		for _, k := range []struct {
			kind  string
			count int
		}{{"mod", w.l.mods}, {"tex", w.l.tex}, {"snd", w.l.snd}, {"music", w.l.music}, {"map", w.l.maps}} {
			for i := range k.count {
				jobs <- job{k.kind, i}
			}
		}
	}()
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				if err := w.write(j.kind, j.i); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	return first
}

func (w *benchWriter) ini() string {
	var b strings.Builder
	b.WriteString("; upkdeps benchmark install (go run ./internal/demo/genbench)\r\n")
	b.WriteString("[Engine.Engine]\r\nGameEngine=Engine.GameEngine\r\nDefaultGame=Botpack.DeathMatchPlus\r\nDefaultServerGame=Botpack.DeathMatchPlus\r\n\r\n")
	b.WriteString("[Core.System]\r\nPurgeCacheDays=30\r\n")
	for _, p := range []string{"../System/*.u", "../Maps/*.unr", "../Textures/*.utx", "../Sounds/*.uax", "../Music/*.umx"} {
		b.WriteString("Paths=" + p + "\r\n")
	}
	b.WriteString("\r\n[Engine.GameEngine]\r\n")
	for _, p := range []string{"SoldierSkins", "CommandoSkins", "Botpack", "UnrealShare", "UnrealI"} {
		if p == "SoldierSkins" || p == "CommandoSkins" {
			continue // not part of the generated install
		}
		b.WriteString("ServerPackages=" + p + "\r\n")
	}
	for m := 0; m < min(8, w.l.mods); m++ {
		b.WriteString("ServerPackages=" + modName(m*7%w.l.mods) + "\r\n")
	}
	b.WriteString("ServerActors=IpServer.IpServerClass0\r\n\r\n[Editor.EditorEngine]\r\n")
	for _, base := range benchBases {
		b.WriteString("EditPackages=" + base.name + "\r\n")
	}
	return b.String()
}

// builder wraps format.Builder with a cache of import paths (ImportPath
// searches the table linearly; maps import thousands of objects).
type builder struct {
	*format.Builder
	paths map[string]format.Ref
}

func newBuilder(guid uint32) *builder {
	b := &builder{Builder: format.NewBuilder(69, 0), paths: map[string]format.Ref{}}
	b.File.GUID = format.GUID{guid, 0x55504b44, 0x42454e43, guid * 2654435761}
	b.File.Flags = format.PackageFlags(0x0001) // AllowDownload
	return b
}

// imp imports pkg.outer...name (outers as groups) with class cpkg.class.
func (b *builder) imp(cpkg, class string, parts ...string) format.Ref {
	key := strings.Join(parts, ".")
	if r, ok := b.paths[key+":"+cpkg+"."+class]; ok {
		return r
	}
	outer := format.Ref(0)
	for i, p := range parts[:len(parts)-1] {
		k := strings.Join(parts[:i+1], ".") + ":group"
		r, ok := b.paths[k]
		if !ok {
			r = b.Import(outer, p, "Core", "Package")
			b.paths[k] = r
		}
		outer = r
	}
	r := b.Import(outer, parts[len(parts)-1], cpkg, class)
	b.paths[key+":"+cpkg+"."+class] = r
	return r
}

// classRef imports a class of another package.
func (b *builder) classRef(pkg, class string) format.Ref { return b.imp("Core", "Class", pkg, class) }

func (w *benchWriter) write(kind string, i int) error {
	var b *builder
	var rel string
	switch kind {
	case "base":
		b, rel = w.base(i), "System/"+benchBases[i].name+".u"
	case "mod":
		b, rel = w.mod(i), "System/"+modName(i)+".u"
	case "tex":
		b, rel = w.tex(i), "Textures/"+texName(i)+".utx"
	case "snd":
		b, rel = w.snd(i), "Sounds/"+sndName(i)+".uax"
	case "music":
		b, rel = w.music(i), "Music/"+musicName(i)+".umx"
	default:
		b, rel = w.mapPkg(i), "Maps/"+mapName(i)+".unr"
	}
	if err := format.WriteFile(filepath.Join(w.dir, filepath.FromSlash(rel)), b.File); err != nil {
		return fmt.Errorf("demo: %s: %w", rel, err)
	}
	return nil
}

// exportClasses exports count classes of a code package with their
// properties and functions; super gives each class's parent.
func (b *builder) exportClasses(pkg string, count int, name func(k int) string, super func(k int) format.Ref) {
	core := pkg == "Core"
	coreClass := func(c string) format.Ref {
		if core {
			return 0 // patched below: Core's own class exports
		}
		return b.classRef("Core", c)
	}
	classRefs := map[string]format.Ref{}
	for k := range count {
		cls := name(k)
		r := b.Export(0, cls, 0, super(k), int32(800+len(cls)*40))
		classRefs[cls] = r
		for j := range propCount(cls) {
			b.Export(r, propName(j), coreClass(propType(cls, j)), 0, int32(20+j))
		}
		for j := range funcCount(cls) {
			b.Export(r, funcName(j), coreClass("Function"), 0, int32(120+j*8))
		}
	}
	if core {
		// Core's properties and functions are of Core's own classes.
		for i := range b.File.Exports {
			ex := &b.File.Exports[i]
			if ex.Outer.IsNull() {
				continue
			}
			kind := "Function"
			if strings.HasPrefix(b.File.NameAt(ex.ObjectName), "Prop") {
				outer := b.File.NameAt(b.File.Exports[ex.Outer.Index()].ObjectName)
				j, _ := strconv.Atoi(strings.TrimPrefix(b.File.NameAt(ex.ObjectName), "Prop"))
				kind = propType(outer, j)
			}
			ex.Class = classRefs[kind]
		}
	}
}

// useMembers imports some properties and functions of classes of base
// package bi, as compiled code that reads and calls them does.
func (b *builder) useMembers(bi, seed, count int) {
	base := benchBases[bi]
	for j := range count {
		cls := baseClass(bi, mix(seed, 100+j)%baseClassCount(bi))
		b.classRef(base.name, cls)
		if j%3 == 2 {
			f := mix(seed, 200+j) % funcCount(cls)
			b.imp("Core", "Function", base.name, cls, funcName(f))
			continue
		}
		p := mix(seed, 300+j) % propCount(cls)
		b.imp("Core", propType(cls, p), base.name, cls, propName(p))
	}
}

func baseIndex(name string) int {
	for i, b := range benchBases {
		if b.name == name {
			return i
		}
	}
	panic("demo: no stock package " + name)
}

func (w *benchWriter) base(bi int) *builder {
	base := benchBases[bi]
	b := newBuilder(uint32(bi + 1))
	for _, d := range base.deps {
		if d != "Core" {
			b.useMembers(baseIndex(d), bi*1000+len(d), 20)
		}
	}
	if base.name != "Core" {
		for _, t := range propTypes {
			b.classRef("Core", t)
		}
		b.classRef("Core", "Function")
	}
	var objRef format.Ref
	if base.name != "Core" {
		objRef = b.classRef("Core", "Object")
	}
	var actor format.Ref
	b.exportClasses(base.name, baseClassCount(bi), func(k int) string { return baseClass(bi, k) }, func(k int) format.Ref {
		switch {
		case base.name == "Core" && k == 0:
			return 0
		case base.name == "Core":
			return format.ExportRef(0) // Object
		case base.name == "Engine" && k == 0:
			return objRef
		case base.name == "Engine":
			if actor == 0 {
				actor = format.ExportRef(0)
			}
			return actor
		}
		if k%2 == 0 {
			return b.classRef("Engine", "Actor")
		}
		return objRef
	})
	return b
}

func (w *benchWriter) mod(m int) *builder {
	b := newBuilder(uint32(0x10000 + m))
	for _, t := range propTypes {
		b.classRef("Core", t)
	}
	b.classRef("Core", "Function")
	b.classRef("Core", "Object")
	b.useMembers(baseIndex("Engine"), m, 10+mix(m, 10)%60)
	if mix(m, 11)%2 == 0 {
		b.useMembers(baseIndex("Botpack"), m+7, 5+mix(m, 12)%30)
	}
	// Earlier mods it builds on (a DAG), except for the one true cycle
	// Mod00001 → Mod00002 → Mod00003 → Mod00001.
	var deps []int
	if m > 0 {
		for j := range mix(m, 13) % 4 {
			deps = append(deps, mix(m, 14+j)%m)
		}
	}
	if w.l.mods > 3 {
		switch m {
		case 1:
			deps = append(deps, 3)
		case 2:
			deps = append(deps, 1)
		case 3:
			deps = append(deps, 2)
		}
	}
	for _, d := range deps {
		for k := range 1 + mix(m, 20+d)%3 {
			b.classRef(modName(d), modClass(d, k%modClassCount(d)))
		}
	}
	// Default properties naming textures and sounds.
	for j := range mix(m, 21) % 6 {
		w.texImport(b, mix(m, 22+j))
	}
	for j := range mix(m, 30) % 6 {
		w.sndImport(b, mix(m, 31+j))
	}
	b.exportClasses(modName(m), modClassCount(m), func(k int) string { return modClass(m, k) }, func(k int) format.Ref {
		if len(deps) > 0 && k == 0 {
			d := deps[0]
			return b.classRef(modName(d), modClass(d, 0))
		}
		switch k % 3 {
		case 0:
			return b.classRef("Engine", "Actor")
		case 1:
			return b.classRef("Engine", "Info")
		}
		return b.classRef("Botpack", "TournamentWeapon")
	})
	return b
}

// texImport imports one existing texture chosen by seed.
func (w *benchWriter) texImport(b *builder, seed int) format.Ref {
	return w.texImportFrom(b, seed%w.l.tex, seed)
}

// texImportFrom imports one existing texture of package t chosen by seed.
func (w *benchWriter) texImportFrom(b *builder, t, seed int) format.Ref {
	g := mix(seed, 40) % texGroups(t)
	k := mix(seed, 41) % texPerGroup(t, g)
	return b.imp("Engine", "Texture", texName(t), groupNames[g%len(groupNames)], texObject(g, k))
}

func (w *benchWriter) sndImport(b *builder, seed int) format.Ref {
	return w.sndImportFrom(b, seed%w.l.snd, seed)
}

func (w *benchWriter) sndImportFrom(b *builder, s, seed int) format.Ref {
	g := mix(seed, 42) % sndGroupCount(s)
	k := mix(seed, 43) % sndPerGroup(s, g)
	return b.imp("Engine", "Sound", sndName(s), sndGroups[g%len(sndGroups)], sndObject(g, k))
}

func (w *benchWriter) tex(t int) *builder {
	b := newBuilder(uint32(0x20000 + t))
	cls := b.classRef("Engine", "Texture")
	pal := b.classRef("Engine", "Palette")
	for g := range texGroups(t) {
		grp := b.ExportGroup(0, groupNames[g%len(groupNames)])
		for k := range texPerGroup(t, g) {
			b.Export(grp, texObject(g, k), cls, 0, int32(4096<<(mix(t*64+k, 44)%4)))
			if k%4 == 0 {
				b.Export(0, "Palette"+strconv.Itoa(len(b.File.Exports)), pal, 0, 1030)
			}
		}
	}
	return b
}

func (w *benchWriter) snd(s int) *builder {
	b := newBuilder(uint32(0x30000 + s))
	cls := b.classRef("Engine", "Sound")
	for g := range sndGroupCount(s) {
		grp := b.ExportGroup(0, sndGroups[g%len(sndGroups)])
		for k := range sndPerGroup(s, g) {
			b.Export(grp, sndObject(g, k), cls, 0, int32(8000+mix(s*64+k, 45)%60000))
		}
	}
	return b
}

func (w *benchWriter) music(m int) *builder {
	b := newBuilder(uint32(0x40000 + m))
	b.Export(0, musicName(m), b.classRef("Engine", "Music"), 0, int32(100000+mix(m, 46)%400000))
	return b
}

// mapActors are the Engine classes a map's actors are of, with the share
// of the map's actors (per 64).
var mapActors = []struct {
	class string
	share int
}{{"Brush", 14}, {"Light", 20}, {"PathNode", 10}, {"PlayerStart", 2}, {"Mover", 2}, {"Trigger", 2},
	{"ZoneInfo", 1}, {"Inventory", 3}, {"Decoration", 3}, {"Keypoint", 1}, {"AmbientSound", 3},
	{"Teleporter", 1}, {"Model", 1}, {"Polys", 1}}

func (w *benchWriter) mapPkg(m int) *builder {
	b := newBuilder(uint32(0x50000 + m))
	big := mix(m, 50)%10 == 0 // one map in ten is large
	nTex := 80 + mix(m, 51)%400
	nSnd := 5 + mix(m, 52)%40
	nActors := 200 + mix(m, 53)%900
	if big {
		nTex *= 6
		nSnd *= 2
		nActors *= 3
	}
	// Textures from a handful of packages, as a map's themes are.
	packs := 3 + mix(m, 54)%14
	if big {
		packs *= 2
	}
	for j := range nTex {
		w.texImportFrom(b, mix(m, 55+j%packs)%w.l.tex, mix(m, 1000+j))
	}
	for j := range nSnd {
		w.sndImportFrom(b, mix(m, 60+j%4)%w.l.snd, mix(m, 2000+j))
	}
	b.imp("Engine", "Music", musicName(mix(m, 61)%w.l.music), musicName(mix(m, 61)%w.l.music))
	b.useMembers(baseIndex("Engine"), m, 20)
	if mix(m, 62)%3 == 0 {
		b.useMembers(baseIndex("Botpack"), m, 10)
	}
	var modClasses []format.Ref
	if mix(m, 63)%4 == 0 { // a map with mod actors
		for j := range 1 + mix(m, 64)%3 {
			d := mix(m, 65+j) % w.l.mods
			modClasses = append(modClasses, b.classRef(modName(d), modClass(d, mix(m, 66)%modClassCount(d))))
		}
	}
	// The planted findings: three maps import from packages that are not
	// there, two import textures their package lacks.
	switch m {
	case 3, 11, 19:
		b.imp("Engine", "Texture", "LostTextures"+strconv.Itoa(m), "Base", "Wall1")
	case 5, 13:
		b.imp("Engine", "Texture", texName(m%w.l.tex), groupNames[0], "Missing"+strconv.Itoa(m))
	}

	level := b.Export(0, "MyLevel", b.classRef("Engine", "Level"), 0, 4000)
	b.Export(level, "LevelInfo0", b.classRef("Engine", "LevelInfo"), 0, 600)
	for _, a := range mapActors {
		cls := b.classRef("Engine", a.class)
		for k := range max(1, nActors*a.share/64) {
			b.Export(level, a.class+strconv.Itoa(k), cls, 0, int32(150+k%200))
		}
	}
	for j, cls := range modClasses {
		for k := range 2 + mix(m, 70+j)%10 {
			b.Export(level, "ModActor"+strconv.Itoa(j)+"_"+strconv.Itoa(k), cls, 0, 300)
		}
	}
	return b
}

// BenchFindings are the problems `check` reports on every benchmark
// install: kind and package, in check's order.
var BenchFindings = [][2]string{
	{"missing_object", "TexPack00005"},
	{"missing_object", "TexPack00013"},
	{"missing_package", "LostTextures11"},
	{"missing_package", "LostTextures19"},
	{"missing_package", "LostTextures3"},
	{"cycle", "Mod00001"}, // a warning: both packages exist
}
