package demo

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/upkdeps/upkdeps/format"
)

// ServerIni is the generated mod server's game ini, relative to its root.
const ServerIni = "System/Server.ini"

// The mod server (WriteServer) is a UT99-style server shaped the way mods
// are published: the benchmark's stock System packages, then per mod a code
// package ModNN.u (every third mod a second one, ModNNExtra.u, built on
// the first), its textures ModNNTex.utx, every other mod its sounds
// ModNNSnd.uax, and three maps DM-ModNN-K.unr that place its actors, so
// that file names and imports both say which packages belong together.
// Some mods build on an earlier one. Around them: shared texture, sound
// and music packages and general maps using them (one general map in
// four places a mod's actor), the packages nothing reaches
// (ServerOrphans), a mod listed in ServerPackages that nothing else
// needs (ServerUnneeded), and missing packages (ServerMissing).

// ServerLayout is what WriteServer writes for n packages and mods mods.
type ServerLayout struct {
	N, Mods                  int
	Tex, Snd, Music, GenMaps int // shared packages and general maps
}

// serverOrphanTex and serverOrphanSnd are the shared-looking packages
// that nothing imports.
const serverOrphanTex, serverOrphanSnd = 6, 2

// ServerLayoutFor says how an n-package server with mods mods is made up
// (n at least 60 + 8 per mod).
func ServerLayoutFor(n, mods int) (ServerLayout, error) {
	l := ServerLayout{N: n, Mods: mods}
	if mods < 4 || n < 60+8*mods {
		return l, fmt.Errorf("demo: a mod server of %d mods needs at least 4 mods and %d packages, not %d", mods, 60+8*mods, n)
	}
	rest := n - len(benchBases) - l.modPackages() - serverOrphanTex - serverOrphanSnd
	l.Tex, l.Snd, l.Music = rest*26/100, rest*13/100, rest*6/100
	l.GenMaps = rest - l.Tex - l.Snd - l.Music
	return l, nil
}

// modPackages counts the packages of all mods.
func (l ServerLayout) modPackages() int {
	n := 0
	for m := range l.Mods {
		n += len(l.modFiles(m))
	}
	return n
}

func serverModName(m int) string { return fmt.Sprintf("Mod%02d", m+1) }

// The last mod nothing uses (its packages are orphans); the one before
// it is listed in ServerPackages and used by nothing else.
func (l ServerLayout) orphanMod() int   { return l.Mods - 1 }
func (l ServerLayout) unneededMod() int { return l.Mods - 2 }

// modMaps is how many maps place mod m's actors.
func (l ServerLayout) modMaps(m int) int {
	if m >= l.unneededMod() {
		return 0
	}
	return 3
}

// modFiles are mod m's files, relative to the root, its code first.
func (l ServerLayout) modFiles(m int) []string {
	name := serverModName(m)
	files := []string{"System/" + name + ".u"}
	if m%3 == 2 {
		files = append(files, "System/"+name+"Extra.u")
	}
	files = append(files, "Textures/"+name+"Tex.utx")
	if m%2 == 0 {
		files = append(files, "Sounds/"+name+"Snd.uax")
	}
	for k := range l.modMaps(m) {
		files = append(files, "Maps/DM-"+name+"-"+strconv.Itoa(k+1)+".unr")
	}
	return files
}

// modDep is the earlier mod that mod m builds on, or -1.
func modDep(m int) int {
	if m > 0 && m%4 == 1 {
		return (m - 1) / 2
	}
	return -1
}

// ServerGroups are the packages of each mod, by mod name (ModNN): what a
// picture of the server should draw together.
func ServerGroups(n, mods int) (map[string][]string, error) {
	l, err := ServerLayoutFor(n, mods)
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for m := range l.Mods {
		for _, f := range l.modFiles(m) {
			out[serverModName(m)] = append(out[serverModName(m)], packageOf(f))
		}
	}
	return out, nil
}

