// Package demo generates the small demo install under testdata/demo: a
// UT99-style game folder whose packages are written by our own package
// writer and which exhibits every finding `upkdeps check` reports. The
// README's first command runs on it; TestDemoUpToDate keeps the committed
// copy equal to what Write produces.
//
// Regenerate with: go run ./internal/demo/gendemo testdata/demo
package demo

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/upkdeps/upkdeps/format"
)

// Ini is the demo's game ini, relative to the install root.
const Ini = "System/Demo.ini"

const iniText = `; upkdeps demo install: every problem upkdeps check finds, in one small game folder.
[Engine.Engine]
Language=int
GameEngine=Engine.GameEngine
DefaultGame=DemoGame.DemoGameInfo
DefaultServerGame=DemoGame.DemoTeamGame
Console=DemoMenu.DemoConsole

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
Paths=../Mods/*.u
Paths=../Extra/*.u

[Engine.GameEngine]
ServerPackages=DemoGame
ServerPackages=DemoSkins
ServerPackages=DemoVoices
ServerActors=demobase.DemoInfo
ServerActors=DemoStats.StatsUplink Interval=60

[Editor.EditorEngine]
EditPackages=Core
EditPackages=Engine
EditPackages=DemoGame
EditPackages=DemoBase
EditPackages=DemoWeapons
EditPackages=DemoExtras
EditPackages=DemoSkins

[IpDrv.HTTPDownload]
RedirectToURL=http://redirect.example.invalid/ut/
UseCompression=True
`

// pkg describes one generated package: exports "Group.Name:Pkg.Class" (class
// "Class" for a class) and imports "Pkg.Group.Name:ClassPkg.Class".
type pkg struct {
	file    string
	version uint16
	flags   format.PackageFlags
	exports []string
	imports []string
}

var packages = []pkg{
	{file: "System/Core.u", exports: []string{"Object:Class", "Commandlet:Class"},
		imports: []string{"Core.Class:Core.Class", "Core.Package:Core.Class", "Core.Function:Core.Class"}},
	{file: "System/Engine.u", exports: []string{"Actor:Class", "Actor.Touching:Core.ArrayProperty", "Pawn:Class",
		"Info:Class", "GameInfo:Class", "Mutator:Class", "Weapon:Class", "Texture:Class", "Sound:Class"},
		imports: []string{"Core.Object:Core.Class", "Engine.Level:Core.Class", "Engine.Model:Core.Class"}},
	{file: "System/DemoBase.u", exports: []string{"DemoActor:Class", "DemoInfo:Class"},
		imports: []string{"Engine.Actor:Core.Class", "Engine.Info:Core.Class", "Engine.FancyRenderer:Core.Class"}},
	{file: "System/DemoGame.u", exports: []string{"DemoGameInfo:Class", "DemoHUD:Class"},
		imports: []string{"Engine.GameInfo:Core.Class", "Engine.Actor.Touching:Core.ObjectProperty",
			"DemoBase.DemoActor:Core.Class", "DemoWeapons.DemoRifle:Core.Class", "DemoExtras.Helper:Core.Class",
			"ServerAdmin.AdminTool:Core.Class", "DemoFX.Sparks.Spark1:Engine.Texture"}},
	{file: "System/DemoWeapons.u", exports: []string{"DemoRifle:Class"},
		imports: []string{"Engine.Weapon:Core.Class", "DemoGame.DemoGameInfo:Core.Class", "DemoSnd.Shot:Engine.Sound"}},
	{file: "System/ServerAdmin.u", flags: format.FlagServerSideOnly, exports: []string{"AdminTool:Class"},
		imports: []string{"Engine.Mutator:Core.Class"}},
	{file: "System/DemoSkins.u", exports: []string{"Skins.Red:Engine.Texture"},
		imports: []string{"Engine.Texture:Core.Class"}},
	{file: "Maps/DM-Demo.unr", exports: []string{"MyLevel:Engine.Level"},
		imports: []string{"Engine.Level:Core.Class", "DemoGame.DemoGameInfo:Core.Class", "DemoTex.Walls.Brick:Engine.Texture",
			"DemoTex.Walls.Marble:Engine.Texture", "DemoTex.Floors.Metal:Engine.Texture", "CityTex.Roofs.Slate:Engine.Texture",
			"Credits.Theme:Engine.Music", "DemoSnd.Ambient:Engine.Sound", "Broken.Thing:Core.Class"}},
	{file: "Maps/DM-Second.unr", version: 68, exports: []string{"MyLevel:Engine.Level"},
		imports: []string{"Engine.Level:Core.Class", "DemoTex.Walls.Brick:Engine.Texture", "CityTex.Roofs.Tile:Engine.Texture"}},
	{file: "Textures/DemoTex.utx", version: 64, exports: []string{"Walls.Brick:Engine.Texture", "Floors.Metal:Engine.Texture"},
		imports: []string{"Engine.Texture:Core.Class"}},
	{file: "Textures/demofx.utx", version: 64, exports: []string{"Sparks.Spark1:Engine.Texture"},
		imports: []string{"Engine.Texture:Core.Class"}},
	{file: "Textures/Credits.utx", version: 63, exports: []string{"Logo:Engine.Texture"},
		imports: []string{"Engine.Texture:Core.Class"}},
	{file: "Music/Credits.umx", version: 62, exports: []string{"Theme:Engine.Music"}},
	{file: "Sounds/DemoSnd.uax", exports: []string{"Shot:Engine.Sound", "Ambient:Engine.Sound"},
		imports: []string{"Engine.Sound:Core.Class"}},
	{file: "Mods/DemoBase.u", exports: []string{"DemoActor:Class"},
		imports: []string{"Engine.Actor:Core.Class"}},
}

