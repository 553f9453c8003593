package cache

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/internal/testutil"
	"github.com/upkdeps/upkdeps/search"
)

// adrak0Strays is what MANIFEST.tsv says each stray .uz in
// adrak0__ut99/Cache holds.
var adrak0Strays = map[string]string{
	"0000.tmp": "CTF-420-OutForBlood.unr", "0002.tmp": "NDgrap49c.u", "0004.tmp": "NDdj4.u",
	"0006.tmp": "NDgencli5.u", "0008.tmp": "FlagAnnouncementsV2.u", "000A.tmp": "DefaultAnnouncements.uax",
	"000C.tmp": "ZeroPingPlus103.u", "000E.tmp": "cgzpp22a.u", "0010.tmp": "ComboMsgsCS.u",
	"0012.tmp": "NoSelfDamage.u", "0014.tmp": "KickIdlePlayers2_sg1.u", "0016.tmp": "PlyrCmdsV01a.u",
	"0018.tmp": "CountryFlags3.utx", "001A.tmp": "ATBHS7fixSG1.u", "001C.tmp": "2k4Sounds24.u",
	"0020.tmp": "MapVoteLAv2_Big21a.u", "0022.tmp": "SmartCTF_4E-ESU2.u", "0024.tmp": "NPLoader_v19b.u",
	"0026.tmp": "NPLoaderLLU_v18b.u", "0028.tmp": "NPLoaderLLD_v18b.u", "002A.tmp": "NPLoaderLLS_v18b.u",
	"002C.tmp": "NPLoaderLLDL_v18b.u",
}

func count(c *Cache) (withFile int, by map[State]int) {
	by = map[State]int{}
	for _, e := range c.Entries() {
		by[e.State]++
		if e.File != "" {
			withFile++
		}
	}
	return withFile, by
}

func TestCorpusAdrak0(t *testing.T) {
	dir := testutil.CorpusFile(t, "adrak0__ut99/Cache")
	iniPath := testutil.CorpusFile(t, "adrak0__ut99/System/UnrealTournament.ini")
	c := open(t, dir, Options{}, iniPath)
	withFile, by := count(c)
	t.Logf("adrak0 cache: %d entries, %d with file, states %v, %d strays", len(c.Entries()), withFile, by, len(c.Strays()))
	if n := len(c.Entries()); n != 76 || withFile != 59 || by[StateMissingFile] != 17 || by[StateOrphanFile] != 0 || by[StateOK] != 59 {
		t.Errorf("have %d entries, %d with file, %v: want 76, 59 ok, 17 missing_file, no orphans", n, withFile, by)
	}
	for _, e := range c.Entries() {
		if e.File != "" && (e.HeaderGUID != e.GUID || e.Version != 69) {
			t.Errorf("%s %s: header GUID %s, version %d", e.Key, e.Name, e.HeaderGUID, e.Version)
		}
	}
	if c.Generation != 1 || c.Ext != ".uxx" {
		t.Errorf("generation %d ext %s", c.Generation, c.Ext)
	}
	names := map[string]bool{}
	for _, e := range c.Entries() {
		names[e.Name] = e.File != ""
	}
	strays := c.Strays()
	if len(strays) != len(adrak0Strays) {
		t.Errorf("have %d strays, want %d", len(strays), len(adrak0Strays))
	}
	for _, s := range strays {
		base := filepath.Base(s.File)
		if s.Kind != KindUZ || s.Original != adrak0Strays[base] {
			t.Errorf("%s: have %s of %q, want uz of %q", base, s.Kind, s.Original, adrak0Strays[base])
		}
		if !names[s.Original] {
			t.Errorf("%s: %s is not a cache entry with a file", base, s.Original)
		}
	}
}

func TestCorpusAdrak0CleanTmp(t *testing.T) {
	if testing.Short() {
		t.Skip("decompresses 2 MB of .uz")
	}
	dir := testutil.CorpusFile(t, "adrak0__ut99/Cache")
	c := open(t, dir, Options{}, "")
	p := c.PlanClean(CleanOptions{Tmp: true})
	// MANIFEST.tsv: each .uz decompresses byte for byte to its .uxx.
	for _, l := range lines(p, dir) {
		if !strings.HasPrefix(l, "remove") || !strings.Contains(l, "decompresses to the bytes of") {
			t.Errorf("%s", l)
		}
	}
	if len(p.Actions) != 22 {
		t.Errorf("have %d actions, want 22 removals", len(p.Actions))
	}
}

