package ini

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Game is the game (and so the engine generation) an installation belongs
// to. The generation decides the engine's rules: cache file naming, GUID
// checks, package versions.
type Game struct {
	Name       string // short name, as ParseGame accepts it; "ue1"/"ue2" for an unnamed game of that engine; "" when unknown
	Generation int    // 1 = Unreal Engine 1, 2 = Unreal Engine 2, 0 = unknown
}

// The games upkdeps knows.
var (
	UT99         = Game{"ut99", 1}
	Unreal       = Game{"unreal", 1}
	DeusEx       = Game{"deusex", 1}
	Rune         = Game{"rune", 1}
	UE1          = Game{"ue1", 1} // some other Unreal Engine 1 game
	UT2003       = Game{"ut2003", 2}
	UT2004       = Game{"ut2004", 2}
	KillingFloor = Game{"kf", 2}
	Swat4        = Game{"swat4", 2}
	RavenShield  = Game{"r6rs", 2}
	ShadowOps    = Game{"shadowops", 2}
	UE2Runtime   = Game{"ue2runtime", 2}
	SWRC         = Game{"swrc", 2}
	UE2          = Game{"ue2", 2} // some other Unreal Engine 2 game
)

// Games lists the games ParseGame accepts by their short names.
var Games = []Game{UT99, Unreal, DeusEx, Rune, UE1, UT2003, UT2004, KillingFloor, Swat4, RavenShield, ShadowOps, UE2Runtime, SWRC, UE2}

// Profile is what upkdeps knows of a game's installation: the names of its
// game ini, the section that holds Paths and CachePath, the extensions its
// stock Paths use, and where those facts come from. The extensions describe
// the game (GuessGame reads them); the packages searched are always those
// the ini's Paths wildcards name.
type Profile struct {
	Game          Game
	Title         string   // the game's name for people
	Inis          []string // game ini names, as Find looks for them
	SystemSection string   // section holding Paths and CachePath
	Exts          []string // extensions of the stock Paths, with the dot
	Map           string   // the extension of its maps (one of Exts); "" for a generic engine
	Source        string   // where the facts come from
}

// Profiles lists the game profiles, one per game of Games.
var Profiles = []Profile{
	{UT99, "Unreal Tournament (UT99)", []string{"UnrealTournament.ini"}, SectionSystem,
		[]string{".u", ".unr", ".utx", ".uax", ".umx"}, ".unr", "stock UnrealTournament.ini (corpus adrak0/ut99)"},
	{Unreal, "Unreal / Unreal Gold", []string{"Unreal.ini"}, SectionSystem,
		[]string{".u", ".unr", ".utx", ".uax", ".umx"}, ".unr", "stock Unreal.ini"},
	{DeusEx, "Deus Ex", []string{"DeusEx.ini"}, SectionSystem,
		[]string{".u", ".dx", ".utx", ".uax", ".umx"}, ".dx", "stock DeusEx.ini (corpus butterwagon69/NerdMod)"},
	{Rune, "Rune", []string{"RuneServer.ini", "Rune.ini"}, SectionSystem,
		[]string{".u", ".run", ".utx", ".uax", ".umx", ".ums"}, ".run", "stock Rune.ini (Paths=..\\Meshes\\*.ums: dwmx/RMod RMod_Build/RModBuild.ini)"},
	{UE1, "Unreal Engine 1 game", nil, SectionSystem, nil, "", "engine source (Core/Src/UnMisc.cpp, [Core.System])"},
	{UT2003, "Unreal Tournament 2003", []string{"UT2003.ini"}, SectionSystem,
		[]string{".u", ".ut2", ".utx", ".uax", ".umx", ".usx", ".ukx"}, ".ut2", "stock UT2003.ini"},
	{UT2004, "Unreal Tournament 2004", []string{"UT2004.ini"}, SectionSystem,
		[]string{".u", ".ut2", ".utx", ".uax", ".umx", ".usx", ".ukx", ".upx", ".uvx"}, ".ut2", "stock UT2004.ini"},
	{KillingFloor, "Killing Floor", []string{"KillingFloor.ini"}, SectionSystem,
		[]string{".u", ".rom", ".utx", ".uax", ".usx", ".ukx"}, ".rom", "stock KillingFloor.ini"},
	{Swat4, "SWAT 4", []string{"Swat4.ini", "Swat4X.ini", "Swat4DedicatedServer.ini", "Swat4XDedicatedServer.ini"}, SectionSystem,
		[]string{".u", ".s4m", ".utx", ".uax", ".usx", ".ukx", ".pkg"}, ".s4m", "SWAT 4 installs (maps .s4m, Art/*.pkg)"},
	{RavenShield, "Tom Clancy's Rainbow Six 3: Raven Shield", nil, SectionSystem,
		[]string{".rsm", ".u", ".uxx", ".utx", ".uax", ".umx", ".usx", ".ukx", ".uvx"}, ".rsm", "UELib src/UnrealPackage.cs (BuildName.R6RS extensions)"},
	{ShadowOps, "Shadow Ops: Red Mercury", nil, SectionSystem,
		[]string{".sfr", ".u", ".uxx", ".utx", ".uax", ".umx", ".usx", ".ukx", ".uvx"}, ".sfr", "UELib src/UnrealPackage.cs (BuildName.RM extensions)"},
	{UE2Runtime, "Unreal Engine 2 Runtime", nil, SectionSystem,
		[]string{".u", ".urt", ".utx", ".uax", ".usx", ".ukx"}, ".urt", "UE2 Runtime installs (maps .urt)"},
	{SWRC, "Star Wars: Republic Commando", []string{"System.ini"}, SectionSystem,
		[]string{".u", ".ctm", ".utx", ".uax", ".usx", ".ukx"}, ".ctm", "SWRC installs (GameData/System/System.ini, maps .ctm, packages 159/1: UELib BuildName.SWRepublicCommando)"},
	{UE2, "Unreal Engine 2 game", nil, SectionSystem, nil, "", "engine source ([Core.System])"},
}

