package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/internal/testutil"
	"github.com/upkdeps/upkdeps/uscript/header"
)

// headerTree is a small source tree with native classes in Engine.
var headerTree = map[string]string{
	"System/Game.ini":        "[Core.System]\nPaths=../System/*.u\n[Editor.EditorEngine]\nEditPackages=Core\nEditPackages=Engine\nEditPackages=Extra\n",
	"Core/Classes/Object.uc": "class Object native noexport;\nstruct Vector { var float X, Y, Z; };\n",
	"Engine/Classes/Actor.uc": "class Actor extends Object native;\nvar bool bHidden;\nvar float Mass;\nvar name Tag;\n" +
		"var vector Location;\nnative function bool Move(vector Delta);\nevent Touch(Actor Other);\n",
	"Engine/Classes/Pawn.uc": "class Pawn extends Actor native config(User);\nvar int Health;\nevent Died(Pawn Killer, name DamageType);\n",
	"Extra/Classes/Plain.uc": "class Plain extends Object;\nvar int X;\n",
}

func writeHeaderTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// runHeaders runs upkdeps headers in root and returns the output with the
// root replaced by $ROOT.
func runHeaders(t *testing.T, root string, args ...string) (string, string, int) {
	t.Helper()
	out, errOut, code := runCLI(t, append([]string{"headers"}, args...)...)
	// The root as written, with "/", and with JSON's escaped "\\".
	for _, r := range []string{strings.ReplaceAll(root, `\`, `\\`), root, filepath.ToSlash(root)} {
		out = strings.ReplaceAll(out, r, "$ROOT")
		errOut = strings.ReplaceAll(errOut, r, "$ROOT")
	}
	return out, errOut, code
}

func TestHeadersWriteAndCheck(t *testing.T) {
	root := writeHeaderTree(t, headerTree)
	hdr := filepath.Join(root, "Engine", "Inc", "EngineClasses.h")

	out, _, code := runHeaders(t, root, "--root", root, "Core", "Engine", "Extra", "--dry-run")
	if code != exitOK || !strings.Contains(out, "Engine: would write Engine/Inc/EngineClasses.h (2 classes)") {
		t.Errorf("dry run: code %d\n%s", code, out)
	}
	if _, err := os.Stat(hdr); err == nil {
		t.Fatalf("--dry-run wrote %s", hdr)
	}

	out, errOut, code := runHeaders(t, root, "--root", root, "Core", "Engine", "Extra")
	if code != exitOK {
		t.Fatalf("write: code %d\n%s%s", code, out, errOut)
	}
	golden(t, "headers-write.txt", out)
	data, err := os.ReadFile(hdr)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte("class ENGINE_API APawn : public AActor\r\n{\r\npublic:\r\n    INT Health;\r\n")) {
		t.Errorf("written header (CRLF, as ucc writes):\n%s", data)
	}
	for _, p := range []string{"Core/Inc/CoreClasses.h", "Extra/Inc/ExtraClasses.h"} {
		if _, err := os.Stat(filepath.Join(root, p)); err == nil {
			t.Errorf("%s written for a package without native classes", p)
		}
	}
	// Writing again changes nothing.
	st1, _ := os.Stat(hdr)
	out, _, code = runHeaders(t, root, "--root", root, "Core", "Engine", "Extra")
	if st2, _ := os.Stat(hdr); code != exitOK || !strings.Contains(out, "0 header(s) written.") || !st1.ModTime().Equal(st2.ModTime()) {
		t.Errorf("second write: code %d\n%s", code, out)
	}

	out, _, code = runHeaders(t, root, "--ini", filepath.Join(root, "System", "Game.ini"), "--check")
	if code != exitOK || !strings.Contains(out, "All headers match their sources.") {
		t.Errorf("check after write: code %d\n%s", code, out)
	}

	// One variable added, one retyped, one moved: the check names the
	// class, the variable and the line.
	edited := strings.Replace(headerTree["Engine/Classes/Actor.uc"], "var float Mass;\nvar name Tag;\n", "var name Tag;\nvar int Mass;\nvar byte Team;\n", 1)
	if err := os.WriteFile(filepath.Join(root, "Engine", "Classes", "Actor.uc"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code = runHeaders(t, root, "--ini", filepath.Join(root, "System", "Game.ini"), "--check")
	if code != exitFindings {
		t.Errorf("check of a stale header: code %d, want %d", code, exitFindings)
	}
	golden(t, "headers-check.txt", out)
	out, _, code = runHeaders(t, root, "--ini", filepath.Join(root, "System", "Game.ini"), "--check", "--json")
	if code != exitFindings {
		t.Errorf("check --json: code %d", code)
	}
	golden(t, "headers-check.json", out)
	var rep header.SyncReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Stale != 1 || len(rep.Packages) != 3 || rep.Packages[1].Status != "stale" {
		t.Errorf("report: %+v", rep)
	}

	// Removing the header: missing.
	os.Remove(hdr)
	out, _, code = runHeaders(t, root, "--root", root, "Core", "Engine", "--check")
	if code != exitFindings || !strings.Contains(out, "Engine/Inc/EngineClasses.h is MISSING") {
		t.Errorf("missing header: code %d\n%s", code, out)
	}
}

func TestHeadersRefuseForeignFile(t *testing.T) {
	root := writeHeaderTree(t, headerTree)
	hdr := filepath.Join(root, "Engine", "Inc", "EngineClasses.h")
	os.MkdirAll(filepath.Dir(hdr), 0o755)
	if err := os.WriteFile(hdr, []byte("// my own header\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := runHeaders(t, root, "--root", root, "Core", "Engine")
	if code != exitFindings || !strings.Contains(out, "not writing Engine/Inc/EngineClasses.h: the file there is not a generated header; --force replaces it") {
		t.Errorf("foreign file: code %d\n%s", code, out)
	}
	if data, _ := os.ReadFile(hdr); string(data) != "// my own header\n" {
		t.Errorf("foreign file replaced without --force")
	}
	// --force replaces it; -o writes elsewhere; --eol lf.
	if _, _, code := runHeaders(t, root, "--root", root, "Core", "Engine", "--force"); code != exitOK {
		t.Errorf("--force: code %d", code)
	}
	out2 := t.TempDir()
	if _, _, code := runHeaders(t, root, "--root", root, "Core", "Engine", "-o", out2, "--eol", "lf"); code != exitOK {
		t.Errorf("-o: code %d", code)
	}
	data, err := os.ReadFile(filepath.Join(out2, "Engine", "Inc", "EngineClasses.h"))
	if err != nil || bytes.Contains(data, []byte("\r\n")) || !bytes.Contains(data, []byte("class ENGINE_API AActor : public UObject\n")) {
		t.Errorf("-o --eol lf: %v\n%s", err, data)
	}
}

func TestHeadersUsage(t *testing.T) {
	root := writeHeaderTree(t, headerTree)
	for _, args := range [][]string{
		{"--root", root}, // no packages
		{"--root", root, "Core", "--check", "--dry-run"},             // contradictory
		{"--root", root, "Core", "--layout", "ue9"},                  // unknown layout
		{"--root", root, "Core", "--eol", "cr"},                      // unknown line end
		{"--ini", filepath.Join(root, "System", "Game.ini"), "Nope"}, // not in EditPackages
	} {
		if _, errOut, code := runHeaders(t, root, args...); code != exitError || errOut == "" {
			t.Errorf("%v: code %d, stderr %q", args, code, errOut)
		}
	}
}

// TestHeadersCorpusUndying checks the corpus pair through the command, no
// flag given (the layout comes from the headers): the generated headers
// match the ones ucc make -h wrote.
func TestHeadersCorpusUndying(t *testing.T) {
	root := filepath.Join(testutil.Corpus(t), "l0m-dev__Undying-Renewal")
	out, errOut, code := runCLI(t, "headers", "--root", root, "--check", "--verbose", "Core", "Engine", "IpDrv")
	if code != exitOK || !strings.Contains(out, "Engine: Engine/Inc/EngineClasses.h up to date (62 classes)") ||
		!strings.Contains(out, "IpDrv: IpDrv/Inc/IpDrvClasses.h up to date (3 classes)") {
		t.Errorf("code %d\n%s%s", code, out, errOut)
	}
}

// TestHeadersCorpusUndyingModderEdit: in a copy of the corpus pair, one
// variable added to a native class is all --check reports, and the
// header written differs by that line only.
func TestHeadersCorpusUndyingModderEdit(t *testing.T) {
	root := copyPackages(t, filepath.Join(testutil.Corpus(t), "l0m-dev__Undying-Renewal"), "Core", "Engine", "IpDrv")
	modderEdit(t, root, "Pawn.uc", "float\tMeleeRange;", "Core", "Engine", "IpDrv")
}

// copyPackages copies the Classes and Inc folders of the packages of a
// source tree into a temporary folder and returns it.
func copyPackages(t *testing.T, from string, pkgs ...string) string {
	t.Helper()
	root := t.TempDir()
	for _, p := range pkgs {
		for _, sub := range []string{"Classes", "Inc"} {
			dir := filepath.Join(p, sub)
			entries, err := os.ReadDir(filepath.Join(from, dir))
			if errors.Is(err, os.ErrNotExist) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(root, dir), 0o755); err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				if !e.Type().IsRegular() {
					continue
				}
				data, err := os.ReadFile(filepath.Join(from, dir, e.Name()))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(root, dir, e.Name()), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return root
}

// TestHeadersRegisteredByHeader: without a binary, a class the existing
// header declares is one the native module registers, even when its
// script lacks native (the engine's C++ registers Engine.SavedMove): the
// check finds nothing, and writing keeps it.
func TestHeadersRegisteredByHeader(t *testing.T) {
	root := writeHeaderTree(t, headerTree)
	if _, _, code := runHeaders(t, root, "--root", root, "Core", "Engine"); code != exitOK {
		t.Fatalf("write: code %d", code)
	}
	pawn := strings.Replace(headerTree["Engine/Classes/Pawn.uc"], " native config(User)", " config(User)", 1)
	if err := os.WriteFile(filepath.Join(root, "Engine", "Classes", "Pawn.uc"), []byte(pawn), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := runHeaders(t, root, "--root", root, "Core", "Engine", "--check", "--json")
	var rep header.SyncReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if code != exitOK || len(rep.Packages) != 2 || rep.Packages[1].Status != "current" || rep.Packages[1].NativesFrom != "header" || rep.Packages[1].Classes != 2 {
		t.Errorf("code %d\n%s", code, out)
	}
	// --fresh ignores the header's order and spellings, not what it says
	// is registered; writing elsewhere reads the game's header still.
	out, _, _ = runHeaders(t, root, "--root", root, "-o", t.TempDir(), "Core", "Engine", "--dry-run", "--fresh")
	if !strings.Contains(out, "(2 classes)") {
		t.Errorf("writing elsewhere still reads the game's header: %s", out)
	}
}

// TestHeadersClassNoLongerNative: when the package's binary is there, it
// alone says which classes are registered: a class the header has but
// whose script lost its native keyword, and which the binary does not
// register, is reported at its declaration. The binary is UT99 v469's
// Engine.so from the corpus (it registers Actor and Pawn, not Gadget).
func TestHeadersClassNoLongerNative(t *testing.T) {
	so := filepath.Join(testutil.Corpus(t), "OldUnreal__UnrealTournamentPatches", "System", "Engine.so")
	files := map[string]string{"Engine/Classes/Gadget.uc": "class Gadget extends Actor native;\nvar int Charge;\n"}
	for k, v := range headerTree {
		files[k] = v
	}
	root := writeHeaderTree(t, files)
	testutil.Symlink(t, so, filepath.Join(root, "System", "Engine.so"))
	if out, _, code := runHeaders(t, root, "--root", root, "Core", "Engine"); code != exitOK || !strings.Contains(out, "(3 classes)") {
		t.Fatalf("write: code %d\n%s", code, out)
	}
	gadget := strings.Replace(files["Engine/Classes/Gadget.uc"], " native;", ";", 1)
	if err := os.WriteFile(filepath.Join(root, "Engine", "Classes", "Gadget.uc"), []byte(gadget), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := runHeaders(t, root, "--root", root, "Core", "Engine", "--check")
	want := "Engine/Classes/Gadget.uc:1: class removed: AGadget (declared without native; Engine's binary does not register it) [EngineClasses.h:"
	if code != exitFindings || !strings.Contains(out, want) {
		t.Errorf("code %d\n%s\nwant %s", code, out, want)
	}
}

// TestHeadersNoSources: a package with a header but without sources (an
// SDK's Engine) is neither checked nor rewritten, and does not fail the
// check; the mod built on it still is.
func TestHeadersNoSources(t *testing.T) {
	files := map[string]string{}
	for k, v := range headerTree {
		files[k] = v
	}
	files["Extra/Classes/ExtraActor.uc"] = "class ExtraActor extends Actor native;\nvar int Count;\n"
	root := writeHeaderTree(t, files)
	if _, _, code := runHeaders(t, root, "--root", root, "Core", "Engine", "Extra"); code != exitOK {
		t.Fatalf("write: code %d", code)
	}
	if err := os.RemoveAll(filepath.Join(root, "Engine", "Classes")); err != nil {
		t.Fatal(err)
	}
	out, _, code := runHeaders(t, root, "--root", root, "Core", "Engine", "Extra", "--check", "--verbose")
	if code != exitOK || !strings.Contains(out, "Engine: no sources (Classes/*.uc): header not generated or checked") ||
		!strings.Contains(out, "Extra: Extra/Inc/ExtraClasses.h up to date (1 classes)") {
		t.Errorf("code %d\n%s", code, out)
	}
}

// TestHeadersCompiledParent: Engine exists only as System/Engine.u (an
// SDK); the mod's header still knows its parents' ancestry and the events
// they declare.
func TestHeadersCompiledParent(t *testing.T) {
	root := writeHeaderTree(t, map[string]string{
		"Core/Classes/Object.uc": "class Object native noexport;\n",
		"Mod/Classes/ModInteraction.uc": "class ModInteraction extends Interaction native;\nvar Actor Target;\n" +
			"event Initialized();\nevent Fresh(Actor Other);\n",
	})
	b := format.NewBuilder(69, 0)
	object := b.ImportPath("Core.Object", "Core", "Class")
	fn := b.ImportPath("Core.Function", "Core", "Class")
	b.Export(0, "Actor", 0, object, 100)
	inters := b.Export(0, "Interactions", 0, object, 10)
	inter := b.Export(0, "Interaction", 0, inters, 10)
	b.Export(inter, "Initialized", fn, 0, 10)
	os.MkdirAll(filepath.Join(root, "System"), 0o755)
	if err := format.WriteFile(filepath.Join(root, "System", "Engine.u"), b.File); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runHeaders(t, root, "--root", root, "Core", "Engine", "Mod")
	if code != exitOK {
		t.Fatalf("code %d\n%s%s", code, out, errOut)
	}
	data, err := os.ReadFile(filepath.Join(root, "Mod", "Inc", "ModClasses.h"))
	if err != nil {
		t.Fatal(err)
	}
	got := string(data)
	if !strings.Contains(got, "class MOD_API UModInteraction : public UInteraction") || !strings.Contains(got, "class AActor* Target;") ||
		!strings.Contains(got, "eventFresh(class AActor* Other)") || strings.Contains(got, "eventInitialized") {
		t.Errorf("ModClasses.h:\n%s", got)
	}
}

// TestHeadersWheelOfTime checks Wheel of Time's sources and headers
// (github.com/babbygremlin/WOT-Scripts; set UPKDEPS_WOT_TREE to a
// checkout), no flag given: the layout (ue1-early) comes from the headers,
// Engine.SavedMove is native because Engine's header declares it (its
// script does not say so), WOT and Engine match; Legend's header really
// is stale (two constants changed after it was written).
func TestHeadersWheelOfTime(t *testing.T) {
	root := os.Getenv("UPKDEPS_WOT_TREE")
	if root == "" {
		t.Skip("UPKDEPS_WOT_TREE (a checkout of babbygremlin/WOT-Scripts) not set: skipping")
	}
	out, errOut, code := runCLI(t, "headers", "--root", root, "--check", "--json", "Core", "Engine", "Legend", "WOT")
	var rep header.SyncReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	got := map[string]string{}
	for _, p := range rep.Packages {
		var kinds []string
		for _, c := range p.Changes {
			kinds = append(kinds, c.Class+" "+c.Kind+" "+c.Name)
		}
		got[p.Package] = string(p.Status) + ": " + strings.Join(kinds, ", ")
	}
	want := map[string]string{
		"Core":   "none: ",
		"Engine": "current: ",
		"Legend": "stale: ULegendCanvas const changed BaseSizeY, ULegendCanvas const changed BaseSizeX",
		"WOT":    "current: ",
	}
	if code != exitFindings || len(got) != len(want) {
		t.Errorf("code %d, packages %v", code, got)
	}
	for p, w := range want {
		if got[p] != w {
			t.Errorf("%s: %q, want %q", p, got[p], w)
		}
	}
	modderEdit(t, copyPackages(t, root, "Core", "Engine"), "Pawn.uc", "int      Health;", "Core", "Engine")
}

// TestHeadersXIII checks XIII's published sources and headers, an early
// UE2 build (github.com/Ch0wW/xiii_unrealscript; set UPKDEPS_XIII_TREE to
// a checkout), no flag given: the layout (ue2-early) comes from the
// headers, and --check reports only what really changed since they were
// written: Engine's MapList renamed MapListInfo to MapStructInfo, GUI's
// GUILabel gained bChecked. A variable added to Pawn is reported alone.
func TestHeadersXIII(t *testing.T) {
	root := os.Getenv("UPKDEPS_XIII_TREE")
	if root == "" {
		t.Skip("UPKDEPS_XIII_TREE (a checkout of Ch0wW/xiii_unrealscript) not set: skipping")
	}
	out, errOut, code := runCLI(t, "headers", "--root", root, "--check", "--json", "Core", "Engine", "GUI")
	var rep header.SyncReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	got := map[string]string{}
	for _, p := range rep.Packages {
		var kinds []string
		for _, c := range p.Changes {
			kinds = append(kinds, c.Class+" "+c.Kind+" "+c.Name)
		}
		got[p.Package] = string(p.Status) + ": " + strings.Join(kinds, ", ")
	}
	want := map[string]string{
		"Core":   "none: ",
		"Engine": "stale: AMapList member added MapStructInfo, AMapList member removed MapListInfo",
		"GUI":    "stale: UGUILabel member added bChecked",
	}
	if code != exitFindings || rep.Layout != "ue2-early" || len(got) != len(want) {
		t.Errorf("code %d, layout %s, packages %v", code, rep.Layout, got)
	}
	for p, w := range want {
		if got[p] != w {
			t.Errorf("%s: %q, want %q", p, got[p], w)
		}
	}
	// With MapList as its header has it, a modder's variable is all.
	copied := copyPackages(t, root, "Core", "Engine")
	ml := filepath.Join(copied, "Engine", "Classes", "MapList.uc")
	text, err := os.ReadFile(ml)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ml, bytes.Replace(text, []byte("MapStructInfo;"), []byte("MapListInfo;"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	modderEdit(t, copied, "Pawn.uc", "var PlayerReplicationInfo PlayerReplicationInfo;", "Core", "Engine")
}

// TestHeadersLayoutFromHeader: the existing header tells the layout; no
// --layout is needed to find it current, and --layout still overrides.
func TestHeadersLayoutFromHeader(t *testing.T) {
	for _, layout := range []string{"ue1", "ue1-early", "ue2", "ue2-early"} {
		root := writeHeaderTree(t, headerTree)
		if _, _, code := runHeaders(t, root, "--root", root, "--layout", layout, "Core", "Engine"); code != exitOK {
			t.Fatalf("%s: write: code %d", layout, code)
		}
		out, _, code := runHeaders(t, root, "--root", root, "--check", "Core", "Engine")
		if code != exitOK || !strings.Contains(out, "(layout "+layout+", check)") || !strings.Contains(out, "All headers match their sources.") {
			t.Errorf("%s: code %d\n%s", layout, code, out)
		}
		other := "ue1"
		if layout == "ue1" {
			other = "ue2"
		}
		if out, _, code := runHeaders(t, root, "--root", root, "--check", "--layout", other, "Core", "Engine"); code != exitFindings {
			t.Errorf("%s checked as %s: code %d\n%s", layout, other, code, out)
		}
		modderEdit(t, root, "Pawn.uc", "var int Health;\n", "Core", "Engine")
	}
}

// modderEdit adds one variable after the line holding after in Engine/Classes/<file> of
// root and checks that --check reports that member only and that the
// header written then differs from the one before by that line only.
func modderEdit(t *testing.T, root, file, after string, pkgs ...string) {
	t.Helper()
	src := filepath.Join(root, "Engine", "Classes", file)
	hdr := filepath.Join(root, "Engine", "Inc", "EngineClasses.h")
	text, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(hdr)
	if err != nil {
		t.Fatal(err)
	}
	at := strings.Index(string(text), after)
	if at < 0 {
		t.Fatalf("%s has no %q", file, after)
	}
	eol := strings.IndexByte(string(text[at:]), '\n') + at + 1
	line := "var int ModderCount;\n"
	if bytes.Contains(text, []byte("\r\n")) {
		line = "var int ModderCount;\r\n"
	}
	edited := string(text[:eol]) + line + string(text[eol:])
	if err := os.WriteFile(src, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := runHeaders(t, root, append([]string{"--root", root, "--check", "--json"}, pkgs...)...)
	var rep header.SyncReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	var changes []string
	for _, p := range rep.Packages {
		for _, c := range p.Changes {
			changes = append(changes, p.Package+" "+c.Class+" "+c.Kind+" "+c.Name)
		}
	}
	if code != exitFindings || len(changes) != 1 || !strings.HasSuffix(changes[0], "member added ModderCount") {
		t.Errorf("%s: check after adding ModderCount: code %d, changes %v", rep.Layout, code, changes)
	}
	if _, _, code := runHeaders(t, root, append([]string{"--root", root}, pkgs...)...); code != exitOK {
		t.Fatalf("write: code %d", code)
	}
	after2, err := os.ReadFile(hdr)
	if err != nil {
		t.Fatal(err)
	}
	w, h := strings.Split(string(lfOnly(after2)), "\n"), strings.Split(string(lfOnly(before)), "\n")
	i := 0
	for i < len(h) && w[i] == h[i] {
		i++
	}
	if len(w) != len(h)+1 || !strings.Contains(w[i], "INT ModderCount") || strings.Join(w[i+1:], "\n") != strings.Join(h[i:], "\n") {
		t.Errorf("%s: the written header differs by more than the added line (first at line %d: %q)", rep.Layout, i+1, w[min(i, len(w)-1)])
	}
}

// TestHeadersNoOtherGamesTable: without binary and header, only the game's
// own table says which classes are registered: --game ue1 does not get
// UT99's Pickup, nor a UE2 game UT2004's; --game ut99 does.
func TestHeadersNoOtherGamesTable(t *testing.T) {
	files := map[string]string{"Engine/Classes/Pickup.uc": "class Pickup extends Actor;\nvar int Charge;\n"}
	for k, v := range headerTree {
		files[k] = v
	}
	root := writeHeaderTree(t, files)
	for _, c := range []struct {
		game string
		want string
	}{
		{"ue1", "(2 classes)"}, {"ue2", "(2 classes)"}, {"kf", "(2 classes)"}, {"ut99", "(3 classes)"}, {"ut2004", "(3 classes)"},
	} {
		out, _, code := runHeaders(t, root, "--root", root, "--game", c.game, "--dry-run", "Core", "Engine")
		if code != exitOK || !strings.Contains(out, "Engine: would write Engine/Inc/EngineClasses.h "+c.want) {
			t.Errorf("--game %s: code %d, want %s\n%s", c.game, code, c.want, out)
		}
	}
}

func lfOnly(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")) }

// TestHeadersRootBadBinary: with --root, a native binary that cannot be
// read is a warning naming it (its classes are not used), as with --ini,
// not a silent omission; a Git LFS pointer gets the one LFS line.
func TestHeadersRootBadBinary(t *testing.T) {
	files := map[string]string{
		"System/Engine.dll": "MZ not really a PE file",
		"System/Core.so":    "version https://git-lfs.github.com/spec/v1\noid sha256:0123\nsize 12345\n",
	}
	for k, v := range headerTree {
		files[k] = v
	}
	root := writeHeaderTree(t, files)
	_, errOut, code := runHeaders(t, root, "--root", root, "Core", "Engine", "Extra", "--dry-run")
	if code != exitOK {
		t.Fatalf("code %d\n%s", code, errOut)
	}
	for _, want := range []string{"Engine.dll", "its native classes are not used", "1 binaries are Git LFS pointers, not the files (Core.so)"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}
