package ini

import (
	"strings"
	"testing"
)

func TestParseGame(t *testing.T) {
	tests := []struct {
		in   string
		want Game
	}{
		{"ut99", UT99}, {"UT", UT99}, {" ut469 ", UT99},
		{"unreal", Unreal}, {"deusex", DeusEx}, {"DX", DeusEx}, {"rune", Rune},
		{"ut2003", UT2003}, {"ut2004", UT2004}, {"UT2k4", UT2004},
		{"kf", KillingFloor}, {"KillingFloor", KillingFloor}, {"swat4", Swat4},
		{"ue1", UE1}, {"ue2", UE2},
	}
	for _, tt := range tests {
		have, err := ParseGame(tt.in)
		if err != nil || have != tt.want {
			t.Errorf("ParseGame(%q): have %v, %v; want %v", tt.in, have, err, tt.want)
		}
	}
	for _, g := range Games {
		if have, err := ParseGame(g.Name); err != nil || have != g {
			t.Errorf("ParseGame(%q): have %v, %v", g.Name, have, err)
		}
	}
	_, err := ParseGame("quake")
	if err == nil || !strings.Contains(err.Error(), `unknown game "quake"`) || !strings.Contains(err.Error(), "ut2004") {
		t.Errorf("ParseGame(quake): have %v, want an error listing the games", err)
	}
}

func TestGameString(t *testing.T) {
	if UT2004.String() != "ut2004" || (Game{}).String() != "unknown" || (Game{}).Known() || !UE1.Known() {
		t.Errorf("Game.String/Known wrong")
	}
}

func TestGuessGame(t *testing.T) {
	tests := []struct {
		name string
		path string
		ini  []byte
		want Game
	}{
		{"UT99 by name", "System/UnrealTournament.ini", nil, UT99},
		{"UT2004 by name", "UT2004.ini", nil, UT2004},
		{"name ignores case", "System/DEUSEX.INI", nil, DeusEx},
		{"SWAT 4 expansion server", "Swat4XDedicatedServer.ini", nil, Swat4},
		{"Rune server", "RuneServer.ini", nil, Rune},
		{"Product", "Default.ini", text("[Engine.Engine]", "Product=UT2004", "DefaultGame=XGame.xDeathMatch"), UT2004},
		{"DefaultGame Botpack", "ut.ini", text("[Engine.Engine]", "DefaultGame=Botpack.CTFGame"), UT99},
		{"GameEngine DeusEx", "Default.ini", text("[Engine.Engine]", "GameEngine=DeusEx.DeusExGameEngine"), DeusEx},
		{"Unreal", "Default.ini", text("[Engine.Engine]", "DefaultGame=UnrealShare.SinglePlayer"), Unreal},
		{"UT ships UnrealShare too", "Default.ini", text("[Editor.EditorEngine]", "EditPackages=UnrealShare", "EditPackages=Botpack"), UT99},
		{"UT2004 packages beat XGame", "Default.ini", text("[Editor.EditorEngine]", "EditPackages=XGame", "EditPackages=Onslaught"), UT2004},
		{"XGame alone is UT2003", "Default.ini", text("[Editor.EditorEngine]", "EditPackages=XGame"), UT2003},
		{"Killing Floor", "Default.ini", text("[Engine.Engine]", "DefaultGame=KFMod.KFGameType"), KillingFloor},
		{"UE2 map extension", "make.ini", text("[Core.System]", "Paths=../System/*.u", "Paths=../StaticMeshes/*.usx"), UE2},
		{"UE1 map extension", "make.ini", text("[Core.System]", `Paths=..\Maps\*.unr`), UE1},
		{"UE2 outranks .unr", "make.ini", text("[Core.System]", "Paths=../Maps/*.unr", "Paths=../Maps/*.ut2"), UE2},
		{"Deus Ex maps", "Custom.ini", text("[Core.System]", `Paths=..\Maps\*.dx`), DeusEx},
		{"SWAT 4 maps", "Custom.ini", text("[Core.System]", "Paths=*.u", "Paths=../Content/Maps/*.s4m"), Swat4},
		{"nothing tells", "LGDUtilities.ini", text("[LGDUtilities]", `PackageVersion="1.0.0"`), Game{}},
		{"empty", "Detected.ini", nil, Game{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if have := GuessGame(mustParse(t, tt.path, tt.ini)); have != tt.want {
				t.Errorf("GuessGame: have %v, want %v", have, tt.want)
			}
		})
	}
}
