package ini

import (
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/internal/testutil"
)

// TestStockPerProfile: every game profile has a stock list (its own, or
// the code packages of every list); each own list names its sources and
// holds what a retail install of that game ships, and nothing of another
// game's maps.
func TestStockPerProfile(t *testing.T) {
	own := map[Game]struct {
		files []string // must be stock
		not   []string // must not be
	}{
		UT99: {[]string{"Core.u", "Botpack.u", "UnrealShare.u", "DM-Deck16][.unr", "CTF-Face.unr", "Soldierskins.utx",
			"Announcer.uax", "Organic.umx", "UWindow.u", "relics.u"}, []string{"DM-Deck16][.ut2", "ONS-Torlan.ut2", "MyMod.u"}},
		Unreal: {[]string{"Core.u", "UnrealShare.u", "UnrealI.u", "NyLeve.unr", "Ancient.utx", "Starseek.umx", "UPak.u", "Emitter.u"}, []string{"Botpack.u", "DM-Cybrosis.unr"}},
		DeusEx: {[]string{"Core.u", "DeusEx.u", "DeusExItems.u", "ConSys.u", "DeusExConAudioMission01.u", "01_NYC_UNATCOIsland.dx",
			"15_Area51_Page.dx", "DXMP_Cmd.dx", "DX.dx", "UNATCO_Music.umx", "Effects.utx", "Ambient.uax", "MoverSFX.uax", "InfoPortraits.utx"}, []string{"Botpack.u", "DM-Deck16][.unr", "DXMP_MyMap.dx"}},
		Rune: {[]string{"Core.u", "RuneI.u", "RMenu.u", "Arena.u", "WeaponsSnd.uax", "RuneFX.utx", "Players.ums"}, []string{"Botpack.u", "RMod.u"}},
		UT2003: {[]string{"Core.u", "XGame.u", "XInterface.u", "DM-Antalus.ut2", "DM-Curse3.ut2", "CTF-Face3.ut2", "BR-Anubis.ut2",
			"DOM-SepukkuGorge.ut2", "TUT-DM.ut2", "DM-DE-Osiris2.ut2", "BonusPack.u"}, []string{"Onslaught.u", "ONS-Torlan.ut2", "DM-Rankin.ut2"}},
		UT2004:       {[]string{"Core.u", "XGame.u", "Onslaught.u", "ONS-Torlan.ut2", "DM-Rankin.ut2", "Entry.ut2", "ONSBPTextures.utx", "MechaSkaarjAnims.ukx", "ONSBPSounds.uax", "BenTropicalSM01.usx", "HUDContent.utx", "AnnouncerMale2K4.uax", "XGameShaders.utx", "ONSWeapons-A.ukx", "UnrealEd.u", "AlleriaTerrain.utx", "HumanoidHardware.usx", "AW-Junk.usx"}, []string{"DM-CBP2-Achilles.ut2", "DM-UCMP-ThePits.ut2", "DM-Deck16][.unr"}},
		KillingFloor: {[]string{"Core.u", "KFMod.u", "ROEngine.u", "KF-BioticsLab.rom", "KFCharacterModels.ukx", "KF_BaseClot.uax"}, []string{"Botpack.u", "KF-SpaceGlass.rom", "RTDMut.u"}},
		Swat4: {[]string{"Core.u", "SwatGame.u", "Tyrion.u", "SwatEffects.u", "SP-ABomb.s4m", "SP-Training.s4m", "SP-Warehouse.s4m",
			"MP-Courthouse.s4m", "MP-Arcade.s4m", "MaleGang1Tex.utx"}, []string{"Botpack.u", "SP-MeatBarn.s4m", "MP-ABomb-smash2.s4m"}},
	}
	for _, p := range Profiles {
		s := StockOf(p.Game)
		if !s.HasCode("Core") || !s.HasCode("engine") || len(s.Sources) == 0 {
			t.Errorf("%s: Core %v, Engine %v, sources %q", p.Game, s.HasCode("Core"), s.HasCode("engine"), s.Sources)
		}
		want, ok := own[p.Game]
		if !ok {
			// No list of its own: retail code packages only.
			if s.Game != (Game{}) || !s.HasCode("Botpack") || !s.HasCode("XGame") || s.HasFile("DM-Deck16][.unr") {
				t.Errorf("%s: fallback list wrong (game %q)", p.Game, s.Game)
			}
			continue
		}
		if s.Game != p.Game {
			t.Errorf("%s: StockOf gave the list of %s", p.Game, s.Game)
		}
		for _, f := range want.files {
			if !s.HasFile(f) || !s.HasFile("Some/Folder/"+strings.ToUpper(f)) {
				t.Errorf("%s: %s is not stock", p.Game, f)
			}
		}
		for _, f := range want.not {
			if s.HasFile(f) {
				t.Errorf("%s: %s is stock", p.Game, f)
			}
		}
	}
	if !IsStockCode("botpack") || !IsStockCode("XGame") || IsStockCode("DM-Deck16][") || IsStockCode("MyMod") {
		t.Error("IsStockCode wrong")
	}
	var nilStock *Stock
	if nilStock.HasFile("Core.u") || nilStock.HasPackage("Core") || nilStock.Files() != nil {
		t.Error("a nil Stock has files")
	}
	if !StockOf(UT99).HasPackage("announcer") || StockOf(UT99).HasPackage("MyMod") {
		t.Error("HasPackage wrong")
	}
}

