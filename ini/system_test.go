package ini

import (
	"slices"
	"strings"
	"testing"
)

func TestSystemSection(t *testing.T) {
	for _, tt := range []struct {
		name    string
		game    Game
		ini     []byte
		section string
		paths   []string
		cache   string
	}{
		{"core", Game{}, text("[Core.System]", "Paths=../System/*.u", "CachePath=../Cache"),
			"Core.System", []string{"../System/*.u"}, "../Cache"},
		{"licensee engine.system", Game{}, text("[Engine.Engine]", "Language=int", "[Engine.System]", "Paths=../System/*.u", "Paths=../Maps/*.dnf", "CachePath=../Cache"),
			"Engine.System", []string{"../System/*.u", "../Maps/*.dnf"}, "../Cache"},
		{"spelled as in the file", Game{}, text("[engine.SYSTEM]", "Paths=*.u"),
			"engine.SYSTEM", []string{"*.u"}, ""},
		{"both: core preferred", Game{}, text("[Engine.System]", "Paths=../A/*.u", "[Core.System]", "Paths=../B/*.u"),
			"Core.System", []string{"../B/*.u"}, ""},
		{"several others: the first", Game{}, text("[Game.System]", "Paths=../A/*.u", "[Engine.System]", "Paths=../B/*.u"),
			"Game.System", []string{"../A/*.u"}, ""},
		{"cache only", Game{}, text("[Engine.System]", "CachePath=../Cache"),
			"Engine.System", nil, "../Cache"},
		{"none", Game{}, text("[Engine.Engine]", "Language=int"), "Core.System", nil, ""},
		{"profile section wins", UT99, text("[Engine.System]", "Paths=../A/*.u", "[Core.System]", "Paths=../B/*.u"),
			"Core.System", []string{"../B/*.u"}, ""},
		{"profile section without paths", UT99, text("[Core.System]", "CachePath=../Cache", "[Engine.System]", "Paths=../A/*.u"),
			"Engine.System", []string{"../A/*.u"}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := mustParse(t, "Game.ini", tt.ini)
			sys := f.SystemFor(tt.game)
			if sys.Section != tt.section || sys.CachePath != tt.cache {
				t.Errorf("section %q cache %q, want %q %q", sys.Section, sys.CachePath, tt.section, tt.cache)
			}
			checkStrings(t, "Paths", sys.Paths, tt.paths)
		})
	}
}

func TestGuessGameLicenseeSection(t *testing.T) {
	f := mustParse(t, "Game.ini", text("[Engine.System]", "Paths=../System/*.u", "Paths=../Maps/*.rsm"))
	if g := GuessGame(f); g != RavenShield {
		t.Errorf("GuessGame: have %v, want r6rs (from .rsm in [Engine.System])", g)
	}
	if sys := f.System(); sys.Section != "Engine.System" || len(sys.Paths) != 2 {
		t.Errorf("System: %+v", sys)
	}
}

func TestProfiles(t *testing.T) {
	known := make(map[string]bool)
	for _, n := range KnownNames {
		known[strings.ToLower(n)] = true
	}
	seen := make(map[Game]bool)
	for _, p := range Profiles {
		if seen[p.Game] {
			t.Errorf("%s: two profiles", p.Game)
		}
		seen[p.Game] = true
		if p.SystemSection == "" || p.Source == "" || p.Title == "" {
			t.Errorf("%s: profile incomplete: %+v", p.Game, p)
		}
		for _, n := range p.Inis {
			if !known[strings.ToLower(n)] {
				t.Errorf("%s: ini %s is not in KnownNames", p.Game, n)
			}
			if g := GuessGame(mustParse(t, n, text("[Core.System]"))); g != p.Game {
				t.Errorf("GuessGame(%s) = %v, want %v", n, g, p.Game)
			}
		}
		for _, e := range p.Exts {
			if !strings.HasPrefix(e, ".") {
				t.Errorf("%s: extension %q without a dot", p.Game, e)
			}
		}
		if g, err := ParseGame(p.Game.Name); err != nil || g != p.Game {
			t.Errorf("ParseGame(%q) = %v, %v", p.Game.Name, g, err)
		}
	}
	for _, g := range Games {
		if g.Profile() == nil {
			t.Errorf("%s has no profile", g)
		}
	}
	if (Game{}).Profile() != nil {
		t.Error("the zero Game has a profile")
	}
}

func TestAtoiClamps(t *testing.T) {
	for in, want := range map[string]int{"99999999999": 1<<31 - 1, "-99999999999": -1 << 31, " 42x": 42, "": 0} {
		if have := atoi(in); have != want {
			t.Errorf("atoi(%q) = %d, want %d", in, have, want)
		}
	}
}

// TestProfileKinds: every profile's extensions are package files, its map
// extension is one of them and a map in any case, and a Paths line of it
// tells the game's engine generation.
func TestProfileKinds(t *testing.T) {
	for _, p := range Profiles {
		if p.Map == "" {
			if len(p.Exts) > 0 {
				t.Errorf("%s: extensions but no map extension", p.Game)
			}
			continue
		}
		if !slices.Contains(p.Exts, p.Map) {
			t.Errorf("%s: map extension %s not in %v", p.Game, p.Map, p.Exts)
		}
		for _, e := range p.Exts {
			if !IsPackageExt(e) || !IsPackageExt(strings.ToUpper(e)) {
				t.Errorf("%s: %s is not a package extension", p.Game, e)
			}
			if want := e == p.Map; (KindOf("X"+e) == KindMap) != want {
				t.Errorf("%s: KindOf(X%s) = %s", p.Game, e, KindOf("X"+e))
			}
		}
		if k := KindOf(`..\Maps\DM-X` + strings.ToUpper(p.Map)); k != KindMap {
			t.Errorf("%s: KindOf(DM-X%s) = %s, want map", p.Game, strings.ToUpper(p.Map), k)
		}
		f := mustParse(t, "Default.ini", text("[Core.System]", "Paths=../Maps/*"+p.Map))
		if g := GuessGame(f); g.Generation != p.Game.Generation {
			t.Errorf("%s: GuessGame(Paths=*%s) = %v, want generation %d", p.Game, p.Map, g, p.Game.Generation)
		}
	}
	for ext, want := range map[string]bool{".ogg": false, ".txt": false, "": false, ".u": true, ".UNR": true} {
		if have := IsPackageExt(ext); have != want {
			t.Errorf("IsPackageExt(%q) = %v, want %v", ext, have, want)
		}
	}
}

// TestMapExts: [URL] MapExt names the game's maps, before the profile's
// map extension (the default); a value that is no extension is left out.
func TestMapExts(t *testing.T) {
	for _, tc := range []struct {
		text string
		game Game
		want []string
	}{
		{"[URL]\nMapExt=xyz\n", UT99, []string{".xyz", ".unr"}},
		{"[URL]\nMapExt=UNR\n", UT99, []string{".unr"}},
		{"[URL]\nMapExt=.dx\n", UE1, []string{".dx"}},
		{"[Engine.Engine]\n", UT2004, []string{".ut2"}},
		{"[URL]\nMapExt=../x\n", UE1, nil},
	} {
		f, err := Parse("Game.ini", []byte(tc.text))
		if err != nil {
			t.Fatal(err)
		}
		if have := f.MapExts(tc.game); !slices.Equal(have, tc.want) {
			t.Errorf("%q (%s): have %q, want %q", tc.text, tc.game, have, tc.want)
		}
	}
}
