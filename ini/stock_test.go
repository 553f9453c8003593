package ini

import (
	"os"
	"path/filepath"
	"regexp"
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
		Unreal:       {[]string{"Core.u", "UnrealShare.u", "UnrealI.u"}, []string{"Botpack.u"}},
		DeusEx:       {[]string{"Core.u", "DeusEx.u", "DeusExItems.u"}, []string{"Botpack.u"}},
		Rune:         {[]string{"Core.u", "RuneI.u"}, []string{"Botpack.u"}},
		UT2003:       {[]string{"Core.u", "XGame.u", "XInterface.u"}, []string{"Onslaught.u"}},
		UT2004:       {[]string{"Core.u", "XGame.u", "Onslaught.u", "ONS-Torlan.ut2", "DM-Rankin.ut2", "Entry.ut2", "ONSBPTextures.utx", "MechaSkaarjAnims.ukx", "ONSBPSounds.uax", "BenTropicalSM01.usx", "HUDContent.utx", "AnnouncerMale2K4.uax", "XGameShaders.utx", "ONSWeapons-A.ukx", "UnrealEd.u"}, []string{"DM-CBP2-Achilles.ut2", "DM-UCMP-ThePits.ut2", "DM-Deck16][.unr"}},
		KillingFloor: {[]string{"Core.u", "KFMod.u", "ROEngine.u"}, []string{"Botpack.u"}},
		Swat4:        {[]string{"Core.u", "SwatGame.u"}, []string{"Botpack.u"}},
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