// sources are UnrealScript files of the EditPackages entries, relative to
// the install root. DemoExtras has sources but no .u (deleted to force a
// rebuild); DemoSkins' .upkg makes it ServerSideOnly although clients need
// it; the comment and the string in DemoGameInfo name a package that must
// not count.
var sources = []struct{ file, text string }{
	{"DemoBase/Classes/DemoActor.uc", `//=============================================================================
// DemoActor: the base of the demo's actors.
//=============================================================================
class DemoActor extends Actor;

var() float Speed;
var() class<Actor> Effect;

defaultproperties
{
	Effect=class'DemoFXLib.Spark'
}
`},
	{"DemoBase/Classes/DemoInfo.uc", "class DemoInfo extends Info;\n"},
	{"DemoGame/Classes/DemoGameInfo.uc", `class DemoGameInfo extends GameInfo;

// DemoLegacy.OldThing is only mentioned in this comment.
var DemoActor Spawned;
var class<DemoRifle> StartWeapon;
var DemoExtras.Helper Help;
var string Note;

function PostBeginPlay()
{
	Note = "DemoLegacy.Stuff in a string does not count";
	Spawned = Spawn(class'DemoBase.DemoActor');
}

defaultproperties
{
	StartWeapon=class'DemoWeapons.DemoRifle'
}
`},
	{"DemoGame/Classes/DemoHUD.uc", "class DemoHUD extends Info;\n"},
	{"DemoWeapons/Classes/DemoRifle.uc", `class DemoRifle extends Weapon;

var DemoGameInfo Game;
`},
	{"DemoExtras/Classes/Helper.uc", "class Helper extends Info;\n"},
	{"DemoSkins/Classes/DemoSkinInfo.uc", "class DemoSkinInfo extends Info;\n"},
	{"DemoSkins/Classes/DemoSkins.upkg", "[Flags]\nAllowDownload=True\nClientOptional=False\nServerSideOnly=True\n"},
}

// build makes the package described by p.
func build(p pkg, guid uint32) *format.File {
	v := p.version
	if v == 0 {
		v = 69
	}
	b := format.NewBuilder(v, 0)
	b.File.Flags = p.flags | format.FlagAllowDownload
	b.File.GUID = format.GUID{0xDE300000 + guid, 0x11D40000 + guid*7, 0xA0000000 | guid<<8, 0x0000C0DE + guid}
	for _, im := range p.imports {
		b.ImportSpec(im)
	}
	for i, ex := range p.exports {
		b.ExportSpec(ex, int32(64+32*i))
	}
	return b.File
}

