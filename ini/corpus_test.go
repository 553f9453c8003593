package ini

import (
	"io/fs"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/internal/testutil"
)

// corpusInis returns every *.ini and *.upkg file of the corpus.
func corpusInis(t testing.TB) []string {
	t.Helper()
	root := testutil.Corpus(t)
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch strings.ToLower(filepath.Ext(p)) {
		case ".ini", ".upkg":
			if !d.IsDir() {
				out = append(out, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestCorpusAllLoad(t *testing.T) {
	files := corpusInis(t)
	if len(files) < 30 {
		t.Errorf("found only %d ini/upkg files in the corpus", len(files))
	}
	for _, p := range files {
		if _, err := Load(p); err != nil {
			t.Errorf("Load: %v", err)
		}
	}
	t.Logf("%d ini/upkg files loaded", len(files))
}

type listWant struct {
	n           int
	first, last string
}

func checkList(t *testing.T, what string, have []string, want listWant) {
	t.Helper()
	if len(have) != want.n {
		t.Errorf("%s: have %d entries %q, want %d", what, len(have), have, want.n)
		return
	}
	if want.n > 0 && (have[0] != want.first || have[len(have)-1] != want.last) {
		t.Errorf("%s: have first %q last %q, want %q %q", what, have[0], have[len(have)-1], want.first, want.last)
	}
}

func TestCorpusGameInis(t *testing.T) {
	tests := []struct {
		file           string
		game           Game
		paths          listWant
		edit, server   listWant
		cachePath      string
		purgeCacheDays int
		redirect       Redirect
	}{
		{
			file:           "adrak0__ut99/System/UnrealTournament.ini",
			game:           UT99,
			paths:          listWant{5, "../System/*.u", "../Music/*.umx"},
			edit:           listWant{16, "Core", "UTBrowser"},
			server:         listWant{13, "SoldierSkins", "De"},
			cachePath:      "../Cache",
			purgeCacheDays: 0,
			redirect:       Redirect{UseCompression: true, HasCompression: true},
		},
		{
			file:           "OldUnreal__UnrealTournamentPatches/System/Default.ini",
			game:           UT99,
			paths:          listWant{5, "../System/*.u", "../Music/*.umx"},
			edit:           listWant{19, "Core", "udemo"},
			server:         listWant{13, "SoldierSkins", "De"},
			cachePath:      "../Cache",
			purgeCacheDays: 30,
			redirect:       Redirect{UseCompression: true, HasCompression: true},
		},
		{
			file:           "nrempel__ut-server/System/UnrealTournament.ini",
			game:           UT99,
			paths:          listWant{5, "../System/*.u", "../Music/*.umx"},
			edit:           listWant{16, "Core", "UTBrowser"},
			server:         listWant{6, "SoldierSkins", "Botpack"},
			cachePath:      "../Cache",
			purgeCacheDays: 30,
			redirect:       Redirect{UseCompression: true, HasCompression: true},
		},
		{
			// A server ini under another name, with [IpDrv.HTTPDownLoad].
			file:           "nrempel__ut-server/System/ut.ini",
			game:           UT99,
			paths:          listWant{5, "../System/*.u", "/opt/ut-server/Music/*.umx"},
			server:         listWant{10, "NexgenCC", "Botpack"},
			cachePath:      "../Cache",
			purgeCacheDays: 30,
			redirect:       Redirect{URL: "http://csc.uvic.ca/~nrempel/", UseCompression: true, HasCompression: true},
		},
		{
			file:           "butterwagon69__NerdMod/System/DeusEx.ini",
			game:           DeusEx,
			paths:          listWant{5, `..\System\*.u`, `..\Music\*.umx`},
			edit:           listWant{20, "Core", "Crap"},
			cachePath:      `..\Cache`,
			purgeCacheDays: 30,
		},
		{
			file:           "aldehir__ut2u/pkg/ini/testdata/Example.ini",
			game:           UT2004,
			paths:          listWant{8, "../System/*.u", "../Saves/*.uvx"},
			edit:           listWant{34, "Core", "UTV2004s"},
			server:         listWant{27, "Core", "xVoting"},
			cachePath:      "../Cache",
			purgeCacheDays: 30,
			redirect:       Redirect{UseCompression: true, HasCompression: true},
		},
		{
			file:  "EliotVU__Unreal-Library/Test/upk/TestUC1/make.ini",
			game:  UE2,
			paths: listWant{6, "../System/*.u", "../Animations/*.ukx"},
			edit:  listWant{3, "Core", "__TestUC1__Temp"},
		},
		{
			file:  "EliotVU__Unreal-Library/Test/upk/TestUC2/make.ini",
			game:  UE2,
			paths: listWant{6, "../System/*.u", "../Animations/*.ukx"},
			edit:  listWant{3, "Core", "__TestUC2__Temp"},
		},
		{file: "1337GameDev__Ut99Mods/System/LGDUtilities.ini"},
		{file: "adrak0__ut99/System/Detected.ini"},
	}
	for _, tt := range tests {
		t.Run(strings.SplitN(tt.file, "/", 2)[0]+"/"+filepath.Base(tt.file), func(t *testing.T) {
			f, err := Load(testutil.CorpusFile(t, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			sys := f.System()
			checkList(t, "Paths", sys.Paths, tt.paths)
			checkList(t, "EditPackages", f.EditPackages(), tt.edit)
			checkList(t, "ServerPackages", f.ServerPackages(), tt.server)
			if have := GuessGame(f); have != tt.game {
				t.Errorf("GuessGame: have %v, want %v", have, tt.game)
			}
			if sys.CachePath != tt.cachePath || sys.PurgeCacheDays != tt.purgeCacheDays || sys.Language != "int" {
				t.Errorf("System: have %+v, want CachePath %q PurgeCacheDays %d Language int", sys, tt.cachePath, tt.purgeCacheDays)
			}
			if tt.cachePath != "" && sys.CacheExt != ".uxx" {
				t.Errorf("CacheExt: have %q, want .uxx", sys.CacheExt)
			}
			if have := f.Redirect(); have != tt.redirect {
				t.Errorf("Redirect: have %+v, want %+v", have, tt.redirect)
			}
		})
	}
}

func TestCorpusDetails(t *testing.T) {
	ut, err := Load(testutil.CorpusFile(t, "adrak0__ut99/System/UnrealTournament.ini"))
	if err != nil {
		t.Fatal(err)
	}
	if e := ut.Entries("Core.System", "Paths"); len(e) != 5 || e[0].Line != 57 || e[4].Line != 61 {
		t.Errorf("Paths lines: have %+v, want lines 57..61", e)
	}
	if n := len(ut.Sections()); n != 71 {
		t.Errorf("sections: have %d, want 71", n)
	}
	// A value holding "=" and blanks, in a section with other repeated keys.
	if v := ut.Values("Engine.GameEngine", "ServerActors"); len(v) != 6 || v[2] != "IpServer.UdpServerUplink MasterServerAddress=unreal.epicgames.com MasterServerPort=27900" {
		t.Errorf("ServerActors: have %q", v)
	}

	lgd, err := Load(testutil.CorpusFile(t, "1337GameDev__Ut99Mods/System/LGDUtilities.ini"))
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := lgd.Value("lgdutilities", "PackageVersion"); v != "1.0.0" {
		t.Errorf("LGDUtilities PackageVersion: have %q, want 1.0.0", v)
	}

	empty, err := Load(testutil.CorpusFile(t, "adrak0__ut99/System/Detected.ini"))
	if err != nil || len(empty.Sections()) != 0 {
		t.Errorf("Detected.ini (0 bytes): have %v, %v; want no sections", empty, err)
	}

	// A UE1 user ini: indexed keys with quotes, brackets and '|'.
	user, err := Load(testutil.CorpusFile(t, "adrak0__ut99/System/User.ini"))
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := user.Value("Engine.Input", "Aliases[0]"); v != `(Command="Button bFire | Fire",Alias="Fire")` {
		t.Errorf("User.ini Aliases[0]: have %q", v)
	}

	// A trailing backslash is not a line continuation.
	demo, err := Load(testutil.CorpusFile(t, "adrak0__ut99/System/udemo.ini"))
	if err != nil {
		t.Fatal(err)
	}
	if v := demo.Values("udemo.DemoSettings", "DemoPaths"); len(v) < 2 || !strings.HasSuffix(v[0], `\System\`) || v[1] != "Empty" {
		t.Errorf("udemo.ini DemoPaths: have %q", v)
	}

	// A .upkg: a description line without "=" is skipped.
	upkg, err := Load(testutil.CorpusFile(t, "elmuerte__UT2004-ServerExt/Classes/ServerExt.upkg"))
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := upkg.Value("Flags", "ServerSideOnly"); v != "True" || !upkg.HasSection("Package_Description") {
		t.Errorf("ServerExt.upkg: have ServerSideOnly %q, sections %q", v, upkg.Sections())
	}
}

// TestCorpusLoadSectionsInt: on the localisation files of UT2004's stock
// System folder, LoadSections gives every section and [Public]'s entries
// exactly as Load does.
func TestCorpusLoadSectionsInt(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(testutil.Corpus(t), "jmarshall23__Unreal2004", "System", "*.int"))
	if err != nil || len(files) < 20 {
		t.Skipf("UT2004's .int files are not in the corpus (%d, %v)", len(files), err)
	}
	if testing.Short() {
		files = files[:20]
	}
	entries := 0
	for _, p := range files {
		whole, err := Load(p)
		if err != nil {
			continue // Load's refusals are TestCorpusAllLoad's; LoadSections' own test compares errors
		}
		part, err := LoadSections(p, "Public")
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		if !slices.Equal(whole.Sections(), part.Sections()) {
			t.Errorf("%s: sections %q, want %q", p, part.Sections(), whole.Sections())
		}
		for _, key := range []string{"Object", "Preferences"} {
			w, g := whole.Entries("Public", key), part.Entries("Public", key)
			if !reflect.DeepEqual(w, g) {
				t.Errorf("%s: [Public] %s: %v, want %v", p, key, g, w)
			}
			entries += len(w)
		}
	}
	if entries == 0 {
		t.Error("no [Public] entries compared")
	}
}
