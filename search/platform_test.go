package search

import (
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/internal/testutil"
)

func TestDetectPlatform(t *testing.T) {
	for _, tt := range []struct {
		files []string
		want  Platform
		why   string
	}{
		{[]string{"Core.dll", "UnrealTournament.exe"}, Windows, "Windows binaries (Core.dll)"},
		{[]string{"Core.so"}, Linux, "Linux binaries (Core.so)"},
		{[]string{"ucc-bin"}, Linux, "Linux binaries (ucc-bin)"},
		{[]string{"Core.DLL", "Engine.so"}, Linux, "both Windows (Core.DLL) and Linux (Engine.so) binaries"},
		{[]string{"Core.u"}, Windows, "no binaries"},
		// A Linux server whose only .dll is a mod's: Linux, not both.
		{[]string{"Core.so", "Engine.so", "MyMod.dll", "ucc-bin"}, Linux, "Linux binaries (Core.so); the .dll files (MyMod.dll) are no engine's"},
		{[]string{"MyMod.dll"}, Windows, "Windows binaries (MyMod.dll)"},
		{[]string{"AMod.dll", "Core.dll", "Core.so"}, Linux, "both Windows (Core.dll) and Linux (Core.so) binaries"},
	} {
		in := newInstall(t)
		in.dir("System")
		for _, f := range tt.files {
			in.files("System/" + f)
		}
		in.dir("System/Sub.dll") // a folder is not a binary
		have := DetectPlatform(nil, in.path("System"))
		if have.Platform != tt.want || !strings.Contains(have.Reason, tt.why) || have.Ambiguous() != strings.HasPrefix(tt.why, "both") {
			t.Errorf("%q: have %+v, want %s (%s)", tt.files, have, tt.want, tt.why)
		}
	}
}

func TestParsePlatform(t *testing.T) {
	for in, want := range map[string]Platform{"": "", "Windows": Windows, "win32": Windows, " linux ": Linux, "unix": Linux} {
		if have, err := ParsePlatform(in); have != want || err != nil {
			t.Errorf("ParsePlatform(%q): have %q, %v; want %q", in, have, err, want)
		}
	}
	if _, err := ParsePlatform("macos"); err == nil || !strings.Contains(err.Error(), "windows or linux") {
		t.Errorf("ParsePlatform(macos): have %v", err)
	}
}

// caseIni names folders and an extension in another case than the disk:
// ..\Dev is dev, ..\Cache is cache, *.dtx files are .Dtx.
const caseIni = `[Core.System]
CachePath=..\Cache
Paths=..\Dev\*.u
Paths=..\Textures\*.dtx
`

// caseInstall writes an install whose ini and disk differ in case, with
// the binary that tells its platform.
func caseInstall(t *testing.T, binary string) *install {
	in := newInstall(t)
	in.files("dev/Core.u", "dev/Engine.u", "Textures/Walls.Dtx", "Textures/Doors.Dtx", "Textures/Floor.dtx", "cache/cache.ini", "System/"+binary)
	in.ini("System/Game.ini", caseIni)
	return in
}

