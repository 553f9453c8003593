package ini

import (
	"strings"
)

// Where the engine loads what an ini line names.
const (
	LoadServer = "server" // a dedicated server loads it (and so does a listen server)
	LoadClient = "client" // only the game client loads it (rendering, sound, menus)
	LoadBoth   = "both"   // server and client load it
)

// Reference is one ini line that makes the engine load a package, or a
// class of a package, by name: a root of the install's dependency graph.
type Reference struct {
	Section string // as in refKeys, e.g. "Engine.Engine"
	Key     string // as spelled in the file, e.g. "ServerActors" or "Applications[0]"
	Value   string // the whole value as written (ServerActors may carry parameters)
	Line    int    // 1-based line in the ini
	Package string // the package the engine loads
	Object  string // the class path below Package ("" when the line names a package)
	Load    string // LoadServer, LoadClient or LoadBoth
}

// Is reports whether the line's key, without an index or an append mark
// ("ServerActors[2]", SWRC's "ServerActors+"), is key (any case).
func (r Reference) Is(key string) bool {
	k, _, _ := strings.Cut(strings.TrimSuffix(r.Key, "+"), "[")
	return strings.EqualFold(k, key)
}

// refKey is one kind of ini line that names something the engine loads.
type refKey struct {
	section, key string
	class        bool   // the value is Pkg.Class (else a package name)
	load         string // who loads it
	gen          int    // 0: every generation; 1 or 2: only that one
	// enabledBy, when set, is a boolean key of the same section that must
	// be true for the engine to load the value.
	enabledBy string
}

// refKeys are the lines the engine resolves by name when it starts: the
// game engine's devices and classes in [Engine.Engine], read with
// GetClass/LoadClass at startup by UGameEngine::Init (UE1 and UE2
// Default.ini, UnrealTournament.ini and UT2004.ini ship them); the
// ServerPackages and ServerActors of [Engine.GameEngine] (UGameEngine loads
// every ServerPackages entry for clients and spawns every ServerActors
// class on a server), and the same keys of XC_Engine's replacement game
// engine; the default player class of [URL]; UT2004's menu classes in
// [Engine.GameEngine]; and the web admin applications of [UWeb.WebServer],
// which the WebServer actor loads only when bEnabled is true.
// EditPackages are handled by the EditPackages checks (order, sources).
//
// A row limited to one generation (gen) says why: a key only one engine
// generation reads is dead text in the other's ini, and a root made of it
// would report a package nobody loads.
var refKeys = []refKey{
	// Every generation: both engines' UEngine reads the device, console,
	// input and canvas classes at startup (UT99 and UT2004 Default.ini ship them).
	{section: SectionEngine, key: "GameRenderDevice", class: true, load: LoadClient},
	{section: SectionEngine, key: "WindowedRenderDevice", class: true, load: LoadClient},
	{section: SectionEngine, key: "RenderDevice", class: true, load: LoadClient},
	{section: SectionEngine, key: "AudioDevice", class: true, load: LoadClient},
	{section: SectionEngine, key: "Console", class: true, load: LoadClient},
	{section: SectionEngine, key: "ViewportManager", class: true, load: LoadClient},
	// UE1 only: UE1's Engine class holds the renderer it makes from this
	// class (Engine.uc "var const renderbase Render"); UE2's Engine class has
	// no Render member (it renders through GRenDev, the RenderDevice), and
	// retail UT2004.ini still ships Render=Render.Render with no Render
	// package or binary in the game: the line is dead there.
	{section: SectionEngine, key: "Render", class: true, load: LoadClient, gen: 1},
	{section: SectionEngine, key: "Input", class: true, load: LoadClient},
	{section: SectionEngine, key: "Canvas", class: true, load: LoadClient},
	// UE2 only: the GUI controller (UT2004's XInterface/GUI2K4 menus) came
	// with UE2's Interaction system; no UE1 engine reads it.
	{section: SectionEngine, key: "GUIController", class: true, load: LoadClient, gen: 2},
	// Every generation: the network and demo drivers, the game engine and the
	// default game classes are loaded by server and client in UE1 and UE2.
	{section: SectionEngine, key: "NetworkDevice", class: true, load: LoadBoth},
	{section: SectionEngine, key: "DemoRecordingDevice", class: true, load: LoadBoth},
	{section: SectionEngine, key: "GameEngine", class: true, load: LoadBoth},
	{section: SectionEngine, key: "DefaultGame", class: true, load: LoadBoth},
	{section: SectionEngine, key: "DefaultServerGame", class: true, load: LoadServer},
	{section: "URL", key: "Class", class: true, load: LoadBoth},
	// Every generation: UGameEngine's ServerPackages and ServerActors (UE1
	// and UE2), and XC_Engine's copy of them (a UE1 mod; a UE2 ini has no
	// such section, so the rows cost nothing there).
	{section: SectionGameEngine, key: "ServerPackages", load: LoadServer},
	{section: SectionGameEngine, key: "ServerActors", class: true, load: LoadServer},
	{section: SectionXCGameEngine, key: "ServerPackages", load: LoadServer},
	{section: SectionXCGameEngine, key: "ServerActors", class: true, load: LoadServer},
	// UE2 only: the menu classes UT2004's UGameEngine opens by name; UE1's
	// menus are the console's (UWindow), named by Console above.
	{section: SectionGameEngine, key: "MainMenuClass", class: true, load: LoadClient, gen: 2},
	{section: SectionGameEngine, key: "InitialMenuClass", class: true, load: LoadClient, gen: 2},
	{section: SectionGameEngine, key: "ConnectingMenuClass", class: true, load: LoadClient, gen: 2},
	{section: SectionGameEngine, key: "DisconnectMenuClass", class: true, load: LoadClient, gen: 2},
	{section: SectionGameEngine, key: "LoadingClass", class: true, load: LoadClient, gen: 2},
	// Every generation: UT99's and UT2004's WebServer actor loads its
	// applications when enabled.
	{section: "UWeb.WebServer", key: "Applications", class: true, load: LoadServer, enabledBy: "bEnabled"},
}