// Kind is what a package file holds, as its extension tells.
type Kind string

// Package file kinds.
const (
	KindCode    Kind = "code"
	KindTexture Kind = "texture"
	KindSound   Kind = "sound"
	KindMusic   Kind = "music"
	KindMap     Kind = "map"
	KindMesh    Kind = "mesh"
	KindOther   Kind = "other" // a package file of no kind above (.uxx, .pkg), or no package file
)

// fileKinds is the kind of every package file extension of the engine's
// games, lower case with the dot. Every Profile's Map is KindMap (made so
// below); the other map extensions are those of games without a profile
// (Unreal II .un2, UT3 .ut3).
var fileKinds = func() map[string]Kind {
	m := map[string]Kind{
		".u":   KindCode,
		".utx": KindTexture,
		".uax": KindSound,
		".umx": KindMusic, ".ogg": KindMusic,
		".unr": KindMap, ".ut2": KindMap, ".un2": KindMap, ".ut3": KindMap,
		".usx": KindMesh, ".ukx": KindMesh, ".ums": KindMesh, ".usm": KindMesh, ".upx": KindMesh,
		".uvx": KindOther, ".uxx": KindOther, ".pkg": KindOther, ".kfm": KindOther, ".rvm": KindOther,
	}
	for _, p := range Profiles {
		if p.Map != "" {
			m[p.Map] = KindMap
		}
	}
	return m
}()

// KindOf returns the kind of a package file from its extension, ignoring
// case: KindMap for every Profile's map extension. A name that is not a
// package file is KindOther.
func KindOf(file string) Kind {
	if k, ok := fileKinds[strings.ToLower(filepath.Ext(file))]; ok {
		return k
	}
	return KindOther
}

// IsPackageExt reports whether ext (".utx", with the dot, any case) is the
// extension of an Unreal package file of one of the engine's games: those
// KindOf knows, except .ogg (music UT2004 streams, not a package).
func IsPackageExt(ext string) bool {
	ext = strings.ToLower(ext)
	_, ok := fileKinds[ext]
	return ok && ext != ".ogg"
}

// Profile returns the profile of g, or nil for the zero Game.
func (g Game) Profile() *Profile {
	for i := range Profiles {
		if Profiles[i].Game == g {
			return &Profiles[i]
		}
	}
	return nil
}

// String returns the short name, or "unknown".
func (g Game) String() string {
	if g.Name == "" {
		return "unknown"
	}
	return g.Name
}

// Generic reports whether g names only an engine generation (UE1, UE2),
// not a game: what a map extension in Paths tells.
func (g Game) Generic() bool { return g == UE1 || g == UE2 }

// Known reports whether the generation is known.
func (g Game) Known() bool { return g.Generation != 0 }

var gameAliases = map[string]Game{
	"ut": UT99, "ut99": UT99, "ut436": UT99, "ut469": UT99, "unrealtournament": UT99,
	"unreal": Unreal, "unreal1": Unreal, "u1": Unreal, "unrealgold": Unreal,
	"deusex": DeusEx, "dx": DeusEx,
	"rune":   Rune,
	"ue1":    UE1,
	"ut2003": UT2003, "ut2k3": UT2003,
	"ut2004": UT2004, "ut2k4": UT2004,
	"kf": KillingFloor, "killingfloor": KillingFloor,
	"swat4": Swat4, "swat": Swat4,
	"r6rs": RavenShield, "ravenshield": RavenShield,
	"shadowops": ShadowOps, "rm": ShadowOps,
	"ue2runtime": UE2Runtime, "ue2rt": UE2Runtime,
	"swrc": SWRC, "republiccommando": SWRC,
	"ue2": UE2,
}