func TestParseStockRejects(t *testing.T) {
	for _, text := range []string{"System/\n", "System/.u\n", "Core\n"} {
		if _, err := parseStock(UT99, text); err == nil {
			t.Errorf("%q: no error", text)
		}
	}
}

// TestCorpusStockManifests: every package file a corpus Manifest.ini of a
// retail install lists is in its game's stock list: the lists were made
// from these files and must not drift from them.
func TestCorpusStockManifests(t *testing.T) {
	root := testutil.Corpus(t)
	file := regexp.MustCompile(`(?i)^\s*(?:File|Copy)=\(?(?:Src=)?([^,)\r\n]+)`)
	for _, c := range []struct {
		manifest string
		game     Game
		min      int
	}{
		{"adrak0__ut99/System/Manifest.ini", UT99, 250},
		{"nrempel__ut-server/System/Manifest.ini", UT99, 200},
		{"IceOfWraith__UT2004/System/Manifest.ini", UT2004, 70},
	} {
		data, err := os.ReadFile(filepath.Join(root, c.manifest))
		if err != nil {
			t.Fatal(err)
		}
		exts := map[string]bool{}
		for _, e := range c.game.Profile().Exts {
			exts[e] = true
		}
		s, n := StockOf(c.game), 0
		for line := range strings.SplitSeq(string(data), "\n") {
			m := file.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			rel := strings.ReplaceAll(strings.TrimSpace(m[1]), `\`, "/")
			if strings.Count(rel, "/") != 1 || !exts[strings.ToLower(filepath.Ext(rel))] {
				continue
			}
			n++
			if !s.HasFile(rel) {
				t.Errorf("%s: %s is not in the %s stock list", c.manifest, rel, c.game)
			}
		}
		if n < c.min {
			t.Errorf("%s: only %d package files read (want at least %d)", c.manifest, n, c.min)
		}
	}
}

// TestStockLists: each game's own list names its sources and how complete
// it is, lists each file once, only with the package extensions of the
// game's profile, and holds the engine's and the game's own code packages.
// Where the corpus has an install of the game, the packages its stock
// Default.ini names are stock, and so are the retail files the corpus
// holds; its mods are not.
func TestStockLists(t *testing.T) {
	lists, err := stockFS.ReadDir("stock")
	if err != nil || len(lists) != 8 {
		t.Fatalf("%d lists (%v), each needs a case here", len(lists), err)
	}
	for _, tc := range []struct {
		game   Game
		code   []string       // the game's own code packages, besides Core and Engine
		inis   []string       // stock Default.ini files of corpus installs
		retail []string       // retail files of corpus installs (globs)
		mods   []string       // corpus files that are no retail file
		least  map[string]int // at least this many files of each extension
	}{
		{UT99, []string{"Botpack", "UnrealShare", "UnrealI", "UWindow", "UTMenu", "IpServer"},
			[]string{"adrak0__ut99/System/Default.ini", "nrempel__ut-server/System/Default.ini", "OldUnreal__UnrealTournamentPatches/System/Default.ini"},
			[]string{"OldUnreal__UnrealTournamentPatches/System/*.u", "adrak0__ut99/Maps/*.unr", "nrempel__ut-server/Music/*.umx"},
			[]string{"adrak0__ut99/System/CSMCXExtras.u"}, map[string]int{".u": 28, ".unr": 83, ".utx": 110, ".uax": 29, ".umx": 30}},
		{Unreal, []string{"UnrealShare", "UnrealI", "UPak", "UMenu", "UBrowser"}, nil, nil, nil,
			map[string]int{".u": 23, ".unr": 105, ".utx": 58, ".uax": 29, ".umx": 50}},
		{DeusEx, []string{"DeusEx", "DeusExUI", "ConSys", "Extension", "MPCharacters", "DeusExConAudioMission15", "DeusExConText"},
			[]string{"butterwagon69__NerdMod/System/Default.ini"}, nil, nil, map[string]int{".u": 43, ".dx": 78, ".umx": 35, ".utx": 2, ".uax": 2}},
		{Rune, []string{"RuneI", "RMenu", "RBrowser"}, nil, nil, nil, map[string]int{".u": 17, ".uax": 4, ".utx": 1, ".ums": 4}},
		{UT2003, []string{"XGame", "XInterface", "UnrealGame", "SkaarjPack"}, nil, nil, nil, map[string]int{".u": 22, ".ut2": 57}},
		{UT2004, []string{"XGame", "Onslaught", "OnslaughtBP", "UT2k4Assault", "GUI2K4", "xVoting"},
			[]string{"IceOfWraith__UT2004/System/Default.ini"}, nil, nil,
			map[string]int{".u": 38, ".ut2": 138, ".utx": 380, ".uax": 49, ".usx": 198, ".ukx": 47}},
		{KillingFloor, []string{"KFMod", "KFChar", "KFMutators", "ROEngine"}, nil,
			[]string{"InsultingPros__KFRedirectTool/crates/tests/reference_files/*.u"},
			[]string{"InsultingPros__KFRedirectTool/test/KF-SpaceGlass.rom", "InsultingPros__KFRedirectTool/test/RTDMut.u"},
			map[string]int{".u": 30, ".rom": 40, ".utx": 173, ".uax": 156, ".usx": 83, ".ukx": 66}},
		{Swat4, []string{"SwatGame", "SwatEquipment", "SwatGui", "SwatAICommon", "RWOSupport", "IGEffectsSystem"}, nil, nil, nil,
			map[string]int{".u": 31, ".s4m": 45, ".utx": 4}},
	} {
		t.Run(tc.game.Name, func(t *testing.T) {
			text, err := stockFS.ReadFile("stock/" + tc.game.Name + ".txt")
			if err != nil {
				t.Fatal(err)
			}
			exts := map[string]bool{}
			for _, e := range tc.game.Profile().Exts {
				exts[e] = true
			}
			seen := map[string]int{}
			sources, complete := 0, 0
			for n, line := range strings.Split(string(text), "\n") {
				switch {
				case strings.HasPrefix(line, "# Source: "):
					sources++
				case strings.HasPrefix(line, "# Completeness: "):
					complete++
				case line == "" || strings.HasPrefix(line, "#"):
				default:
					base := strings.ToLower(path.Base(line))
					if first, dup := seen[base]; dup {
						t.Errorf("line %d: %s again (line %d)", n+1, line, first)
					}
					seen[base] = n + 1
					if !exts[path.Ext(base)] {
						t.Errorf("line %d: %s: not a package extension of %s", n+1, line, tc.game)
					}
				}
			}
			if sources == 0 || complete != 1 {
				t.Errorf("%d source lines, %d completeness lines", sources, complete)
			}
			n := map[string]int{}
			for base := range seen {
				n[path.Ext(base)]++
			}
			for ext, least := range tc.least {
				if n[ext] < least {
					t.Errorf("%d %s files, want at least %d", n[ext], ext, least)
				}
			}
			s := StockOf(tc.game)
			for _, c := range append([]string{"Core", "Engine"}, tc.code...) {
				if !s.HasCode(c) {
					t.Errorf("%s.u is not stock", c)
				}
			}
			if len(tc.inis)+len(tc.retail)+len(tc.mods) == 0 {
				return
			}
			root := testutil.Corpus(t)
			roots := regexp.MustCompile(`(?im)^\s*(?:EditPackages|ServerPackages)\s*=\s*([^\s;]+)`)
			for _, ini := range tc.inis {
				data, err := os.ReadFile(filepath.Join(root, ini))
				if err != nil {
					t.Fatal(err)
				}
				n := 0
				for _, m := range roots.FindAllStringSubmatch(string(data), -1) {
					n++
					if !s.HasPackage(m[1]) {
						t.Errorf("%s: %s is not stock", ini, m[1])
					}
				}
				if n < 10 {
					t.Errorf("%s: only %d packages read", ini, n)
				}
			}
			for _, glob := range tc.retail {
				files, _ := filepath.Glob(filepath.Join(root, glob))
				if len(files) == 0 {
					t.Errorf("%s: no file", glob)
				}
				for _, f := range files {
					if !s.HasFile(f) {
						t.Errorf("%s: not stock", f)
					}
				}
			}
			for _, f := range tc.mods {
				if _, err := os.Stat(filepath.Join(root, f)); err != nil || s.HasFile(f) {
					t.Errorf("%s: stock, or not in the corpus (%v)", f, err)
				}
			}
		})
	}
}

// TestStockReadPerGame: a game's own list is read without the others (a
// check reads one list of a few hundred lines, not every game's), once.
func TestStockReadPerGame(t *testing.T) {
	stocks.mu.Lock()
	saved := stocks.lists
	stocks.lists = nil
	stocks.mu.Unlock()
	defer func() {
		stocks.mu.Lock()
		stocks.lists = saved
		stocks.mu.Unlock()
	}()
	s := OwnStockOf(UT99)
	if s == nil || !s.HasCode("Botpack") || OwnStockOf(UT99) != s {
		t.Fatalf("OwnStockOf(UT99) = %v, then another", s)
	}
	if OwnStockOf(UE1) != nil {
		t.Error("UE1 has a list of its own")
	}
	stocks.mu.Lock()
	defer stocks.mu.Unlock()
	if len(stocks.lists) != 2 || stocks.lists[UT99] != s {
		t.Errorf("lists read: %d, want UT99's and UE1's none", len(stocks.lists))
	}
}

// TestIsStockPackageScan: IsStockPackage, which searches stockNames
// without making the lists' tables, agrees with the tables on every package
// name of every list, in other cases, and on names no list has (SwatGame
// with a long s, which strings.EqualFold would match and ToLower does not;
// names that are a part or a folder of a listed one, or in a comment).
func TestIsStockPackageScan(t *testing.T) {
	for _, g := range Games {
		text, err := stockFS.ReadFile("stock/" + g.Name + ".txt")
		if err != nil {
			continue
		}
		s, err := parseStock(g, string(text))
		if err != nil {
			t.Fatal(err)
		}
		for i, f := range s.Files() {
			base := path.Base(f)
			name := strings.TrimSuffix(base, path.Ext(base))
			n := []string{name, strings.ToUpper(name), strings.ToLower(name)}[i%3]
			if !IsStockPackage(n) {
				t.Errorf("%s: %s (%s) not found", g, n, f)
			}
		}
	}
	for _, n := range []string{"", "MyMod", "Botpack.u", "Core.", "System", "u", "Textures/Ancient", "Announce", "Announcerr", "\u017fwatGame", "nnouncer", "Source:", "Maps", "Maps/DM-Deck16][", "VanillaPackages", "constants", "authored_lighting_preview"} {
		if IsStockPackage(n) {
			t.Errorf("IsStockPackage(%q)", n)
		}
	}
}

// TestAnyCodeFirstGame: the fallback list keeps, for each code package,
// the path of the first game in Games whose list has it, as walking every
// list's sorted Files in that order does (what anyCode did before it
// walked the lists unsorted), and Files sorts case-insensitively.
func TestAnyCodeFirstGame(t *testing.T) {
	want := map[string]string{}
	for _, g := range Games {
		files := stockList(g).Files()
		if !slices.IsSortedFunc(files, func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) }) {
			t.Errorf("%s: Files is not sorted case-insensitively", g)
		}
		for _, p := range files {
			base := strings.ToLower(path.Base(p))
			if _, ok := want[base]; !ok && strings.HasSuffix(base, ".u") {
				want[base] = p
			}
		}
	}
	got := anyCode()
	if len(want) == 0 || !maps.Equal(got.files, want) {
		t.Fatalf("anyCode has %d files, want %d; they differ", len(got.files), len(want))
	}
	for base := range want {
		name := strings.TrimSuffix(base, ".u")
		if !slices.Equal(got.names[name], []string{base}) {
			t.Errorf("names[%s] = %q, want [%s]", name, got.names[name], base)
		}
	}
}

// TestIsStockCodeList: IsStockCode, searched in stockCodeNames, answers as
// the fallback list's HasCode does: for each of its code packages in the
// lists' spelling and upper case, every stock name, and names that are
// not packages (a path, a backslash, an extension, empty).
func TestIsStockCodeList(t *testing.T) {
	names := []string{"", ".u", "Engine.u", `System\Engine`, "System/Engine", "NoSuchPackage", "engine ", "UnrealShare"}
	for base, p := range anyCode().files {
		names = append(names, strings.TrimSuffix(path.Base(p), path.Ext(p)), strings.ToUpper(strings.TrimSuffix(base, ".u")))
	}
	names = append(names, stockNames[:]...)
	code := 0
	for _, n := range names {
		want := anyCode().HasCode(n)
		if got := IsStockCode(n); got != want {
			t.Errorf("IsStockCode(%q) = %v, want %v", n, got, want)
		}
		if want {
			code++
		}
	}
	if code < len(anyCode().files) {
		t.Errorf("only %d of the names are stock code, want at least %d", code, len(anyCode().files))
	}
}