// References returns the lines of f that make the engine load a package or
// a class by name, for an engine of the given generation (0: any), in the
// order of refKeys and then of the file. Empty values and "None" are
// skipped; a class value without a package ("Foo" rather than "Pkg.Foo") is
// skipped too, since the engine cannot load it by that name either.
// ServerActors values keep their parameters in Value; Package and Object
// come from the first word.
func (f *File) References(generation int) []Reference {
	var out []Reference
	for _, k := range refKeys {
		if k.gen != 0 && generation != 0 && k.gen != generation {
			continue
		}
		if k.enabledBy != "" {
			v, ok := f.Last(k.section, k.enabledBy)
			if !ok || !parseBool(v) {
				continue
			}
		}
		for _, e := range f.refEntries(k.section, k.key) {
			word, _, _ := strings.Cut(strings.TrimSpace(e.Value), " ")
			word = strings.TrimSpace(strings.Trim(word, "\t"))
			if word == "" || strings.EqualFold(word, "None") {
				continue
			}
			r := Reference{Section: e.section, Key: e.Key, Value: e.Value, Line: e.Line, Load: k.load}
			if k.class {
				pkg, obj, ok := strings.Cut(word, ".")
				if !ok || pkg == "" || obj == "" {
					continue
				}
				r.Package, r.Object = pkg, obj
			} else {
				r.Package = word
			}
			out = append(out, r)
		}
	}
	return out
}

// sectionEntry is an entry with the section it was read from.
type sectionEntry struct {
	Entry
	section string
}

// refEntries returns the entries of key in section, where the game
// engine's sections are those the engine reads for the key
// (gameEngineSectionsFor, as ini_section's check says): a game engine
// subclass such as Deus Ex's DeusEx.DeusExGameEngine reads the key from its
// own section when that has it, else from [Engine.GameEngine], and never
// from [XC_Engine.XC_GameEngine].
func (f *File) refEntries(section, key string) []sectionEntry {
	secs := []string{section}
	if strings.EqualFold(section, SectionGameEngine) || strings.EqualFold(section, SectionXCGameEngine) {
		if gameEngineSubclass(f) != "" {
			secs = nil
			if strings.EqualFold(section, SectionGameEngine) {
				secs = gameEngineSectionsFor(f, key)
			}
		}
	}
	var out []sectionEntry
	for _, sec := range secs {
		for _, e := range f.Entries(sec, key) {
			out = append(out, sectionEntry{e, sec})
		}
	}
	return out
}
