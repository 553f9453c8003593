package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

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
	for _, tc := range []struct{ ini, want string }{
		{empty, "no Paths in [Core.System]"},
		{nowhere, "its Paths (../Nowhere/*.u, ../System/*.u) match no package file"},
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
func checkJSON(t *testing.T, args ...string) (checkReport, int) {
	t.Helper()
	out, errOut, code := runCLI(t, append([]string{"check", "--json", "--no-progress"}, args...)...)
	var rep checkReport
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
	link := func(from, to string) {
		if err := os.Symlink(from, to); err != nil {
			t.Skipf("symlinks: %v", err)
		}
	}
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
	kinds := func(r checkReport) []string {
		var out []string
		for _, f := range r.Findings {
			out = append(out, f.Kind+" "+f.Package)
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
	var nat nativesReport
	if err := json.Unmarshal([]byte(out), &nat); err != nil {
		t.Fatal(err)
	}
	got := map[string]nativePackage{}
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
