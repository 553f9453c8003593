package check

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/install"
	"github.com/upkdeps/upkdeps/internal/testutil"
)

// The five UnrealScript trees of the corpus that build in their ini's
// EditPackages order (../shared/corpus/README.md, "UnrealScript source
// trees: code that builds"): any unknown_class, edit_order or cycle that
// order reports on them is false.

// orderOf runs what `order` runs on the ini: the graph of the install,
// its native classes, its sources, CheckEditPackages (install.Install.Order).
func orderOf(t *testing.T, iniPath string) graph.OrderResult {
	t.Helper()
	in, err := install.Open(install.Options{Ini: iniPath})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	g, err := in.Graph(ctx, install.GraphOptions{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	res, _, err := in.Order(ctx, g, false)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// checkBuilds fails on every unknown_class, edit_order and cycle finding
// and on an order that is not valid.
func checkBuilds(t *testing.T, res graph.OrderResult) {
	t.Helper()
	for _, f := range res.Findings {
		if f.Kind == graph.UnknownClass || f.Kind == graph.EditOrder || f.Kind == graph.Cycle {
			t.Errorf("%s %s %s: %s (%s)", f.Severity, f.Kind, f.Package, f.Message, strings.Join(f.Chain, " | "))
		}
	}
	if !res.Valid {
		t.Errorf("order not valid on a tree that builds: %s", res.Verdict)
	}
	t.Logf("%s; %d of %d entries checked; note: %+v", res.Verdict, res.Checked, res.Checked+len(res.Unchecked), res.UncheckedNames)
}

// TestCorpusTreeUT2004: UT2004 (3369 era) builds; every name is checked.
func TestCorpusTreeUT2004(t *testing.T) {
	res := orderOf(t, testutil.CorpusFile(t, "jmarshall23__Unreal2004/System/Default.ini"))
	checkBuilds(t, res)
	if res.UncheckedNames != nil || res.Checked != 33 {
		t.Errorf("UT2004's tree is read in full: %d checked, note %+v", res.Checked, res.UncheckedNames)
	}
}

// TestCorpusTreeUT99v469: UT99 469e builds (var GUID X is Object's
// struct). Editor's native-only TransBuffer is a class no table of UT99
// lists (the 469 table has no Editor.dll): that one name is unchecked.
func TestCorpusTreeUT99v469(t *testing.T) {
	res := orderOf(t, testutil.CorpusFile(t, "FriskTheFallenHuman__OldUnreal-UnrealScript/System/UnrealTournament.ini"))
	checkBuilds(t, res)
	if u := res.UncheckedNames; u == nil || !slices.Equal(u.NoNatives, []string{"Editor"}) || len(u.NoSources) != 0 || u.Names != 1 {
		t.Errorf("note: %+v, want Editor's natives, 1 name", u)
	}
}

// TestCorpusTreeUnreal227: Unreal 227 builds: its specifiers and types,
// extends Object extends FExec, cppbitmask, and FireTexture's struct
// Spark, which is no dependency of Fire on UnrealShare (the class Spark).
func TestCorpusTreeUnreal227(t *testing.T) {
	res := orderOf(t, testutil.CorpusFile(t, "OldUnreal__Unreal-PubSrc/System/Unreal.ini"))
	checkBuilds(t, res)
	for _, c := range res.Constraints {
		if strings.EqualFold(c.Package, "Fire") && strings.EqualFold(c.On, "UnrealShare") {
			t.Errorf("Fire needs UnrealShare: %s", c.Evidence)
		}
	}
	// No table of Unreal 227 exists: its natives are UT99's, a guess.
	// class'Engine.Language' (UMenu) names a class that Engine's script
	// does not declare and UT99's table puts in Core.
	if u := res.UncheckedNames; u == nil || !slices.Equal(u.NoNatives, []string{"Engine"}) || u.Names != 1 {
		t.Errorf("note: %+v", u)
	}
}

// TestCorpusTreeRedOrchestra: RO's sources (UT2004-based) have no
// unknown class. The tail of its ini is reconstructed, so an edit_order
// there would be no oracle; there is none either.
func TestCorpusTreeRedOrchestra(t *testing.T) {
	res := orderOf(t, testutil.CorpusFile(t, "Har99m__Red-Orchestra-Ostfront-41-45-Source-Code/System/RedOrchestra.ini"))
	checkBuilds(t, res)
}

// TestCorpusTreeDeusEx: the Deus Ex mod builds against retail packages
// that are not here: no unknown_class for Abs, ButtonWindow, ConEvent...,
// one note naming the entries not read.
func TestCorpusTreeDeusEx(t *testing.T) {
	res := orderOf(t, testutil.CorpusFile(t, "michaeljhkim__Deus-Ex-Modernization-Update/System/Default.ini"))
	checkBuilds(t, res)
	u := res.UncheckedNames
	if u == nil || len(u.NoSources) < 2 || u.NoSources[0] != "Core" || u.NoSources[1] != "Engine" || u.Names == 0 {
		t.Fatalf("note: %+v", u)
	}
	if !strings.HasPrefix(u.Message, "Core, Engine, ") || !strings.Contains(u.Message, " have neither sources nor a .u") {
		t.Errorf("message %q", u.Message)
	}
}

// TestCorpusDeletedClass: the check still finds what it must. On a copy
// of the UT2004 tree without UnrealGame's SquadAI.uc (a script class,
// no struct or enum of its own, used as a type in 60-odd lines), exactly
// the names only that file declared are unknown: the class SquadAI
// (also written UnrealGame.SquadAI) and its variable SquadObjective,
// which a subclass reads as SquadObjective.Default.X; and the
// subclasses' "extends SquadAI" fails order.
func TestCorpusDeletedClass(t *testing.T) {
	src := testutil.CorpusFile(t, "jmarshall23__Unreal2004")
	dst := filepath.Join(t.TempDir(), "UT2004")
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !hasExt(path, ".uc", ".ini", ".upkg") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dst, "UnrealGame", "Classes", "SquadAI.uc")); err != nil {
		t.Fatal(err)
	}
	res := orderOf(t, filepath.Join(dst, "System", "Default.ini"))
	var names []string
	extends := false
	for _, f := range res.Findings {
		if f.Kind != graph.UnknownClass {
			continue
		}
		for _, o := range graph.ObjectStrings(f.Objects) {
			if _, class, ok := strings.Cut(o, "."); ok && strings.HasPrefix(o, "UnrealGame.") {
				o = class
			}
			names = append(names, o)
		}
		if f.Severity != graph.Error {
			t.Errorf("%s: %s, want an error (no .u: ucc make rebuilds it)", f.Message, f.Severity)
		}
		for _, l := range f.Chain {
			extends = extends || strings.Contains(l, "extends SquadAI")
		}
	}
	slices.Sort(names)
	names = slices.Compact(names)
	if !slices.Equal(names, []string{"SquadAI", "SquadObjective"}) || !extends {
		t.Errorf("unknown_class names %q (a subclass's extends among them: %v), want [SquadAI SquadObjective]", names, extends)
	}
	if res.Valid || res.UncheckedNames != nil {
		t.Errorf("valid %v (%s), note %+v", res.Valid, res.Verdict, res.UncheckedNames)
	}
}

func hasExt(path string, exts ...string) bool {
	return slices.ContainsFunc(exts, func(e string) bool { return strings.EqualFold(filepath.Ext(path), e) })
}
