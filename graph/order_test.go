package graph

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/native"
)

// natives returns a Set of one table: "Pkg.Class" entries.
func natives(classes ...string) *native.Set {
	t := &native.Table{Name: "test", Game: "test", Generation: 1, Packages: map[string][]string{}}
	for _, c := range classes {
		pkg, class, _ := strings.Cut(c, ".")
		t.Packages[pkg] = append(t.Packages[pkg], class)
	}
	s := native.NewSet()
	s.AddTable(t)
	return s
}

func kindsOf(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, string(f.Severity)+" "+string(f.Kind)+" "+f.Package)
	}
	return out
}

// TestNativeOnlyMakesNoOrderEdge: a licensee Core.u importing Engine.Sound,
// a class only Engine's binary registers, makes neither a cycle nor an
// order constraint; the edge stays a load dependency. An import of a
// class Engine.u exports does make both.
func TestNativeOnlyMakesNoOrderEdge(t *testing.T) {
	nat := natives("Core.Object", "Core.Class", "Engine.Actor", "Engine.Sound", "Engine.Level")
	edit := []string{"Core", "Engine"}
	for _, tc := range []struct {
		name  string
		core  []string // Core.u's imports
		want  []string // findings of Check
		order []string // findings of CheckEditPackages
	}{
		// The member below the native-only class cannot be known: a
		// warning, and still no order edge.
		{"native-only", []string{"Engine.Sound:Core.Class", "Engine.Sound.SomeProp:Core.IntProperty"}, []string{"warning native_unknown Engine"}, nil},
		{"scripted class", []string{"Engine.Actor:Core.Class"},
			[]string{"warning cycle Core", "warning edit_order Core"}, []string{"warning cycle Core", "warning edit_order Core"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := build(t, []pkgSpec{
				{file: "Core.u", exports: []string{"Object:Class"}, imports: tc.core},
				{file: "Engine.u", exports: []string{"Actor:Class"}, imports: []string{"Core.Object:Core.Class"}},
			})
			if g.Edge(g.Package("Core"), g.Package("Engine")) == nil || len(g.Cycles()) != 1 {
				t.Fatal("the import is no load dependency any more")
			}
			if have, want := len(g.BuildCycles(nat)), len(tc.order)/2; have != want {
				t.Errorf("BuildCycles: %d cycles, want %d", have, want)
			}
			fs := checkAll(t, g, CheckOptions{EditPackages: edit, Natives: nat})
			if have := kindsOf(fs); !slices.Equal(have, tc.want) {
				t.Errorf("Check: have %q, want %q", have, tc.want)
			}
			res := g.CheckEditPackages(edit, OrderOptions{Natives: nat})
			if have := kindsOf(res.Findings); !slices.Equal(have, tc.order) {
				t.Errorf("CheckEditPackages: have %q, want %q", have, tc.order)
			}
			if res.Checked != 2 || !res.Valid {
				t.Errorf("checked %d valid %v, want 2 true", res.Checked, res.Valid)
			}
		})
	}
}

// TestOrderSeverityFollowsRebuild: a violation or cycle is an error only
// when ucc make rebuilds a package involved (its .u missing, sources
// present), or with Clean.
func TestOrderSeverityFollowsRebuild(t *testing.T) {
	srcDeps := map[string][]OrderDep{
		"a": {{Package: "A", On: "B", Evidence: "A/Classes/A.uc:1: class A extends B;", Source: "source"}},
		"b": {{Package: "B", On: "A", Evidence: "B/Classes/B.uc:3: var A.AThing X;", Source: "source"}},
	}
	for _, tc := range []struct {
		name    string
		files   []string // compiled packages present
		clean   bool
		sev     Severity
		rebuilt []string
	}{
		{"both compiled", []string{"A.u", "B.u"}, false, Warning, []string{}},
		{"both compiled, clean", []string{"A.u", "B.u"}, true, Error, []string{"A", "B"}},
		{"A rebuilt", []string{"B.u"}, false, Error, []string{"A"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var specs []pkgSpec
			for _, f := range tc.files {
				specs = append(specs, pkgSpec{file: f, exports: []string{strings.TrimSuffix(f, ".u") + ":Class"}})
			}
			g := build(t, specs)
			res := g.CheckEditPackages([]string{"A", "B"}, OrderOptions{Sources: &Sources{deps: srcDeps}, Clean: tc.clean})
			cy := findingsOf(res.Findings, Cycle)
			if len(cy) != 1 || cy[0].Severity != tc.sev || res.Valid != (tc.sev == Warning) || !reflect.DeepEqual(res.Rebuilt, tc.rebuilt) {
				t.Fatalf("have findings %+v valid %v rebuilt %v, want one %s cycle, rebuilt %v", res.Findings, res.Valid, res.Rebuilt, tc.sev, tc.rebuilt)
			}
			if tc.sev == Warning && !strings.HasPrefix(cy[0].Message, "a clean rebuild fails here: ") {
				t.Errorf("message: %s", cy[0].Message)
			}
		})
	}
}