// Write creates the demo install under dir (which must not hold another
// install's files; existing demo files are replaced).
func Write(dir string) error {
	for _, d := range []string{"System", "Maps", "Textures", "Sounds", "Music", "Mods", "Cache"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(dir, Ini), []byte(strings.ReplaceAll(iniText, "\n", "\r\n")), 0o644); err != nil {
		return err
	}
	for _, src := range sources {
		path := filepath.Join(dir, filepath.FromSlash(src.file))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, []byte(strings.ReplaceAll(src.text, "\n", "\r\n")), 0o644); err != nil {
			return err
		}
	}
	guids := map[string]format.GUID{}
	for i, p := range packages {
		f := build(p, uint32(i+1))
		img, err := format.Marshal(f)
		if err != nil {
			return fmt.Errorf("demo: %s: %w", p.file, err)
		}
		if err := os.WriteFile(filepath.Join(dir, p.file), img, 0o644); err != nil {
			return err
		}
		guids[p.file] = f.GUID
	}
	// A package cut short: unreadable.
	whole, err := format.Marshal(build(pkg{file: "System/Broken.u", exports: []string{"Thing:Class"},
		imports: []string{"Engine.Actor:Core.Class"}}, 99))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "System/Broken.u"), whole[:len(whole)-12], 0o644); err != nil {
		return err
	}
	// The download cache: a newer DemoSkins (another GUID: version
	// mismatch), CityTex (a client joining a server would have it), and a
	// line whose file was purged.
	cached := []struct {
		name string
		p    pkg
		n    uint32
	}{
		{"CityTex.utx", pkg{exports: []string{"Roofs.Slate:Engine.Texture", "Roofs.Tile:Engine.Texture"}, imports: []string{"Engine.Texture:Core.Class"}}, 50},
		{"DemoSkins.u", pkg{exports: []string{"Skins.Red:Engine.Texture", "Skins.Blue:Engine.Texture"}, imports: []string{"Engine.Texture:Core.Class"}}, 51},
	}
	var ini strings.Builder
	ini.WriteString("[Cache]\r\n")
	for _, c := range cached {
		f := build(c.p, c.n)
		img, err := format.Marshal(f)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "Cache", f.GUID.String()+".uxx"), img, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(&ini, "%s=%s\r\n", f.GUID, c.name)
	}
	ini.WriteString("0123456789ABCDEF0123456789ABCDEF=PurgedLongAgo.u\r\n")
	if err := os.WriteFile(filepath.Join(dir, "Cache", "cache.ini"), []byte(ini.String()), 0o644); err != nil {
		return err
	}
	return writeCollection(dir)
}

// Collection is the demo's folder of packages found elsewhere (an old
// install, downloads), relative to the install root: outside Paths, so
// check does not see it, but `index add` indexes it, `check --index` and
// `fix` find missing packages in it, and its mod folder is what
// `check --with` tries.
const Collection = "Collection"

// CollectionMod is the mod folder inside Collection: a mutator laid out as
// its archive would be (System/...), for `check --with`.
const CollectionMod = Collection + "/DemoMutator"

// collection are the packages of Collection: copies of packages the demo
// lacks, and the mod. DemoMutator brings DemoStats, which the ini's
// ServerActors line needs, so check --with shows a finding it removes.
var collection = []pkg{
	{file: Collection + "/OldServer/System/DemoVoices.u", exports: []string{"Voices.Taunt:Engine.Sound"},
		imports: []string{"Engine.Sound:Core.Class"}},
	{file: Collection + "/OldServer/System/DemoMenu.u", exports: []string{"DemoConsole:Class"},
		imports: []string{"Engine.Actor:Core.Class"}},
	{file: Collection + "/Downloads/CityTex.utx", exports: []string{"Roofs.Slate:Engine.Texture", "Roofs.Tile:Engine.Texture"},
		imports: []string{"Engine.Texture:Core.Class"}},
	{file: CollectionMod + "/System/DemoMutator.u", exports: []string{"DemoMutator:Class"},
		imports: []string{"Engine.Mutator:Core.Class", "DemoBase.DemoActor:Core.Class", "DemoStats.StatsUplink:Core.Class"}},
	{file: CollectionMod + "/System/DemoStats.u", exports: []string{"StatsUplink:Class"},
		imports: []string{"Engine.Info:Core.Class"}},
}

// writeCollection writes Collection under dir.
func writeCollection(dir string) error {
	for i, p := range collection {
		img, err := format.Marshal(build(p, uint32(200+i)))
		if err != nil {
			return fmt.Errorf("demo: %s: %w", p.file, err)
		}
		path := filepath.Join(dir, filepath.FromSlash(p.file))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, img, 0o644); err != nil {
			return err
		}
	}
	return nil
}