func TestCorpusKF(t *testing.T) {
	dir := testutil.CorpusFile(t, "crackman2__KFCacheManager/Cache")
	c := open(t, dir, Options{}, "")
	withFile, by := count(c)
	t.Logf("KF cache: %d entries, %d with file, states %v, %d strays", len(c.Entries()), withFile, by, len(c.Strays()))
	if c.Generation != 2 || len(c.Entries()) != 36 || withFile != 29 || by[StateOK] != 29 || by[StateMissingFile] != 7 || len(c.Strays()) != 0 {
		t.Errorf("have generation %d, %d entries, %v, %d strays: want 2, 36, 29 ok, 7 missing_file, 0",
			c.Generation, len(c.Entries()), by, len(c.Strays()))
	}
	for _, e := range c.Entries() {
		if e.File == "" {
			continue
		}
		f, err := format.Open(e.File)
		if err != nil {
			t.Fatal(err)
		}
		// The engine names a UE2 download after its generation count; KF
		// writes its own tag.
		if len(f.Generations) != e.Generation || f.Tag != format.TagKF || e.HeaderGUID != e.GUID {
			t.Errorf("%s: %d generations, tag %08X, header GUID %s", e.Key, len(f.Generations), f.Tag, e.HeaderGUID)
		}
		f.Close()
	}
}

func TestCorpusNexgenInstalledSame(t *testing.T) {
	dir := testutil.CorpusFile(t, "adrak0__ut99/Cache")
	iniPath := testutil.CorpusFile(t, "nrempel__ut-server/System/UnrealTournament.ini")
	c, err := Open(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := searcher(t, iniPath, 0)
	c.Classify(s)
	_, by := count(c)
	t.Logf("adrak0 cache against nrempel's install: %v", by)
	e := c.EntryByKey("9316A7AB4CE79C187AC291AF8F8FD8D7")
	if e == nil || e.Name != "Nexgen112.u" || e.State != StateInstalledSame || e.Installed != "System/Nexgen112.u" {
		t.Errorf("Nexgen112: have %+v, want installed_same as System/Nexgen112.u", e)
	}
}

func TestCorpusExtractDryRun(t *testing.T) {
	dir := testutil.CorpusFile(t, "adrak0__ut99/Cache")
	iniPath := testutil.CorpusFile(t, "adrak0__ut99/System/UnrealTournament.ini")
	c := open(t, dir, Options{}, iniPath)
	p := c.PlanExtract(extractOptions(t, iniPath))
	folders := map[string]string{".u": "System", ".unr": "Maps", ".utx": "Textures", ".uax": "Sounds", ".umx": "Music"}
	copies := 0
	for _, a := range p.Actions {
		switch a.Op {
		case OpCopy:
			copies++
			want := filepath.Join(filepath.Dir(dir), folders[strings.ToLower(filepath.Ext(a.Dst))])
			if filepath.Dir(a.Dst) != want {
				t.Errorf("%s -> %s: want the folder %s", filepath.Base(a.Src), a.Dst, want)
			}
		case OpRemove, OpIni:
		default:
			t.Errorf("unexpected action: %s", a.Format(nil))
		}
	}
	if copies != 59 {
		t.Errorf("have %d copies, want 59", copies)
	}
}

// copyTree copies the regular files under src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		out := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		o, err := os.Create(out)
		if err != nil {
			return err
		}
		if _, err := io.Copy(o, in); err != nil {
			o.Close()
			return err
		}
		return o.Close()
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestCorpusExtractReal(t *testing.T) {
	src := testutil.CorpusFile(t, "adrak0__ut99")
	root := t.TempDir()
	copyTree(t, filepath.Join(src, "Cache"), filepath.Join(root, "Cache"))
	copyTree(t, filepath.Join(src, "System"), filepath.Join(root, "System"))
	iniPath := filepath.Join(root, "System", "UnrealTournament.ini")
	c := open(t, filepath.Join(root, "Cache"), Options{}, iniPath)
	moved := map[string]*Entry{}
	for _, e := range c.Entries() {
		if e.State == StateOK {
			moved[e.Key] = &e
		}
	}
	if err := c.PlanExtract(extractOptions(t, iniPath)).Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	// Without the cache and with it, the engine now finds every moved
	// package installed, with its GUID: `check` and `check --with-cache`
	// agree.
	s := searcher(t, iniPath, 0)
	for _, e := range moved {
		guid, _ := format.ParseGUID(e.GUID)
		pkgName := PackageName(e.Name)
		plain, withCache := s.Find(pkgName), s.FindGUID(pkgName, guid, 0)
		if !plain.Found() || plain.File != withCache.File || withCache.Step == search.StepCache {
			t.Errorf("%s: Find %q, FindGUID %q (%s)", e.Name, plain.Rel, withCache.Rel, withCache.Step)
			continue
		}
		if headerGUID(plain.File) != e.GUID {
			t.Errorf("%s: installed file has GUID %s", e.Name, headerGUID(plain.File))
		}
	}
	c2 := open(t, filepath.Join(root, "Cache"), Options{}, iniPath)
	_, by := count(c2)
	if by[StateEmptyEntry] != 59 || by[StateMissingFile] != 17 {
		t.Errorf("after extract: %v, want 59 empty_entry, 17 missing_file", by)
	}
	if p := c2.PlanExtract(extractOptions(t, iniPath)); p.Changes() {
		t.Errorf("second extract still changes:\n%s", strings.Join(lines(p, root), "\n"))
	}
}
