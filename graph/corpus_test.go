package graph

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/internal/testutil"
	"github.com/upkdeps/upkdeps/search"
)

// checkIni builds the graph of the install an ini describes and checks it.
func checkIni(t *testing.T, path string) (*Graph, []Finding) {
	t.Helper()
	f, err := ini.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := search.New(f, search.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g, err := Build(context.Background(), FromSearcher(s), Options{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	fs := checkAll(t, g, CheckOptions{ServerPackages: f.ServerPackages(), EditPackages: f.EditPackages()})
	fs = append(fs, SearchFindings(s)...)
	SortFindings(fs)
	return g, fs
}

func countKinds(fs []Finding) map[FindingKind]int {
	m := map[FindingKind]int{}
	for _, f := range fs {
		m[f.Kind]++
	}
	return m
}

func TestCorpusUT99(t *testing.T) {
	g, fs := checkIni(t, testutil.CorpusFile(t, "adrak0__ut99/System/UnrealTournament.ini"))
	t.Logf("adrak0 UT99: %d packages, findings by kind %v", len(g.Packages()), countKinds(fs))
	missing := map[string]Finding{}
	for _, f := range findingsOf(fs, MissingPackage) {
		missing[strings.ToLower(f.Package)] = f
	}
	for _, want := range []string{"botpack", "unrealshare", "unreali"} {
		f, ok := missing[want]
		if !ok || len(f.NeededBy) == 0 {
			t.Errorf("missing_package %s not reported with importers (have %+v)", want, f)
		}
	}
	for _, f := range findingsOf(fs, MissingObject) {
		if strings.EqualFold(f.Package, "Core") || strings.EqualFold(f.Package, "Engine") {
			t.Errorf("false alarm: missing_object against %s: %v", f.Package, f.Objects)
		}
	}
	found := false
	for _, f := range findingsOf(fs, ClassMismatch) {
		for _, o := range f.Objects {
			// A mod built against v436 on the v469 Engine: v469's
			// linker maps the import, so a warning naming the importer.
			if strings.HasPrefix(o.String(), "Engine.Actor.Touching: imported as Core.ObjectProperty, exported as Core.ArrayProperty") &&
				f.Package == "swJumpPad" && f.Severity == Warning && strings.Contains(f.Message, "v469") {
				found = true
			}
		}
	}
	if !found {
		t.Errorf("no class_mismatch for swJumpPad's Engine.Actor.Touching: %+v", findingsOf(fs, ClassMismatch))
	}
}

func TestCorpusModSet(t *testing.T) {
	corpus := testutil.Corpus(t)
	mods := filepath.Join(corpus, "1337GameDev__Ut99Mods")
	ut := filepath.Join(corpus, "adrak0__ut99")
	if _, err := os.Stat(mods); err != nil {
		t.Skip("1337GameDev__Ut99Mods not in the corpus")
	}
	dir := filepath.Join(t.TempDir(), "System")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	text := "[Core.System]\n"
	for _, p := range []string{mods + "/System/*.u", mods + "/Maps/*.unr", mods + "/Sounds/*.uax",
		ut + "/System/*.u", ut + "/Textures/*.utx", ut + "/Sounds/*.uax", ut + "/Music/*.umx"} {
		text += "Paths=" + filepath.ToSlash(p) + "\n"
	}
	iniPath := filepath.Join(dir, "Mods.ini")
	if err := os.WriteFile(iniPath, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	g, fs := checkIni(t, iniPath)
	t.Logf("1337GameDev mod set: %d packages, findings by kind %v", len(g.Packages()), countKinds(fs))
	var lgd, halo *Finding
	for i, f := range fs {
		switch {
		case f.Kind == MissingPackage && f.Package == "LGDUtilities":
			lgd = &fs[i]
		case f.Kind == MissingObject && strings.EqualFold(f.Package, "HaloAnnouncer"):
			halo = &fs[i]
		}
	}
	if lgd == nil || len(lgd.NeededBy) == 0 {
		t.Errorf("LGDUtilities not reported missing: %+v", findingsOf(fs, MissingPackage))
	} else {
		t.Logf("LGDUtilities needed by %d packages: %v", len(lgd.NeededBy), lgd.NeededBy)
	}
	if halo == nil || !strings.Contains(halo.Message, "are classes, but ") || !strings.HasSuffix(halo.Message, "HaloAnnouncer.uax is a sound package") {
		t.Errorf("HaloAnnouncer: have %+v, want missing classes from a sound package", halo)
	} else {
		t.Logf("HaloAnnouncer: %s (%d objects)", halo.Message, len(halo.Objects))
	}
}

// TestCorpusMakeIni loads the real make.ini files and validates their
// EditPackages against the corpus' stock UT99 packages.
func TestCorpusMakeIni(t *testing.T) {
	corpus := testutil.Corpus(t)
	makes, _ := filepath.Glob(filepath.Join(corpus, "EliotVU__Unreal-Library", "Test", "upk", "*", "make.ini"))
	if len(makes) == 0 {
		t.Skip("no make.ini in the corpus")
	}
	dir := filepath.Join(t.TempDir(), "System")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	stock := filepath.ToSlash(filepath.Join(corpus, "adrak0__ut99", "System")) + "/*.u"
	if err := os.WriteFile(filepath.Join(dir, "Stock.ini"), []byte("[Core.System]\nPaths="+stock+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g, _ := checkIni(t, filepath.Join(dir, "Stock.ini"))
	for _, m := range makes {
		f, err := ini.Load(m)
		if err != nil {
			t.Errorf("%s: %v", m, err)
			continue
		}
		edit := f.EditPackages()
		src, err := g.ScanSources(context.Background(), filepath.Dir(filepath.Dir(m)), edit, nil)
		if err != nil {
			t.Fatal(err)
		}
		res := g.CheckEditPackages(edit, OrderOptions{Sources: src})
		if !res.Valid || len(edit) != 3 || !slices.Equal(res.Suggested, edit) {
			t.Errorf("%s: EditPackages %v: valid %v, suggested %v, findings %+v", m, edit, res.Valid, res.Suggested, res.Findings)
		}
		t.Logf("%s: EditPackages %v valid, %d constraints", filepath.Base(filepath.Dir(m)), edit, len(res.Constraints))
	}
}

// TestCorpusEngineCompat keeps engineCompats honest: each v469
// compatibility names an import its Core binary handles, so the 469 Core
// (PE: UTF-16 strings; ELF: UTF-32) must hold the import's full name and
// the compatibility entry points.
func TestCorpusEngineCompat(t *testing.T) {
	dir := testutil.CorpusFile(t, "OldUnreal__UnrealTournamentPatches/System")
	wide := func(s string, width int) []byte {
		var b []byte
		for _, r := range s {
			b = append(b, byte(r))
			b = append(b, make([]byte, width-1)...)
		}
		return b
	}
	for file, width := range map[string]int{"Core.dll": 2, "Core.so": 4} {
		data, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range engineCompats {
			for _, s := range []string{c.pkg + "." + c.path, "CheckExportCompat", "ArrayCompatSave"} {
				if !bytes.Contains(data, wide(s, width)) {
					t.Errorf("%s does not name %s", file, s)
				}
			}
		}
	}
}
