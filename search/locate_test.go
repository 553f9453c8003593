package search

import (
	"strings"
	"testing"
)

// TestLocate: Locate gives what Find gives but the explanation, for every
// name the installs hold in several spellings and for missing, blank and
// folder-holding names, under Windows and Linux rules, a localized
// language and a Paths prefix; a found plain name costs two allocations
// (the file's path and its relative path), a missing one none.
func TestLocate(t *testing.T) {
	in := newInstall(t)
	in.files("System/Core.u", "System/Engine.u", "System/Core.det_u", "System/Core.dll", "System/Loose",
		"Textures/Walls.Dtx", "Textures/Doors.dtx", "Textures/doors.dtx", "Textures/Floor.utx", "Textures/Floor.UTX",
		"Maps/Sub/DM-A.unr", "Maps/DM-B.unr", "Maps/dm-b.unr", "Pre/xEffects.u", "Music/Ünï.umx")
	cfg := in.ini("System/Game.ini", "[Engine.Engine]\nLanguage=det\n[Core.System]\nPaths=../System/*.u\n"+
		"Paths=../textures/*.dtx\nPaths=../Textures/*.utx\nPaths=../Maps/*.unr\nPaths=../Pre/x*.u\nPaths=../Music/*.umx\nPaths=../Music\n")
	names := []string{"Core", "Engine", "Loose", "Walls", "Doors", "Floor", "DM-A", "DM-B", "Effects", "Ünï", "xEffects",
		"Missing", "Core.u", "Walls.Dtx", "Floor.utx", "Sub/DM-A", "../Maps/Sub/DM-A.unr", `..\Maps\DM-B.unr`, "", " ", ".", "..", "a\x00b"}
	for _, n := range append([]string(nil), names...) {
		names = append(names, strings.ToLower(n), strings.ToUpper(n))
	}
	for _, platform := range []Platform{Windows, Linux} {
		s := in.searcher(cfg, Options{Platform: platform})
		for _, n := range names {
			want := s.Find(n)
			want.Tried, want.Shadowed, want.Warnings = nil, nil, nil
			if got := s.Locate(n); !equalResult(got, want) {
				t.Errorf("%s: Locate(%q) = %+v, want %+v", platform, n, got, want)
			}
		}
		if raceEnabled {
			continue
		}
		for n, allocs := range map[string]float64{"Core": 2, "floor": 2, "Missing": 0} {
			if got := testing.AllocsPerRun(50, func() { s.Locate(n) }); got != allocs {
				t.Errorf("%s: Locate(%q): %v allocations, want %v", platform, n, got, allocs)
			}
		}
	}
}

func equalResult(a, b Result) bool {
	return a.Name == b.Name && a.File == b.File && a.Rel == b.Rel && a.Step == b.Step && a.PathIndex == b.PathIndex &&
		a.CaseMismatch == b.CaseMismatch && a.Tried == nil && a.Shadowed == nil && a.Warnings == nil
}

// TestCorpusLocate: on the corpus installs Locate gives what Find gives for
// every package name in three spellings, on both platforms' rules.
func TestCorpusLocate(t *testing.T) {
	for _, rel := range []string{"adrak0__ut99/System/UnrealTournament.ini", "nrempel__ut-server/System/UnrealTournament.ini",
		"OldUnreal__UnrealTournamentPatches/System/Default.ini"} {
		for _, platform := range []Platform{Windows, Linux} {
			s := corpusSearcher(t, rel, Options{Platform: platform})
			n := 0
			for _, c := range s.Packages() {
				for _, name := range []string{c.Name, strings.ToLower(c.Name), strings.ToUpper(c.Name), c.Name + "x"} {
					want := s.Find(name)
					want.Tried, want.Shadowed, want.Warnings = nil, nil, nil
					if got := s.Locate(name); !equalResult(got, want) {
						t.Errorf("%s (%s): Locate(%q) = %+v, want %+v", rel, platform, name, got, want)
					}
					n++
				}
			}
			if n == 0 {
				t.Errorf("%s: no packages", rel)
			}
		}
	}
}