// TestEditUnchecked: an entry with neither a compiled package nor a .uc
// is listed with the reason, and counted apart from the checked ones; a
// Classes folder holding only a .upkg is no source.
func TestEditUnchecked(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "OnlyUpkg", "Classes"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "OnlyUpkg", "Classes", "OnlyUpkg.upkg"), []byte("[Flags]\nAllowDownload=True\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g := build(t, baseSpecs)
	edit := []string{"Core", "Engine", "OnlyUpkg", "Ghost"}
	src, err := g.ScanSources(context.Background(), root, edit, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := g.CheckEditPackages(edit, OrderOptions{Sources: src})
	if res.Checked != 2 || len(res.Unchecked) != 2 || !res.Valid {
		t.Fatalf("checked %d, unchecked %+v, valid %v; want 2, 2, true", res.Checked, res.Unchecked, res.Valid)
	}
	if u := res.Unchecked[0]; u.Package != "OnlyUpkg" || !strings.Contains(u.Reason, "OnlyUpkg/Classes holds no .uc file") {
		t.Errorf("OnlyUpkg: %+v", u)
	}
	if u := res.Unchecked[1]; u.Package != "Ghost" || !strings.Contains(u.Reason, "neither a compiled package nor sources") {
		t.Errorf("Ghost: %+v", u)
	}
	if have, want := kindsOf(res.Findings), []string{"warning edit_unchecked Ghost", "warning edit_unchecked OnlyUpkg"}; !slices.Equal(have, want) {
		t.Errorf("findings: have %q, want %q", have, want)
	}
}

// TestImportPathResolves: the check resolves the whole import path, not
// only its first segment.
func TestImportPathResolves(t *testing.T) {
	nat := natives("Core.Object", "Core.NameProperty", "Engine.Actor", "Engine.Level", "XInterface.GUITitleBar")
	g := build(t, []pkgSpec{
		{file: "Core.u", exports: []string{"Object:Class"}},
		{file: "Engine.u", exports: []string{"Actor:Class", "Actor.Tag:Core.NameProperty"}, imports: []string{"Core.Object:Core.Class"}},
		{file: "XInterface.u", exports: []string{"GUITitleBar:Class"}, imports: []string{"Engine.Actor:Core.Class"}},
		{file: "Mod.u", exports: []string{"M:Class"}, imports: []string{
			"Engine.Actor.Tag:Core.NameProperty",              // exported
			"Engine.Actor.ESoundSlot:Core.Enum",               // below an exported class: missing
			"XInterface.GUITitleBar.Caption:Core.StrProperty", // likewise
			"Engine.Level:Core.Class",                         // native-only
			"Engine.Level.TimeSeconds:Core.FloatProperty",     // below it: unknown
		}},
	})
	fs := checkAll(t, g, CheckOptions{ServerPackages: []string{"Mod"}, Natives: nat})
	var have []string
	for _, f := range fs {
		have = append(have, string(f.Severity)+" "+string(f.Kind)+" "+strings.Join(ObjectStrings(f.Objects), ","))
	}
	want := []string{
		"error missing_object Engine.Actor.ESoundSlot (Core.Enum)",
		"error missing_object XInterface.GUITitleBar.Caption (Core.StrProperty)",
		"warning native_unknown Engine.Level.TimeSeconds (Core.FloatProperty)",
	}
	if !slices.Equal(have, want) {
		t.Errorf("have %q\nwant %q", have, want)
	}
	for _, f := range findingsOf(fs, NativeUnknown) {
		if !strings.Contains(f.Message, "member(s) of native-only classes") {
			t.Errorf("native_unknown message: %s", f.Message)
		}
	}
}

// TestServerSideOnlyStock: retail UT99's Announcer.uax carries the
// ServerSideOnly flag, but every client has it: a map importing from it
// leaks nothing. A mod package with the flag still does.
func TestServerSideOnlyStock(t *testing.T) {
	g := build(t, append(slices.Clone(baseSpecs),
		pkgSpec{file: "Announcer.uax", flags: format.FlagServerSideOnly, exports: []string{"Count1:Engine.Sound"}},
		pkgSpec{file: "LadderSounds.uax", flags: format.FlagServerSideOnly, exports: []string{"Step:Engine.Sound"}},
		pkgSpec{file: "ModSSO.u", flags: format.FlagServerSideOnly, exports: []string{"Thing:Class"}},
		pkgSpec{file: "DM-Map.unr", exports: []string{"MyLevel:Engine.Level"}, imports: []string{"Announcer.Count1:Engine.Sound", "LadderSounds.Step:Engine.Sound", "ModSSO.Thing:Core.Class"}},
	))
	var have []string
	for _, f := range findingsOf(checkAll(t, g, CheckOptions{}), ServerSideOnly) {
		have = append(have, f.Package)
	}
	if want := []string{"ModSSO"}; !slices.Equal(have, want) {
		t.Errorf("server_side_only for %q, want %q", have, want)
	}
	// With the game's own list, only that game's files are exempt: on a
	// UT2004 server a "LadderSounds" is a mod, not UT99's retail sounds
	// (both games ship an Announcer.uax).
	for _, tc := range []struct {
		game ini.Game
		want []string
	}{{ini.UT99, []string{"ModSSO"}}, {ini.UT2004, []string{"LadderSounds", "ModSSO"}}, {ini.UE1, []string{"ModSSO"}}} {
		have = nil
		for _, f := range findingsOf(checkAll(t, g, CheckOptions{Stock: ini.OwnStockOf(tc.game)}), ServerSideOnly) {
			have = append(have, f.Package)
		}
		if !slices.Equal(have, tc.want) {
			t.Errorf("%s: server_side_only for %q, want %q", tc.game, have, tc.want)
		}
	}
}

// TestNoTableNoBinary: a class the ini names, or a package imports, from a
// package with no binary here and no table is native_unknown when the
// package file has native classes (its module may register it), and
// missing_object when it has none (a script package registers nothing).
func TestNoTableNoBinary(t *testing.T) {
	g := build(t, append(slices.Clone(baseSpecs),
		pkgSpec{file: "LicGame.u", exports: []string{"Helper:Class"}, native: []string{"LicActor"}},
		pkgSpec{file: "ScriptMod.u", exports: []string{"Helper:Class"}},
		pkgSpec{file: "User.u", exports: []string{"U:Class"}, imports: []string{"LicGame.LicNetDriver:Core.Class", "ScriptMod.Gone:Core.Class"}},
	))
	fs := checkAll(t, g, CheckOptions{ServerPackages: []string{"User"}, Natives: natives("Core.Object", "Core.ArrayProperty", "Engine.Actor")})
	var have []string
	for _, f := range fs {
		have = append(have, string(f.Severity)+" "+string(f.Kind)+" "+strings.Join(ObjectStrings(f.Objects), ","))
	}
	want := []string{"error missing_object ScriptMod.Gone (Core.Class)", "warning native_unknown LicGame.LicNetDriver (Core.Class)"}
	if !slices.Equal(have, want) {
		t.Errorf("have %q\nwant %q", have, want)
	}
}

// TestUpkgWithoutSources: a .upkg that builds a package ServerSideOnly is
// read when no entry has sources (the class index is then not made): a
// package clients load is warned about, one they do not is not.
func TestUpkgWithoutSources(t *testing.T) {
	root := t.TempDir()
	for _, n := range []string{"SSOLoaded", "SSOServer"} {
		if err := os.MkdirAll(filepath.Join(root, n, "Classes"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, n, "Classes", n+".upkg"), []byte("[Flags]\nServerSideOnly=True\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g := build(t, baseSpecs)
	edit := []string{"Core", "Engine", "SSOLoaded", "SSOServer"}
	src, err := g.ScanSources(context.Background(), root, edit, nil)
	if err != nil {
		t.Fatal(err)
	}
	fs := checkAll(t, g, CheckOptions{ServerPackages: []string{"SSOLoaded"}, EditPackages: edit, Sources: src})
	var have []string
	for _, f := range findingsOf(fs, ServerSideOnly) {
		have = append(have, string(f.Severity)+" "+f.Package+": "+f.Message)
	}
	want := []string{"warning SSOLoaded: SSOLoaded will be built ServerSideOnly (its SSOLoaded.upkg says so), but clients load it: they will never be sent it"}
	if !slices.Equal(have, want) {
		t.Errorf("server_side_only: have %q, want %q", have, want)
	}
}

// TestEditOrderOneAbsent: an entry that uses one listed after it, whose
// .u is absent and which has no sources: the warning says so, and never
// that both .u files exist.
func TestEditOrderOneAbsent(t *testing.T) {
	g := build(t, append(slices.Clone(baseSpecs),
		pkgSpec{file: "ModA.u", exports: []string{"A:Class"}, imports: []string{"ModB.B:Core.Class", "Engine.Actor:Core.Class"}},
		pkgSpec{file: "ModC.u", exports: []string{"C:Class"}, imports: []string{"ModD.D:Core.Class", "Engine.Actor:Core.Class"}},
		pkgSpec{file: "ModD.u", exports: []string{"D:Class"}, imports: []string{"Engine.Actor:Core.Class"}}))
	res := g.CheckEditPackages([]string{"Core", "Engine", "ModA", "ModB", "ModC", "ModD"}, OrderOptions{})
	var have []string
	for _, f := range findingsOf(res.Findings, EditOrder) {
		have = append(have, string(f.Severity)+": "+f.Message)
	}
	want := []string{
		"warning: a clean rebuild fails here: ModA (position 3) uses ModB, which is listed after it (position 4); ucc make rebuilds neither now: " +
			"ModB has no readable .u and no sources, so nothing builds it (ModA.u is there)",
		"warning: a clean rebuild fails here: ModC (position 5) uses ModD, which is listed after it (position 6); ucc make rebuilds neither while both .u files exist",
	}
	if !slices.Equal(have, want) {
		t.Errorf("have %q\nwant %q", have, want)
	}
}
