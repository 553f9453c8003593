package ini

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/upkdeps/upkdeps/internal/testutil"
)

func TestReferences(t *testing.T) {
	text := `[Engine.Engine]
GameRenderDevice=OpenGLDrv.OpenGLRenderDevice
Console=None
GUIController=GUI2K4.UT2K4GUIController
DefaultGame=NoPackage
DefaultServerGame=Botpack.DeathMatchPlus
[URL]
Class=Botpack.TMale1
[Engine.GameEngine]
ServerPackages=SoldierSkins
ServerPackages=
ServerActors=IpServer.UdpServerUplink MasterServerAddress=unreal.epicgames.com MasterServerPort=27900
ServerActors[0]=UWeb.WebServer
[XC_Engine.XC_GameEngine]
ServerPackages=XCPack
[UWeb.WebServer]
Applications[0]=UTServerAdmin.UTServerAdmin
bEnabled=True
`
	f, err := Parse("Test.ini", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	render := func(refs []Reference) []string {
		var out []string
		for _, r := range refs {
			out = append(out, fmt.Sprintf("%d %s %s|%s %s", r.Line, r.Key, r.Package, r.Object, r.Load))
		}
		return out
	}
	want := []string{
		"2 GameRenderDevice OpenGLDrv|OpenGLRenderDevice client",
		"6 DefaultServerGame Botpack|DeathMatchPlus server",
		"8 Class Botpack|TMale1 both",
		"10 ServerPackages SoldierSkins| server",
		"12 ServerActors IpServer|UdpServerUplink server",
		"13 ServerActors[0] UWeb|WebServer server",
		"15 ServerPackages XCPack| server",
		"17 Applications[0] UTServerAdmin|UTServerAdmin server",
	}
	if have := render(f.References(1)); !slices.Equal(have, want) {
		t.Errorf("UE1:\nhave %q\nwant %q", have, want)
	}
	// UE2 adds GUIController; generation 0 takes every key.
	ue2 := render(f.References(2))
	if !slices.Contains(ue2, "4 GUIController GUI2K4|UT2K4GUIController client") || len(ue2) != len(want)+1 {
		t.Errorf("UE2: %q", ue2)
	}
	if refs := f.References(1); refs[4].Value != "IpServer.UdpServerUplink MasterServerAddress=unreal.epicgames.com MasterServerPort=27900" {
		t.Errorf("ServerActors keeps its parameters in Value: %+v", refs[4])
	}
	// The web admin is loaded only when the WebServer is enabled.
	off, err := Parse("Off.ini", []byte("[UWeb.WebServer]\nApplications[0]=UTServerAdmin.UTServerAdmin\nbEnabled=False\n"))
	if err != nil {
		t.Fatal(err)
	}
	if refs := off.References(1); len(refs) != 0 {
		t.Errorf("disabled web server: %+v", refs)
	}
}

// TestReferencesRenderUE1Only: Render= names UE1's renderer; UE2's Engine
// has no such member and UT2004.ini ships the line with no Render package,
// so only a UE1 engine (or an unknown one) makes it a root.
func TestReferencesRenderUE1Only(t *testing.T) {
	f := mustParse(t, "Default.ini", text("[Engine.Engine]", "Render=Render.Render", "Input=Engine.Input"))
	keys := func(gen int) []string {
		var out []string
		for _, r := range f.References(gen) {
			out = append(out, r.Key)
		}
		return out
	}
	checkStrings(t, "UE1", keys(1), []string{"Render", "Input"})
	checkStrings(t, "UE2", keys(2), []string{"Input"})
	checkStrings(t, "any", keys(0), []string{"Render", "Input"})
}

// TestCorpusReferencesRender reads the retail inis: UT99 v469's Default.ini
// keeps Render as a root, UT2004's Default.ini (which ships the dead line)
// does not.
func TestCorpusReferencesRender(t *testing.T) {
	root := testutil.Corpus(t)
	for _, c := range []struct {
		path string
		gen  int
		want bool
	}{
		{"OldUnreal__UnrealTournamentPatches/System/Default.ini", 1, true},
		{"IceOfWraith__UT2004/System/Default.ini", 2, false},
	} {
		f, err := Load(filepath.Join(root, c.path))
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := f.Last(SectionEngine, "Render"); !ok {
			t.Fatalf("%s: no Render line to test with", c.path)
		}
		have := slices.ContainsFunc(f.References(c.gen), func(r Reference) bool { return r.Key == "Render" })
		if have != c.want {
			t.Errorf("%s (UE%d): Render is a root: %v, want %v", c.path, c.gen, have, c.want)
		}
	}
}

// TestReferencesGameEngineSubclass: ServerPackages and ServerActors are
// roots from the section the engine reads them from: a game engine subclass
// (Deus Ex's) reads its own section only, the stock engine both
// [Engine.GameEngine] and [XC_Engine.XC_GameEngine].
func TestReferencesGameEngineSubclass(t *testing.T) {
	lines := func(f *File) []string {
		var out []string
		for _, r := range f.References(1) {
			if r.Key == "ServerActors" || r.Key == "ServerPackages" {
				out = append(out, r.Section+" "+r.Value)
			}
		}
		return out
	}
	body := []string{"[Engine.GameEngine]", "ServerPackages=Dead", "[XC_Engine.XC_GameEngine]", "ServerPackages=AlsoDead",
		"[DeusEx.DeusExGameEngine]", "ServerActors=IpDrv.UdpBeacon", "ServerPackages=Live"}
	dx := mustParse(t, "DeusEx.ini", text(append([]string{"[Engine.Engine]", "GameEngine=DeusEx.DeusExGameEngine"}, body...)...))
	checkStrings(t, "Deus Ex", lines(dx), []string{"DeusEx.DeusExGameEngine Live", "DeusEx.DeusExGameEngine IpDrv.UdpBeacon"})
	ut := mustParse(t, "UnrealTournament.ini", text(append([]string{"[Engine.Engine]", "GameEngine=Engine.GameEngine"}, body...)...))
	checkStrings(t, "UT99", lines(ut), []string{"Engine.GameEngine Dead", "XC_Engine.XC_GameEngine AlsoDead"})
}

// TestServerPackagesGameEngineSubclass: the list ServerPackages gives
// follows the same sections as the roots.
func TestServerPackagesGameEngineSubclass(t *testing.T) {
	f := mustParse(t, "DeusEx.ini", text("[Engine.Engine]", "GameEngine=DeusEx.DeusExGameEngine",
		"[Engine.GameEngine]", "ServerPackages=Dead", "[DeusEx.DeusExGameEngine]", "ServerPackages=Live", "ServerPackages=live"))
	checkStrings(t, "Deus Ex", f.ServerPackages(), []string{"Live"})
}

// TestReferencesGameEngineInherits: a game engine subclass whose own
// section lacks a key keeps [Engine.GameEngine]'s lines for it (SWAT 4's
// stock inis: GameEngine=SwatGame.SwatGameEngine, no section of that class,
// ServerPackages under [Engine.GameEngine]); per key, the subclass's
// section wins where it has the key.
func TestReferencesGameEngineInherits(t *testing.T) {
	lines := func(f *File) []string {
		var out []string
		for _, r := range f.References(2) {
			if r.Key == "ServerActors" || r.Key == "ServerPackages" || r.Key == "MainMenuClass" {
				out = append(out, fmt.Sprintf("%d %s %s", r.Line, r.Section, r.Value))
			}
		}
		return out
	}
	swat := mustParse(t, "Swat4.ini", text("[Engine.Engine]", "GameEngine=SwatGame.SwatGameEngine",
		"[Engine.GameEngine]", "ServerPackages=SwatGame", "ServerPackages=SwatGui", "MainMenuClass=SwatGui.Menu",
		"[XC_Engine.XC_GameEngine]", "ServerPackages=NotRead"))
	checkStrings(t, "SWAT 4", lines(swat), []string{"4 Engine.GameEngine SwatGame", "5 Engine.GameEngine SwatGui", "6 Engine.GameEngine SwatGui.Menu"})
	checkStrings(t, "SWAT 4 ServerPackages", swat.ServerPackages(), []string{"SwatGame", "SwatGui"})
	mixed := mustParse(t, "Sub.ini", text("[Engine.Engine]", "GameEngine=Sub.SubGameEngine",
		"[Engine.GameEngine]", "ServerPackages=Parent", "ServerActors=Parent.Actor",
		"[Sub.SubGameEngine]", "ServerPackages=Own"))
	checkStrings(t, "mixed", lines(mixed), []string{"7 Sub.SubGameEngine Own", "5 Engine.GameEngine Parent.Actor"})
}

// TestGameEngineSubclassCorpus: Deus Ex's stock ini (GameEngine=
// DeusEx.DeusExGameEngine, ServerActors in that section, no
// [Engine.GameEngine]) reads its ServerActors from its own section and
// has no misplaced line.
func TestGameEngineSubclassCorpus(t *testing.T) {
	corpus, ok := testutil.CorpusDir()
	if !ok {
		t.Skip("corpus not present")
	}
	f, err := Load(filepath.Join(corpus, "butterwagon69__NerdMod", "System", "DeusEx.ini"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range f.References(1) {
		if r.Key == "ServerActors" {
			n++
			if r.Section != "DeusEx.DeusExGameEngine" {
				t.Errorf("line %d: ServerActors from [%s]", r.Line, r.Section)
			}
		}
	}
	if n != 6 {
		t.Errorf("%d ServerActors roots, want 6", n)
	}
	for _, p := range f.ListProblems() {
		if p.Misplaced() {
			t.Errorf("misplaced: %+v", p)
		}
	}
}

// TestReferenceIs: a key is compared without its index or SWRC's append
// mark, in any case.
func TestReferenceIs(t *testing.T) {
	for _, c := range []struct {
		key  string
		want bool
	}{{"ServerActors", true}, {"serveractors[2]", true}, {"ServerActors+", true}, {"ServerActorsX", false}, {"ServerPackages", false}} {
		if got := (Reference{Key: c.key}).Is("ServerActors"); got != c.want {
			t.Errorf("%q: %v", c.key, got)
		}
	}
}