func packageOf(rel string) string {
	base := filepath.Base(rel)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// ServerOrphans are the packages of a mod server that nothing reaches: no
// map, ini line or other package names them. Sorted.
func ServerOrphans(n, mods int) ([]string, error) {
	l, err := ServerLayoutFor(n, mods)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range l.modFiles(l.orphanMod()) {
		out = append(out, packageOf(f))
	}
	for i := range serverOrphanTex {
		out = append(out, fmt.Sprintf("OldTex%02d", i+1))
	}
	for i := range serverOrphanSnd {
		out = append(out, fmt.Sprintf("OldSnd%02d", i+1))
	}
	slices.Sort(out)
	return out, nil
}

// ServerUnneeded is the mod listed in ServerPackages that nothing else on
// the server needs.
func ServerUnneeded(n, mods int) (string, error) {
	l, err := ServerLayoutFor(n, mods)
	if err != nil {
		return "", err
	}
	return serverModName(l.unneededMod()), nil
}

// ServerMissing are the missing packages of a mod server and the package
// that imports each.
func ServerMissing(mods int) map[string]string {
	out := map[string]string{}
	for m := range mods - 2 {
		if m%7 == 3 {
			out[serverModName(m)+"Voices"] = serverModName(m)
		}
	}
	out["LostTex01"] = genMapName(1)
	return out
}

func sharedTexName(i int) string { return fmt.Sprintf("Shared%04d", i) }
func sharedSndName(i int) string { return fmt.Sprintf("SharedSnd%04d", i) }
func genMusicName(i int) string  { return fmt.Sprintf("Song%04d", i) }
func genMapName(i int) string    { return mapPrefixes[i%len(mapPrefixes)] + fmt.Sprintf("Gen%04d", i) }

// WriteServer writes the mod server of n packages and mods mods under dir
// (its ini is ServerIni). The same arguments always write the same bytes.
func WriteServer(dir string, n, mods int) error {
	l, err := ServerLayoutFor(n, mods)
	if err != nil {
		return err
	}
	for _, d := range []string{"System", "Textures", "Sounds", "Music", "Maps"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(dir, ServerIni), []byte(l.ini()), 0o644); err != nil {
		return err
	}
	bw := &benchWriter{dir: dir}
	for b := range benchBases {
		if err := bw.write("base", b); err != nil {
			return err
		}
	}
	write := func(rel string, b *builder) error {
		if err := format.WriteFile(filepath.Join(dir, filepath.FromSlash(rel)), b.File); err != nil {
			return fmt.Errorf("demo: %s: %w", rel, err)
		}
		return nil
	}
	guid := uint32(0x60000)
	next := func() uint32 { guid++; return guid }
	for m := range l.Mods {
		for _, f := range l.modFiles(m) {
			if err := write(f, l.modPackage(m, packageOf(f), next())); err != nil {
				return err
			}
		}
	}
	for i := range l.Tex {
		if err := write("Textures/"+sharedTexName(i)+".utx", texPackage(next())); err != nil {
			return err
		}
	}
	for i := range serverOrphanTex {
		if err := write(fmt.Sprintf("Textures/OldTex%02d.utx", i+1), texPackage(next())); err != nil {
			return err
		}
	}
	for i := range l.Snd {
		if err := write("Sounds/"+sharedSndName(i)+".uax", sndPackage(next())); err != nil {
			return err
		}
	}
	for i := range serverOrphanSnd {
		if err := write(fmt.Sprintf("Sounds/OldSnd%02d.uax", i+1), sndPackage(next())); err != nil {
			return err
		}
	}
	for i := range l.Music {
		b := newBuilder(next())
		b.Export(0, genMusicName(i), b.classRef("Engine", "Music"), 0, int32(100000+mix(i, 46)%400000))
		if err := write("Music/"+genMusicName(i)+".umx", b); err != nil {
			return err
		}
	}
	for i := range l.GenMaps {
		if err := write("Maps/"+genMapName(i)+".unr", l.genMap(i, next())); err != nil {
			return err
		}
	}
	return nil
}

func (l ServerLayout) ini() string {
	var b strings.Builder
	b.WriteString("; upkdeps mod server (internal/demo.WriteServer)\r\n")
	b.WriteString("[Engine.Engine]\r\nGameEngine=Engine.GameEngine\r\nDefaultGame=Botpack.DeathMatchPlus\r\nDefaultServerGame=Botpack.DeathMatchPlus\r\n\r\n")
	b.WriteString("[Core.System]\r\n")
	for _, p := range []string{"../System/*.u", "../Maps/*.unr", "../Textures/*.utx", "../Sounds/*.uax", "../Music/*.umx"} {
		b.WriteString("Paths=" + p + "\r\n")
	}
	b.WriteString("\r\n[Engine.GameEngine]\r\n")
	for _, p := range []string{"Botpack", "UnrealShare", "UnrealI"} {
		b.WriteString("ServerPackages=" + p + "\r\n")
	}
	for m := range l.Mods {
		if m%3 == 0 && m < l.unneededMod() || m == l.unneededMod() {
			b.WriteString("ServerPackages=" + serverModName(m) + "\r\n")
		}
	}
	b.WriteString("\r\n[Editor.EditorEngine]\r\n")
	for _, base := range benchBases {
		b.WriteString("EditPackages=" + base.name + "\r\n")
	}
	return b.String()
}

// Textures and sounds: one group of a few objects.
func texPackage(guid uint32) *builder {
	b := newBuilder(guid)
	cls := b.classRef("Engine", "Texture")
	grp := b.ExportGroup(0, "Base")
	for k := range 8 {
		b.Export(grp, "T"+strconv.Itoa(k), cls, 0, int32(4096<<(k%4)))
	}
	return b
}

func sndPackage(guid uint32) *builder {
	b := newBuilder(guid)
	cls := b.classRef("Engine", "Sound")
	grp := b.ExportGroup(0, "Fx")
	for k := range 4 {
		b.Export(grp, "S"+strconv.Itoa(k), cls, 0, int32(8000+k*1000))
	}
	return b
}

func texRef(b *builder, pkg string, k int) {
	b.imp("Engine", "Texture", pkg, "Base", "T"+strconv.Itoa(k%8))
}
func sndRef(b *builder, pkg string, k int) {
	b.imp("Engine", "Sound", pkg, "Fx", "S"+strconv.Itoa(k%4))
}

// modPackage writes the package name of mod m.
func (l ServerLayout) modPackage(m int, name string, guid uint32) *builder {
	mod := serverModName(m)
	switch {
	case name == mod+"Tex":
		return texPackage(guid)
	case name == mod+"Snd":
		return sndPackage(guid)
	case strings.HasPrefix(name, "DM-"):
		b := newBuilder(guid)
		level := b.Export(0, "MyLevel", b.classRef("Engine", "Level"), 0, 4000)
		b.Export(level, "LevelInfo0", b.classRef("Engine", "LevelInfo"), 0, 600)
		b.Export(level, "ModActor0", b.classRef(mod, mod+"Class0"), 0, 300)
		if m%3 == 2 && strings.HasSuffix(name, "-1") {
			b.Export(level, "ModActor1", b.classRef(mod+"Extra", mod+"ExtraClass0"), 0, 300)
		}
		texRef(b, mod+"Tex", m)
		texRef(b, sharedTexName(mix(m, 7)%l.Tex), m)
		return b
	}
	// Code: ModNN.u, or ModNNExtra.u built on it.
	b := newBuilder(guid)
	for _, t := range propTypes {
		b.classRef("Core", t)
	}
	b.classRef("Core", "Function")
	b.useMembers(baseIndex("Engine"), m, 10+mix(m, 10)%30)
	if name == mod+"Extra" {
		b.exportClasses(name, 2, func(k int) string { return name + "Class" + strconv.Itoa(k) }, func(int) format.Ref {
			return b.classRef(mod, mod+"Class0")
		})
		return b
	}
	if m%2 == 1 {
		b.useMembers(baseIndex("Botpack"), m, 5)
	}
	texRef(b, mod+"Tex", m)
	if m%2 == 0 {
		sndRef(b, mod+"Snd", m)
	}
	texRef(b, sharedTexName(mix(m, 8)%l.Tex), m)
	if m%7 == 3 && m < l.unneededMod() {
		sndRef(b, mod+"Voices", m) // missing
	}
	dep := modDep(m)
	b.exportClasses(mod, 3, func(k int) string { return mod + "Class" + strconv.Itoa(k) }, func(k int) format.Ref {
		if dep >= 0 && k == 0 {
			d := serverModName(dep)
			return b.classRef(d, d+"Class0")
		}
		return b.classRef("Engine", "Actor")
	})
	return b
}

// genMap writes general map i: shared textures, sounds and a song, one in
// four with a mod's actor.
func (l ServerLayout) genMap(i int, guid uint32) *builder {
	b := newBuilder(guid)
	level := b.Export(0, "MyLevel", b.classRef("Engine", "Level"), 0, 4000)
	b.Export(level, "LevelInfo0", b.classRef("Engine", "LevelInfo"), 0, 600)
	for j := range 3 + mix(i, 51)%5 {
		texRef(b, sharedTexName(mix(i, 55+j)%l.Tex), j)
	}
	for j := range 1 + mix(i, 52)%3 {
		sndRef(b, sharedSndName(mix(i, 60+j)%l.Snd), j)
	}
	song := genMusicName(mix(i, 61) % l.Music)
	b.imp("Engine", "Music", song, song)
	if i%4 == 0 {
		m := mix(i, 65) % l.unneededMod()
		mod := serverModName(m)
		b.Export(level, "ModActor0", b.classRef(mod, mod+"Class1"), 0, 300)
	}
	if i == 1 {
		texRef(b, "LostTex01", 0) // missing
	}
	return b
}
