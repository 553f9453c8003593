package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/check"
	"github.com/upkdeps/upkdeps/install"
	"github.com/upkdeps/upkdeps/internal/demo"
	"github.com/upkdeps/upkdeps/internal/testutil"
)

// TestNothingToScan: an empty ini, or Paths that match no package, is an
// operational error (exit 2) naming the ini, never "No problems found".
func TestNothingToScan(t *testing.T) {
	dir := t.TempDir()
	sys := filepath.Join(dir, "System")
	if err := os.MkdirAll(sys, 0o755); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(sys, "Empty.ini")
	nowhere := filepath.Join(sys, "Nowhere.ini")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(nowhere, []byte("[Core.System]\nPaths=../Nowhere/*.u\nPaths=../System/*.u\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A source tree whose Classes folder holds only a .upkg has nothing
	// to build or check either.
	upkgOnly := filepath.Join(sys, "UpkgOnly.ini")
	if err := os.WriteFile(upkgOnly, []byte("[Core.System]\nPaths=../System/*.u\n[Editor.EditorEngine]\nEditPackages=MyMod\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "MyMod", "Classes"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "MyMod", "Classes", "MyMod.upkg"), []byte("[Flags]\nAllowDownload=True\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ ini, want string }{
		{empty, "no Paths in [Core.System]"},
		{nowhere, "its Paths (../Nowhere/*.u, ../System/*.u) match no package file"},
		{upkgOnly, "its Paths (../System/*.u) match no package file: nothing to check (is this the game's ini, in its System folder?); no sources either: MyMod/Classes hold(s) no .uc file"},
	} {
		for _, args := range [][]string{{"check"}, {"graph"}, {"order"}, {"deps", "Core"}, {"check", "--json"}} {
			out, errOut, code := runCLI(t, append(args, "--ini", tc.ini, "--no-progress")...)
			if code != 2 || !strings.Contains(errOut, tc.want) || !strings.Contains(errOut, tc.ini) || out != "" {
				t.Errorf("%s %v: exit %d, stdout %q, stderr %q; want exit 2 naming the ini and %q", filepath.Base(tc.ini), args, code, out, errOut, tc.want)
			}
		}
	}
}

// checkJSON runs check --json and decodes the report.
func checkJSON(t *testing.T, args ...string) (check.Report, int) {
	t.Helper()
	out, errOut, code := runCLI(t, append([]string{"check", "--json", "--no-progress"}, args...)...)
	var rep check.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("check %v: %v\nstderr: %s", args, err, errOut)
	}
	return rep, code
}

// TestCorpusIniRoots: adrak0's ServerPackages MultiMesh, Relics and De
// resolve only ignoring case (multimesh.u, relics.u, de.u), and say so
// with their ini lines.
func TestCorpusIniRoots(t *testing.T) {
	iniPath := testutil.CorpusFile(t, "adrak0__ut99/System/UnrealTournament.ini")
	rep, code := checkJSON(t, "--ini", iniPath)
	if code != 1 {
		t.Errorf("exit %d", code)
	}
	for _, name := range []string{"MultiMesh", "Relics", "De"} {
		found := false
		for _, f := range rep.Findings {
			if f.Kind == "case_mismatch" && strings.EqualFold(f.Package, name) {
				found = len(f.Roots) == 1 && strings.HasSuffix(f.Roots[0], " ServerPackages="+name) &&
					strings.HasPrefix(f.Roots[0], "UnrealTournament.ini:") && f.Chain[0] == f.Roots[0]
			}
		}
		if !found {
			t.Errorf("no case_mismatch with its ini line for ServerPackages=%s", name)
		}
	}
}

// TestCorpusNativeBinaries places the UT99 v469 binaries beside adrak0's
// packages: the native classes come from them (Render.Render resolves
// through Render.dll although there is no Render.u), and no Core or Engine
// class is unknown.
func TestCorpusNativeBinaries(t *testing.T) {
	c := testutil.Corpus(t)
	bins, _ := filepath.Glob(filepath.Join(c, "OldUnreal__UnrealTournamentPatches", "System", "*.[ds][lo]*"))
	if len(bins) == 0 {
		t.Skip("no UT99 v469 binaries in the corpus")
	}
	root := t.TempDir()
	sys := filepath.Join(root, "System")
	if err := os.MkdirAll(sys, 0o755); err != nil {
		t.Fatal(err)
	}
	link := func(from, to string) { testutil.Symlink(t, from, to) }
	files, _ := filepath.Glob(filepath.Join(c, "adrak0__ut99", "System", "*"))
	for _, f := range files {
		link(f, filepath.Join(sys, filepath.Base(f)))
	}
	for _, d := range []string{"Maps", "Textures", "Sounds", "Music"} {
		link(filepath.Join(c, "adrak0__ut99", d), filepath.Join(root, d))
	}
	for _, b := range bins {
		_ = os.Remove(filepath.Join(sys, filepath.Base(b)))
		link(b, filepath.Join(sys, filepath.Base(b)))
	}
	iniPath := filepath.Join(sys, "UnrealTournament.ini")
	rep, _ := checkJSON(t, "--ini", iniPath)
	without, _ := checkJSON(t, "--ini", testutil.CorpusFile(t, "adrak0__ut99/System/UnrealTournament.ini"))
	kinds := func(r check.Report) []string {
		var out []string
		for _, f := range r.Findings {
			out = append(out, string(f.Kind)+" "+f.Package)
		}
		return out
	}
	have := kinds(rep)
	if !slices.Contains(kinds(without), "missing_package Render") || slices.Contains(have, "missing_package Render") {
		t.Errorf("Render.Render: want missing without the binaries and found with them; have %q", have)
	}
	for _, f := range rep.Findings {
		if (f.Kind == "native_unknown" || f.Kind == "missing_object") && (f.Package == "Core" || f.Package == "Engine") {
			t.Errorf("with the 469 binaries: %+v", f)
		}
	}
	out, _, code := runCLI(t, "natives", "--ini", iniPath, "--json")
	if code != 0 {
		t.Fatalf("natives: exit %d", code)
	}
	var nat check.Natives
	if err := json.Unmarshal([]byte(out), &nat); err != nil {
		t.Fatal(err)
	}
	got := map[string]check.NativePackage{}
	for _, p := range nat.Packages {
		got[p.Package] = p
	}
	if p := got["udemo"]; p.Source.Kind != "binary" || !slices.Contains(p.Classes, "uDemoDriver") {
		t.Errorf("udemo: %+v", p)
	}
	if p := got["Core"]; p.Source.Kind != "binary" || len(p.Classes) != 36 || !slices.Contains(p.Classes, "PointerProperty") ||
		!slices.Contains(p.NativeOnly, "PointerProperty") || slices.Contains(p.NativeOnly, "Object") {
		t.Errorf("Core: %d classes from %+v, native-only %q", len(p.Classes), p.Source, p.NativeOnly)
	}
	if p := got["Engine"]; len(p.Classes) != 103 {
		t.Errorf("Engine: %d classes, want 103", len(p.Classes))
	}
}

// TestWhyRdepsIni: why without FROM starts at the ini line or map that
// leads to the package, and rdeps lists the ini lines that need it.
func TestWhyRdepsIni(t *testing.T) {
	chdirDemo(t)
	for _, tc := range []struct {
		golden string
		code   int
		args   []string
	}{
		{"why-root-demo.txt", exitOK, []string{"why", "DemoSnd"}},
		{"why-root-demo.json", exitOK, []string{"why", "--json", "DemoStats"}},
		{"why-map-demo.txt", exitOK, []string{"why", "DM-Demo"}},
		{"rdeps-ini-demo.txt", exitOK, []string{"rdeps", "DemoBase"}},
		{"rdeps-ini-demo.json", exitOK, []string{"rdeps", "--json", "DemoBase", "--depth", "1"}},
		{"natives-demo.txt", exitOK, []string{"natives"}},
	} {
		out, errOut, code := runCLI(t, append(tc.args, "--ini", demo.Ini, "--no-progress")...)
		if code != tc.code {
			t.Errorf("%v: code %d, want %d (stderr %q)", tc.args, code, tc.code, errOut)
		}
		golden(t, tc.golden, out)
	}
}

// TestOrderNativeOnlyClass: a UE2 source tree before its first build (no
// package file at all) whose Core declares a variable of Engine's
// native-only class Sound, as UE2's Object.uc does. ucc make has every
// class the modules register from the start, so Core first is valid:
// no Core <-> Engine cycle, no edit_order.
func TestOrderNativeOnlyClass(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"System/UT2004.ini": "[Core.System]\nPaths=../System/*.u\n[Editor.EditorEngine]\nEditPackages=Core\nEditPackages=Engine\n",
		"Core/Classes/Object.uc": "class Object native;\nvar native const int ObjectInternal[6];\nvar() sound Sound;\n" +
			"function PlaySoundOf(Engine.Sound S) {}\n",
		"Engine/Classes/Actor.uc": "class Actor extends Object native;\nvar Level XLevel;\nvar Sound AmbientSound;\n",
	}
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	iniPath := filepath.Join(root, "System", "UT2004.ini")
	out, errOut, code := runCLI(t, "order", "--ini", iniPath, "--game", "ut2004", "--json")
	var rep struct {
		Valid       bool `json:"valid"`
		Constraints []struct {
			Package, On string
		} `json:"constraints"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\nstderr %s", err, errOut)
	}
	if code != 0 || !rep.Valid {
		t.Errorf("exit %d, valid %v: %s", code, rep.Valid, out)
	}
	for _, c := range rep.Constraints {
		if c.Package == "Core" {
			t.Errorf("Core must depend on nothing: %+v", c)
		}
	}
	// Engine's own subclass of Object still needs Core.
	if !slices.ContainsFunc(rep.Constraints, func(c struct{ Package, On string }) bool { return c.Package == "Engine" && c.On == "Core" }) {
		t.Errorf("Engine -> Core missing: %+v", rep.Constraints)
	}
}

// TestOrderClean: on the demo install DemoGame uses DemoBase, listed after
// it; both .u exist, so ucc make rebuilds neither and it is a warning, but
// --clean (every entry rebuilt) makes it an error.
func TestOrderClean(t *testing.T) {
	chdirDemo(t)
	for _, tc := range []struct {
		clean bool
		want  string
	}{{false, "warning"}, {true, "error"}} {
		args := []string{"order", "--json", "--ini", demo.Ini}
		if tc.clean {
			args = append(args, "--clean")
		}
		out, errOut, _ := runCLI(t, args...)
		var rep install.OrderReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("%v: %v (stderr %s)", args, err, errOut)
		}
		sev := ""
		for _, f := range rep.Findings {
			if f.Kind == "edit_order" && slices.Equal(f.Packages, []string{"DemoGame", "DemoBase"}) {
				sev = string(f.Severity)
			}
		}
		if sev != tc.want || rep.Checked != 7 || (tc.clean && len(rep.Rebuilt) != 7) {
			t.Errorf("--clean=%v: DemoGame uses DemoBase: severity %q, checked %d, rebuilt %v; want %q, 7", tc.clean, sev, rep.Checked, rep.Rebuilt, tc.want)
		}
	}
}
