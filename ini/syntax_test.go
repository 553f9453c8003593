package ini

import (
	"slices"
	"testing"
)

// swrcIni is a System.ini in the form of SWRC's: lists appended with "+=".
var swrcIni = text(
	"[Core.System]",
	"CachePath=../Cache",
	"Paths+=../System/*.u",
	"Paths +=../Maps/*.ctm",
	"Paths+=../Textures/*.utx",
	"[Editor.EditorEngine]",
	"EditPackages+=Core",
	"EditPackages+=Engine",
	"EditPackages=Editor",
	"EditPackages+=CTGame",
	"[Engine.GameEngine]",
	"ServerPackages+=CTGame",
	"ServerActors+=IpDrv.UdpBeacon",
)

// TestForGameAppends reads each key form of SWRC's System.ini as the engine
// does: every "Key+=" line is one more entry of Key, in file order with the
// repeated "Key=" lines.
func TestForGameAppends(t *testing.T) {
	raw := mustParse(t, "System.ini", swrcIni)
	if g := GuessGame(raw); g != SWRC {
		t.Fatalf("GuessGame: have %v, want swrc (System.ini)", g)
	}
	f := raw.ForGame(SWRC)
	sys := f.SystemFor(SWRC)
	checkStrings(t, "Paths", sys.Paths, []string{"../System/*.u", "../Maps/*.ctm", "../Textures/*.utx"})
	if sys.Section != "Core.System" || sys.CachePath != "../Cache" {
		t.Errorf("section %q CachePath %q", sys.Section, sys.CachePath)
	}
	checkStrings(t, "EditPackages", f.EditPackages(), []string{"Core", "Engine", "Editor", "CTGame"})
	checkStrings(t, "ServerPackages", f.ServerPackages(), []string{"CTGame"})
	checkStrings(t, "ServerActors", f.Values(SectionGameEngine, "ServerActors"), []string{"IpDrv.UdpBeacon"})

	es := f.Entries(SectionEditor, "EditPackages")
	var appends []bool
	for _, e := range es {
		appends = append(appends, e.Append)
	}
	if !slices.Equal(appends, []bool{true, true, false, true}) || es[0].Key != "EditPackages+" || es[0].Line != 7 {
		t.Errorf("EditPackages entries: %+v", es)
	}
	if f.HasKey(SectionSystem, "Paths+") {
		t.Errorf("Paths+ is still a key of its own after ForGame(swrc)")
	}

	// Parse and the other engines: "Paths+" is a key no setting has.
	for _, g := range []Game{{}, UT2004, UE2} {
		o := raw.ForGame(g)
		if o != raw {
			t.Errorf("ForGame(%v) made a copy", g)
		}
		if p := o.SystemFor(g).Paths; p != nil {
			t.Errorf("ForGame(%v): Paths %q, want none", g, p)
		}
		checkStrings(t, "EditPackages "+g.String(), o.EditPackages(), []string{"Editor"})
	}
	// ForGame does not change the file it was given.
	if !raw.HasKey(SectionSystem, "Paths+") || len(raw.Values(SectionSystem, "Paths")) != 0 {
		t.Errorf("ForGame changed its receiver")
	}
	lines := raw.AppendLines()
	if len(lines) != 8 || lines[0].Section != "Core.System" || lines[0].Key != "Paths+" || lines[0].Line != 3 || lines[7].Key != "ServerActors+" {
		t.Errorf("AppendLines: %+v", lines)
	}
}

// TestForGameAppendsWithIndex: an append after indexed entries comes after
// them, as a repeated key does.
func TestForGameAppendsWithIndex(t *testing.T) {
	f := mustParse(t, "System.ini", text("[Core.System]", "Paths+=../C/*.u", "Paths[1]=../B/*.u", "Paths[0]=../A/*.u")).ForGame(SWRC)
	checkStrings(t, "Paths", f.Values(SectionSystem, "Paths"), []string{"../A/*.u", "../B/*.u", "../C/*.u"})
}

func TestGuessGameFromAppendedPaths(t *testing.T) {
	for _, tt := range []struct {
		name string
		ini  []byte
		want Game
	}{
		{"ctm", text("[Core.System]", "Paths+=../System/*.u", "Paths+=../Maps/*.ctm"), SWRC},
		{"Paths+= and a UE2 extension", text("[Core.System]", "Paths+=../System/*.u", "Paths+=../StaticMeshes/*.usx"), SWRC},
		{"Paths+= after UT99's packages", text("[Core.System]", "Paths+=../System/*.u", "[Editor.EditorEngine]", "EditPackages=Botpack"), UT99},
		{"no Paths+=", text("[Core.System]", "Paths=../System/*.u", "Paths=../StaticMeshes/*.usx", "Other+=x"), UE2},
	} {
		if g := GuessGame(mustParse(t, "Game.ini", tt.ini)); g != tt.want {
			t.Errorf("%s: GuessGame: have %v, want %v", tt.name, g, tt.want)
		}
	}
}

func TestAppendBase(t *testing.T) {
	for _, tt := range []struct {
		key, base string
		ok        bool
	}{
		{"paths+", "paths", true}, {"paths +", "paths", true}, {"+", "", false},
		{"paths", "", false}, {"paths++", "", false}, {"paths[0]+", "", false},
	} {
		if base, ok := appendBase(tt.key); base != tt.base || ok != tt.ok {
			t.Errorf("appendBase(%q): have %q %v, want %q %v", tt.key, base, ok, tt.base, tt.ok)
		}
	}
}