// TestWindowsRules: a Windows install (a .dll) whose Paths folder differs
// in case from the disk is searched fully, with one note per folder and
// extension; the same install with .so binaries finds what a Linux server
// finds and says what it misses; Options.Platform overrides both.
func TestWindowsRules(t *testing.T) {
	for _, tt := range []struct {
		name     string
		binary   string
		platform Platform
		want     Platform
	}{
		{"dll", "Core.dll", "", Windows},
		{"so", "Core.so", "", Linux},
		{"dll, linux given", "Core.dll", Linux, Linux},
		{"so, windows given", "Core.so", Windows, Windows},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := caseInstall(t, tt.binary)
			s := in.searcher(in.load("System/Game.ini"), Options{Platform: tt.platform})
			if p := s.Platform(); p.Platform != tt.want || p.Given != (tt.platform != "") || p.Reason == "" {
				t.Fatalf("platform %+v, want %s", p, tt.want)
			}
			win := tt.want == Windows
			core, walls, floor := s.Find("Core"), s.Find("Walls"), s.Find("Floor")
			if win {
				check(t, "Core", core, want{rel: "dev/Core.u", step: StepPaths, index: 0})
				check(t, "Walls", walls, want{rel: "Textures/Walls.Dtx", step: StepPaths, index: 1})
				if len(s.Packages()) != 5 || len(s.MissingPaths()) != 0 || s.CacheDir() != in.path("cache") {
					t.Errorf("packages %d, missing paths %v, cache %q", len(s.Packages()), s.MissingPaths(), s.CacheDir())
				}
			} else {
				check(t, "Core", core, want{index: -1})
				check(t, "Walls", walls, want{rel: "Textures/Walls.Dtx", step: StepCaseInsensitive, index: 1, mismatch: true,
					warn: "case mismatch"})
				if len(s.Packages()) != 3 || len(s.MissingPaths()) != 1 || s.CacheDir() != in.path("Cache") {
					t.Errorf("packages %d, missing paths %v, cache %q", len(s.Packages()), s.MissingPaths(), s.CacheDir())
				}
			}
			check(t, "Floor", floor, want{rel: "Textures/Floor.dtx", step: StepPaths, index: 1})

			notes := s.CaseNotes()
			if len(notes) != 3 {
				t.Fatalf("notes: %+v, want 3", notes)
			}
			dev, dtx, cache := notes[0], notes[1], notes[2]
			if dev.Index != 0 || dtx.Index != 1 || cache.Index != -1 {
				t.Errorf("note indexes %d %d %d, want 0 1 -1", dev.Index, dtx.Index, cache.Index)
			}
			if dev.Setting != "Paths[0]" || dev.Kind != CaseFolder || dev.Want != "Dev" || dev.Have != "dev" ||
				!strings.Contains(dev.Message, `write Paths[0]=..\dev\*.u`) {
				t.Errorf("Dev note: %+v", dev)
			}
			if dtx.Setting != "Paths[1]" || dtx.Kind != CaseExtension || dtx.Have != ".Dtx" || dtx.Count != 2 ||
				strings.Join(dtx.Files, " ") != "Doors.Dtx Walls.Dtx" || !strings.Contains(dtx.Message, `write Paths[1]=..\Textures\*.Dtx`) {
				t.Errorf("Dtx note: %+v", dtx)
			}
			if cache.Setting != "CachePath" || cache.Have != "cache" || !strings.Contains(cache.Message, `write CachePath=..\cache`) {
				t.Errorf("cache note: %+v", cache)
			}
			if win != strings.Contains(dev.Message, "a Linux server would not") {
				t.Errorf("Dev note under %s rules: %s", tt.want, dev.Message)
			}
		})
	}
}

// TestWindowsRulesNames: under Windows rules a name with folders resolves
// them ignoring case; a name differing in case is still the engine's
// case-insensitive pass (a case mismatch), not an extension's.
func TestWindowsRulesNames(t *testing.T) {
	in := newInstall(t)
	in.files("Maps/Sub/DM-A.unr", "System/Core.u", "System/Core.dll")
	s := in.searcher(in.ini("System/Game.ini", "[Core.System]\nPaths=../System/*.u\nPaths=../Maps/*.unr\n"), Options{})
	check(t, "../maps/sub/DM-A.unr", s.Find("../maps/sub/DM-A.unr"), want{rel: "Maps/Sub/DM-A.unr", step: StepAsGiven, index: -1})
	check(t, "core", s.Find("core"), want{rel: "System/Core.u", step: StepCaseInsensitive, index: 0, mismatch: true, warn: "case mismatch"})
	if n := s.CaseNotes(); len(n) != 0 {
		t.Errorf("notes %+v, want none", n)
	}
	s = in.searcher(in.load("System/Game.ini"), Options{Platform: Linux})
	check(t, "../maps/sub/DM-A.unr (linux)", s.Find("../maps/sub/DM-A.unr"), want{index: -1})
	if _, err := New(in.load("System/Game.ini"), Options{Platform: "macos"}); err == nil {
		t.Error("New with platform macos: no error")
	}
}

func TestReplaceSegment(t *testing.T) {
	for _, tt := range [][4]string{
		{`..\Dev\*.u`, "Dev", "dev", `..\dev\*.u`},
		{`../A/Dev/*.u`, "Dev", "dev", `../A/dev/*.u`},
		{`..\Devices\*.u`, "Dev", "dev", `..\Devices\*.u`},
		{`Dev`, "Dev", "dev", `dev`},
	} {
		if have := replaceSegment(tt[0], tt[1], tt[2]); have != tt[3] {
			t.Errorf("replaceSegment(%q, %q, %q): have %q, want %q", tt[0], tt[1], tt[2], have, tt[3])
		}
	}
}

// TestCorpusPlatforms tells the platform of the corpus's System folders
// from their real binaries.
func TestCorpusPlatforms(t *testing.T) {
	for _, tt := range []struct {
		dir       string
		want      Platform
		ambiguous bool
	}{
		{"OldUnreal__UnrealTournamentPatches/System", Linux, true}, // 469 patch: PE32 .dll and ELF .so
		{"nrempel__ut-server/System", Linux, false},                // a Linux server
		{"IceOfWraith__UT2004/System", Windows, false},             // a Windows dedicated server
	} {
		p := DetectPlatform(nil, testutil.CorpusFile(t, tt.dir))
		if p.Platform != tt.want || p.Ambiguous() != tt.ambiguous {
			t.Errorf("%s: have %+v, want %s (ambiguous %v)", tt.dir, p, tt.want, tt.ambiguous)
		}
	}
}