// ParseGame reads a game name as given to --game: one of the short names of
// Games or an alias (ut, ut2k4, dx, killingfloor, ...), ignoring case.
func ParseGame(s string) (Game, error) {
	if g, ok := gameAliases[strings.ToLower(strings.TrimSpace(s))]; ok {
		return g, nil
	}
	names := make([]string, len(Games))
	for i, g := range Games {
		names[i] = g.Name
	}
	return Game{}, fmt.Errorf("ini: unknown game %q (want one of %s)", s, strings.Join(names, ", "))
}

// gameByIni maps lower-cased ini file names (of Profiles) to games.
var gameByIni = func() map[string]Game {
	m := make(map[string]Game)
	for _, p := range Profiles {
		for _, name := range p.Inis {
			m[strings.ToLower(name)] = p.Game
		}
	}
	return m
}()

// gameByPackage maps lower-cased names of packages only one game ships to
// that game. Packages named in [Engine.Engine] GameEngine, DefaultGame and
// DefaultServerGame or in EditPackages are looked up here.
var gameByPackage = map[string]Game{
	"botpack":      UT99,
	"unrealshare":  Unreal, // UT ships it too; Botpack decides first
	"unreali":      Unreal,
	"deusex":       DeusEx,
	"runei":        Rune,
	"ut2k4assault": UT2004,
	"onslaught":    UT2004,
	"gui2k4":       UT2004,
	"xgame":        UT2003, // UT2004 ships it too; its own packages decide first
	"kfmod":        KillingFloor,
	"swatgame":     Swat4,
}

// gameOrder ranks the package signals: a package of a later game that reuses
// an earlier game's packages wins.
var gameOrder = []Game{UT2004, KillingFloor, Swat4, UT2003, UT99, DeusEx, Rune, Unreal}

// gameByMapExt maps the map extension in Paths to a game or a generation.
var gameByMapExt = map[string]Game{
	".unr": UE1, ".dx": DeusEx, ".run": Rune,
	".ut2": UE2, ".usx": UE2, ".ukx": UE2, ".rom": UE2, ".s4m": Swat4,
	".rsm": RavenShield, ".sfr": ShadowOps, ".urt": UE2Runtime, ".ctm": SWRC,
}

// GuessGame tells the game from the ini: first its file name
// (UnrealTournament.ini is UT99, UT2004.ini is UT2004, ...), then
// [Engine.Engine] Product, then the packages the ini names (GameEngine,
// DefaultGame, DefaultServerGame, EditPackages: Botpack is UT99, DeusEx is
// Deus Ex, UT2k4Assault is UT2004, ...), then the extensions in Paths (.ut2,
// .usx and .ukx are UE2; .unr is UE1; .rsm is Raven Shield, ...), read
// from the section SystemSection finds (Paths+= lines too), then Paths+=
// lines themselves, which only SWRC's engine reads. It returns the zero Game when nothing
// tells. The packages' own versions are the stronger evidence; callers
// combine both.
func GuessGame(f *File) Game {
	if g, ok := gameByIni[strings.ToLower(filepath.Base(f.Path))]; ok {
		return g
	}
	switch p, _ := f.Last(SectionEngine, "Product"); strings.ToLower(p) {
	case "ut2004":
		return UT2004
	case "ut2003":
		return UT2003
	}
	found := make(map[Game]bool)
	for _, key := range []string{"GameEngine", "DefaultGame", "DefaultServerGame"} {
		if v, ok := f.Last(SectionEngine, key); ok {
			pkg, _, _ := strings.Cut(v, ".")
			if g, ok := gameByPackage[strings.ToLower(pkg)]; ok {
				found[g] = true
			}
		}
	}
	for _, pkg := range f.EditPackages() {
		if g, ok := gameByPackage[strings.ToLower(pkg)]; ok {
			found[g] = true
		}
	}
	for _, g := range gameOrder {
		if found[g] {
			return g
		}
	}
	guess := Game{}
	sec := f.SystemSection(Game{})
	// "Paths+=" lines count: only a game that appends with them writes them.
	appended := f.Values(sec, "Paths+")
	for _, p := range append(f.Values(sec, "Paths"), appended...) {
		ext := strings.ToLower(filepath.Ext(strings.ReplaceAll(p, `\`, "/")))
		g, ok := gameByMapExt[ext]
		switch {
		case !ok:
		case g.Name != "ue1" && g.Name != "ue2":
			return g
		case guess.Generation == 0 || g.Generation == 2:
			guess = g // a UE2 extension outranks .unr
		}
	}
	if len(appended) > 0 {
		return SWRC // the one engine that reads Paths+= (see File.ForGame)
	}
	return guess
}
