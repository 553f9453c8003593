package search

import (
	"bufio"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/internal/testutil"
)

func corpusSearcher(t *testing.T, rel string, opt Options) *Searcher {
	t.Helper()
	cfg, err := ini.Load(testutil.CorpusFile(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestCorpusUT99 is the acceptance lookup: upkdeps resolve --ini
// adrak0__ut99/System/UnrealTournament.ini Core Engine DM-Tutorial Faces BotPack.
func TestCorpusUT99(t *testing.T) {
	s := corpusSearcher(t, "adrak0__ut99/System/UnrealTournament.ini", Options{})
	if s.Generation() != 1 || s.Language() != "int" || s.CacheExt() != ".uxx" || filepath.Base(s.CacheDir()) != "Cache" {
		t.Errorf("generation %d, language %q, cache %q %q", s.Generation(), s.Language(), s.CacheDir(), s.CacheExt())
	}
	if m := s.MissingPaths(); len(m) != 0 {
		t.Errorf("missing paths: %+v", m)
	}
	for name, rel := range map[string]string{
		"Core":        "System/Core.u",
		"Engine":      "System/Engine.u",
		"DM-Tutorial": "Maps/DM-Tutorial.unr",
		"Faces":       "Textures/Faces.utx",
		"BotPack":     "", // not in this corpus, in any case
	} {
		r := s.Find(name)
		if r.Rel != rel || r.CaseMismatch || len(r.Warnings) != 0 || len(r.Shadowed) != 0 {
			t.Errorf("%s: have %q (step %q, shadowed %q, warnings %q), want %q", name, r.Rel, r.Step, r.Shadowed, r.Warnings, rel)
		}
		if rel == "" && len(r.Tried) != 1+2*5+2*5 {
			t.Errorf("%s: tried %d candidates, want 21: %q", name, len(r.Tried), r.Tried)
		}
	}
	// Real cache entries from cache.ini: a package that is not installed is
	// found in the cache by its GUID.
	entries := cacheIni(t, filepath.Join(s.CacheDir(), "cache.ini"))
	inCache, found := 0, 0
	for _, e := range entries {
		if strings.Contains(e.guid, "-") {
			t.Fatalf("UE1 cache key %q", e.guid)
		}
		g, err := format.ParseGUID(e.guid)
		if err != nil {
			t.Fatalf("cache.ini key %q: %v", e.guid, err)
		}
		name := strings.TrimSuffix(e.file, path.Ext(e.file))
		r := s.FindGUID(name, g, 0)
		if _, err := os.Stat(filepath.Join(s.CacheDir(), e.guid+".uxx")); err == nil {
			inCache++
			if r.Step == StepPaths {
				continue // also installed: the install wins
			}
			if r.Step != StepCache || r.Rel != "Cache/"+e.guid+".uxx" {
				t.Errorf("%s %s: have %q step %q", e.guid, e.file, r.Rel, r.Step)
			}
			found++
		} else if r.Step == StepCache {
			t.Errorf("%s %s: dangling entry found in the cache: %q", e.guid, e.file, r.Rel)
		}
	}
	t.Logf("cache.ini: %d entries, %d with a cache file, %d found through the cache", len(entries), inCache, found)
	if found == 0 {
		t.Error("no cache entry found through the cache")
	}
	pkgs := s.Packages()
	t.Logf("%d packages reachable through Paths, %d collisions", len(pkgs), len(s.Collisions()))
	for _, c := range pkgs {
		if !c.Wins {
			t.Errorf("%s (%s) does not win", c.Name, c.Rel)
		}
	}
}

type cacheEntry struct{ guid, file string }

// cacheIni reads the [Cache] lines of a cache.ini (a plain GUID=File list).
func cacheIni(t *testing.T, p string) []cacheEntry {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Skipf("no cache.ini: %v", err)
	}
	defer f.Close()
	var out []cacheEntry
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(strings.TrimSpace(sc.Text()), "=")
		if ok && v != "" {
			out = append(out, cacheEntry{k, v})
		}
	}
	return out
}

// TestCorpusInis builds a Searcher for every real game ini in the corpus.
func TestCorpusInis(t *testing.T) {
	for _, tc := range []struct {
		ini     string
		gen     int
		paths   int
		missing int
		core    string
	}{
		{"adrak0__ut99/System/UnrealTournament.ini", 1, 5, 0, "System/Core.u"},
		{"adrak0__ut99/System/Default.ini", 1, 5, 0, "System/Core.u"},
		{"nrempel__ut-server/System/UnrealTournament.ini", 1, 5, 3, "System/Core.u"},
		{"OldUnreal__UnrealTournamentPatches/System/Default.ini", 1, 5, 4, "System/Core.u"},
		{"butterwagon69__NerdMod/System/DeusEx.ini", 1, 5, 4, ""},
		{"aldehir__ut2u/pkg/ini/testdata/Example.ini", 2, 8, 8, ""},
	} {
		s := corpusSearcher(t, tc.ini, Options{})
		if s.Generation() != tc.gen || len(s.Paths()) != tc.paths || len(s.MissingPaths()) != tc.missing {
			t.Errorf("%s: generation %d, %d paths, %d missing; want %d, %d, %d", tc.ini, s.Generation(), len(s.Paths()), len(s.MissingPaths()), tc.gen, tc.paths, tc.missing)
		}
		if r := s.Find("Core"); r.Rel != tc.core {
			t.Errorf("%s: Core: have %q, want %q", tc.ini, r.Rel, tc.core)
		}
	}
}

// TestCorpusOverlay searches two real System folders in turn: the 469 patch's
// files are byte-identical copies of the install's, so each is shadowed, and
// MultiMesh.u / multimesh.u differ only in case.
func TestCorpusOverlay(t *testing.T) {
	corpus := testutil.Corpus(t)
	first := filepath.Join(corpus, "adrak0__ut99", "System")
	second := filepath.Join(corpus, "OldUnreal__UnrealTournamentPatches", "System")
	mods := filepath.Join(corpus, "1337GameDev__Ut99Mods")
	for _, d := range []string{first, second, mods} {
		if _, err := os.Stat(d); err != nil {
			t.Skipf("corpus folder %s absent", d)
		}
	}
	in := newInstall(t)
	cfg := in.ini("System/Overlay.ini", "[Core.System]\n"+
		"Paths="+filepath.ToSlash(first)+"/*.u\n"+
		"Paths="+filepath.ToSlash(second)+"/*.u\n"+
		"Paths="+filepath.ToSlash(mods)+"/System/*.u\n"+
		"Paths="+filepath.ToSlash(mods)+"/Sounds/*.uax\n")
	s := in.searcher(cfg, Options{Generation: 1})

	// Expected from the listings alone.
	firstNames := map[string]string{}
	for _, n := range dirNames(t, first, ".u") {
		firstNames[strings.ToLower(n)] = n
	}
	wantShadowed, wantCase := 0, 0
	for _, n := range dirNames(t, second, ".u") {
		if m, ok := firstNames[strings.ToLower(n)]; ok {
			wantShadowed++
			if m != n {
				wantCase++
			}
		}
	}
	kinds, caseToo := map[string]int{}, 0
	for _, c := range s.Collisions() {
		kinds[c.Kind]++
		if strings.Contains(c.Message, "case-sensitive") {
			caseToo++ // one finding per name, saying what each file system loads
			t.Logf("case: %s", c.Message)
		}
	}
	if kinds[KindShadowed] != wantShadowed || caseToo != wantCase || len(kinds) != 1 {
		t.Errorf("collisions: have %v (%d differing in case too), want %d shadowed, %d differing in case too", kinds, caseToo, wantShadowed, wantCase)
	}
	if wantShadowed == 0 || wantCase == 0 {
		t.Errorf("corpus changed? %d shadowed, %d case", wantShadowed, wantCase)
	}
	// HaloAnnouncer exists only as a .uax: a package import of it finds it.
	r := s.Find("HaloAnnouncer")
	if r.Step != StepPaths || r.PathIndex != 3 || filepath.Base(r.File) != "HaloAnnouncer.uax" {
		t.Errorf("HaloAnnouncer: have %q step %q index %d", r.File, r.Step, r.PathIndex)
	}
	if r := s.Find("LGDUtilities"); r.Found() {
		t.Errorf("LGDUtilities: found %q, want absent", r.File)
	}
	if r := s.Find("Core"); r.File != filepath.Join(first, "Core.u") || len(r.Shadowed) != 1 {
		t.Errorf("Core: have %q shadowing %q", r.File, r.Shadowed)
	}
}

func dirNames(t *testing.T, dir, ext string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		if !e.IsDir() && strings.EqualFold(filepath.Ext(e.Name()), ext) {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestCorpusKFCache looks a real Killing Floor (UE2) cache up by GUID and
// generation.
func TestCorpusKFCache(t *testing.T) {
	cacheDir := filepath.Dir(testutil.CorpusFile(t, "crackman2__KFCacheManager/Cache/cache.ini"))
	in := newInstall(t)
	in.dir("System")
	cfg := in.ini("System/KillingFloor.ini", "[Core.System]\nPaths=../System/*.u\nPaths=../Textures/*.utx\nCachePath=../Cache\nCacheExt=.uxx\n")
	s := in.searcher(cfg, Options{CacheDir: cacheDir})
	if s.Generation() != 2 {
		t.Fatalf("generation %d", s.Generation())
	}
	checked := 0
	for _, e := range cacheIni(t, filepath.Join(cacheDir, "cache.ini")) {
		guidText, genText, ok := strings.Cut(e.guid, "-")
		if !ok {
			t.Fatalf("UE2 cache key %q has no generation", e.guid)
		}
		g, err := format.ParseGUID(guidText)
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(cacheDir, e.guid+".uxx")
		if _, err := os.Stat(file); err != nil {
			continue // dangling
		}
		name := strings.TrimSuffix(e.file, path.Ext(e.file))
		for _, gen := range []int{atoiTest(genText), 0} {
			r := s.FindGUID(name, g, gen)
			if r.Step != StepCache || r.File != file {
				t.Errorf("%s (%s) gen %d: have %q step %q", e.guid, e.file, gen, r.File, r.Step)
			}
		}
		checked++
	}
	t.Logf("KF cache: %d entries with a file found by GUID and generation", checked)
	if checked == 0 {
		t.Error("no KF cache entry checked")
	}
}

func atoiTest(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}
