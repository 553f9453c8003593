package graph

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeSources writes <root>/<Pkg>/Classes/<file> for "Pkg/File.uc" keys.
func writeSources(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		pkg, file, _ := strings.Cut(name, "/")
		dir := filepath.Join(root, pkg, "Classes")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, file), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// sourceInstall builds a graph over generated compiled packages in
// <root>/System and scans the sources of edit under root.
func sourceInstall(t *testing.T, specs []pkgSpec, files map[string]string, edit []string) (*Graph, *Sources) {
	t.Helper()
	root := t.TempDir()
	sys := filepath.Join(root, "System")
	if err := os.Mkdir(sys, 0o755); err != nil {
		t.Fatal(err)
	}
	writeSpecs(t, sys, specs)
	writeSources(t, root, files)
	g, err := Build(context.Background(), dirResolver{sys}, Options{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	src, err := g.ScanSources(context.Background(), root, edit, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g, src
}

// findingLines renders findings as "kind package: objects | chain".
func findingLines(fs []Finding, kinds ...FindingKind) []string {
	out := []string{}
	for _, f := range fs {
		if slices.Contains(kinds, f.Kind) {
			out = append(out, string(f.Kind)+" "+f.Package+": "+strings.Join(ObjectStrings(f.Objects), ",")+" | "+strings.Join(f.Chain, " | "))
		}
	}
	return out
}

func TestUnknownClasses(t *testing.T) {
	specs := append(slices.Clone(baseSpecs),
		pkgSpec{file: "Base.u", exports: []string{"Thing:Class", "Thing.EDrawType:Core.Enum", "Thing.VSize:Core.Function", "Thing.Spawn:Core.Function"},
			imports: []string{"Engine.Actor:Core.Class", "Gone.Other:Core.Class"}})
	files := map[string]string{
		"Mod/A.uc": "class A extends NoSuchParentClass;\n",
		"Mod/B.uc": "class B extends Thing;\n" +
			"var EDrawType D;\n" + // a name Base.u declares
			"var NoSuchType T;\n" +
			"var class<Pawn> P;\n" +
			"var class<NoSuchClass> C;\n" +
			"function F() { X = VSize(Y); Y = NoSuchCast(Z); Spawn(class'NoSuchLiteral'); }\n" +
			"var Gone.Other O;\n" + // Gone is a (missing) package: edit_missing, not unknown
			"defaultproperties\n{\n\tC=Class'Engine.NoSuchInEngine'\n\tD=Class'Engine.Pawn'\n}\n",
		"Mod/C.uc":      "class C extends Actor;\nvar NoSuchType T2;\nvar Later L;\n",
		"Late/Later.uc": "class Later extends Actor;\n",
	}
	edit := []string{"Core", "Engine", "Base", "Mod", "Late"}
	g, src := sourceInstall(t, specs, files, edit)
	res := g.CheckEditPackages(edit, OrderOptions{Sources: src})
	want := []string{
		"unknown_class Mod: NoSuchClass | Mod/Classes/B.uc:5: var class<NoSuchClass> C;",
		"unknown_class Mod: NoSuchLiteral | Mod/Classes/B.uc:6: function F() { X = VSize(Y); Y = NoSuchCast(Z); Spawn(class'NoSuchLiteral'); }",
		"unknown_class Mod: NoSuchParentClass | Mod/Classes/A.uc:1: class A extends NoSuchParentClass;",
		"unknown_class Mod: NoSuchType | Mod/Classes/B.uc:3: var NoSuchType T; | Mod/Classes/C.uc:2: var NoSuchType T2;",
		"unknown_class Mod: Engine.NoSuchInEngine | Mod/Classes/B.uc:10: C=Class'Engine.NoSuchInEngine'",
		"edit_missing Gone:  | Mod/Classes/B.uc:7: var Gone.Other O; | compiled import: Base.u imports Gone.Other (Core.Class)",
	}
	if have := findingLines(res.Findings, UnknownClass, EditMissing); !slices.Equal(have, want) {
		t.Errorf("findings:\nhave %q\nwant %q", have, want)
	}
	if res.Valid {
		t.Error("order valid with unknown classes")
	}
	for _, f := range findingsOf(res.Findings, UnknownClass) {
		if f.Severity != Error || !strings.HasSuffix(f.Message, ": ucc make fails on it") {
			t.Errorf("Mod has no .u, ucc make rebuilds it: %s %q", f.Severity, f.Message)
		}
	}
	// With Mod.u there, ucc make rebuilds nothing: warnings, the order valid.
	gw, srcw := sourceInstall(t, append(slices.Clone(specs), pkgSpec{file: "Mod.u", exports: []string{"A:Class"}}), files, edit)
	resw := gw.CheckEditPackages(edit, OrderOptions{Sources: srcw})
	for _, f := range findingsOf(resw.Findings, UnknownClass) {
		if f.Severity != Warning || !strings.Contains(f.Message, "a clean rebuild fails on it (ucc make rebuilds Mod only when its .u is missing)") {
			t.Errorf("Mod.u present: %s %q", f.Severity, f.Message)
		}
	}
	// NoSuchCast(Z) is a call of a function Mod may inherit, not a cast:
	// no finding.
	if n := len(findingsOf(resw.Findings, UnknownClass)); n != 5 {
		t.Errorf("Mod.u present: %d unknown_class findings, want 5: %q", n, findingLines(resw.Findings, UnknownClass))
	}
	for _, f := range res.Findings {
		if f.Kind == UnknownClass && f.Objects[0].String() == "Engine.NoSuchInEngine" && f.Message != "Mod uses the class Engine.NoSuchInEngine, which package Engine does not define: ucc make fails on it" {
			t.Errorf("message %q", f.Message)
		}
	}
	if eo := findingLines(res.Findings, EditOrder); len(eo) != 1 {
		t.Errorf("a class of a later package is an order error, not unknown: %q", eo)
	}
	// Defined, the order is valid again.
	files["Mod/Defs.uc"] = "class Defs extends Actor;\nstruct SType { var int X; };\nvar SType S;\n"
	files["Mod/NoSuchParentClass.uc"] = "class NoSuchParentClass extends Actor;\n"
	files["Mod/NoSuchClass.uc"] = "class NoSuchClass extends Actor;\n"
	files["Mod/NoSuchLiteral.uc"] = "class NoSuchLiteral extends Actor;\n"
	files["Mod/NoSuchType.uc"] = "class NoSuchType extends Actor;\nfunction NoSuchCast(Actor A) {}\n"
	files["Mod/C.uc"] = "class C extends Actor;\nvar NoSuchType T2;\nvar SType S;\n"
	files["Mod/B.uc"] = strings.Replace(files["Mod/B.uc"], "var Gone.Other O;\n", "", 1)
	files["Mod/B.uc"] = strings.Replace(files["Mod/B.uc"], "\tC=Class'Engine.NoSuchInEngine'\n", "", 1)
	edit = edit[:4]
	g, src = sourceInstall(t, specs, files, edit)
	res = g.CheckEditPackages(edit, OrderOptions{Sources: src})
	want = []string{"edit_missing Gone:  | compiled import: Base.u imports Gone.Other (Core.Class)"}
	if have := findingLines(res.Findings, UnknownClass, EditMissing, EditOrder); !res.Valid || !slices.Equal(have, want) {
		t.Errorf("all defined: valid %v, findings %q, want %q", res.Valid, have, want)
	}
}

func TestEditMissingGrouped(t *testing.T) {
	specs := append(slices.Clone(baseSpecs),
		pkgSpec{file: "Base.u", exports: []string{"Thing:Class"},
			imports: []string{"Engine.Actor:Core.Class", "GoneTex.Skin:Engine.Texture"}})
	files := map[string]string{
		"Mod/A.uc":  "class A extends Actor;\ndefaultproperties\n{\n\tSkin=Texture'GoneTex.Skin'\n\tC=Class'GoneCode.X'\n}\n",
		"Mod2/B.uc": "class B extends Actor;\nvar GoneCode.X X; // no package known: unknown_class\ndefaultproperties\n{\n\tC=Class'GoneCode.Y'\n\tSkin=Texture'GoneTex.Other'\n}\n",
	}
	edit := []string{"Core", "Engine", "Base", "Mod", "Mod2"}
	g, src := sourceInstall(t, specs, files, edit)
	want := []string{
		"edit_missing GoneCode:  | Mod/Classes/A.uc:5: C=Class'GoneCode.X' | Mod2/Classes/B.uc:5: C=Class'GoneCode.Y'",
		"edit_missing GoneTex:  | Mod/Classes/A.uc:4: Skin=Texture'GoneTex.Skin' | Mod2/Classes/B.uc:6: Skin=Texture'GoneTex.Other' | compiled import: Base.u imports GoneTex.Skin (Engine.Texture)",
	}
	res := g.CheckEditPackages(edit, OrderOptions{Sources: src})
	if have := findingLines(res.Findings, EditMissing); !slices.Equal(have, want) {
		t.Errorf("order:\nhave %q\nwant %q", have, want)
	}
	for _, f := range findingsOf(res.Findings, EditMissing) {
		if f.Package == "GoneCode" && (!slices.Equal(f.Packages, []string{"GoneCode", "Mod", "Mod2"}) || !strings.Contains(f.Message, "Mod, Mod2 use GoneCode (2 lines)")) {
			t.Errorf("GoneCode: packages %q, message %q", f.Packages, f.Message)
		}
	}
	// check reports GoneTex as missing_package: a texture package is never
	// built, so no edit_missing repeats it. GoneCode stays.
	fs := checkAll(t, g, CheckOptions{EditPackages: edit, Sources: src})
	if have := findingLines(fs, EditMissing, MissingPackage); !slices.Equal(have, []string{
		"missing_package GoneTex:  | Base (Base.u) | GoneTex (missing)", want[0]}) {
		t.Errorf("check:\nhave %q", have)
	}
}

// TestExecLoadFile: #exec OBJ LOAD FILE=F needs F when the package is
// built, whatever PACKAGE= says; the path given (from System) counts as
// well as the Paths.
func TestExecLoadFile(t *testing.T) {
	files := map[string]string{
		"Mod/A.uc": "class A extends Actor;\n" +
			"#exec OBJ LOAD FILE=AXResources.u PACKAGE=Mod\n" +
			"#exec OBJ LOAD FILE=..\\Textures\\Here.utx PACKAGE=Mod.Skins\n" +
			"#exec OBJ LOAD FILE=..\\Textures\\Gone.utx\n",
	}
	edit := []string{"Core", "Engine", "Mod"}
	root := t.TempDir()
	sys := filepath.Join(root, "System")
	tex := filepath.Join(root, "Textures")
	for _, d := range []string{sys, tex} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(tex, "Here.utx"), []byte("a texture package"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeSpecs(t, sys, baseSpecs)
	writeSources(t, root, files)
	g, err := Build(context.Background(), dirResolver{sys}, Options{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	src, err := g.ScanSources(context.Background(), root, edit, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"edit_missing AXResources:  | Mod/Classes/A.uc:2: #exec OBJ LOAD FILE=AXResources.u PACKAGE=Mod",
		"edit_missing Gone:  | Mod/Classes/A.uc:4: #exec OBJ LOAD FILE=..\\Textures\\Gone.utx",
	}
	res := g.CheckEditPackages(edit, OrderOptions{Sources: src})
	if have := findingLines(res.Findings, EditMissing, UnknownClass); !slices.Equal(have, want) {
		t.Errorf("have %q\nwant %q", have, want)
	}
	for _, f := range res.Findings {
		if f.Package == "AXResources" && !strings.Contains(f.Message, "neither listed before it in EditPackages nor present as a compiled package") {
			t.Errorf("a .u is code: %q", f.Message)
		}
	}
}

// TestUncheckedNames: an install whose first two entries have neither
// sources nor a .u makes no unknown_class error: the names a package
// uses that those could declare are counted in one note naming both.
func TestUncheckedNames(t *testing.T) {
	files := map[string]string{
		"Mod/A.uc": "class A extends BaseWindow;\nvar NoSuchThing X;\nvar class<AlsoNot> C;\n" +
			"function F() { Abs(1); Disable('Tick'); }\n",
		"Mod/B.uc": "class B extends A;\nvar NoSuchThing Y;\n",
	}
	edit := []string{"Gone1", "Gone2", "Mod"}
	g, src := sourceInstall(t, nil, files, edit)
	res := g.CheckEditPackages(edit, OrderOptions{Sources: src})
	if fs := findingLines(res.Findings, UnknownClass); len(fs) != 0 {
		t.Errorf("unknown_class although Gone1 and Gone2 were not read: %q", fs)
	}
	u := res.UncheckedNames
	if u == nil {
		t.Fatal("no note on the names not checked")
	}
	if !slices.Equal(u.NoSources, []string{"Gone1", "Gone2"}) || len(u.NoNatives) != 0 || u.Names != 3 {
		t.Errorf("note: %+v", u)
	}
	if want := "Gone1, Gone2 have neither sources nor a .u: 3 name(s) not checked"; !strings.HasPrefix(u.Message, want) {
		t.Errorf("message %q, want it to start with %q", u.Message, want)
	}
	if !res.Valid || res.Verdict != "The order of the 1 checked entries is valid." {
		t.Errorf("valid %v, verdict %q", res.Valid, res.Verdict)
	}
	// Once Gone1 and Gone2 have sources, the same names are errors.
	files["Gone1/Object.uc"] = "class Object;\n"
	files["Gone2/Actor.uc"] = "class Actor extends Object;\n"
	files["Gone2/BaseWindow.uc"] = "class BaseWindow extends Actor;\n"
	g, src = sourceInstall(t, nil, files, edit)
	res = g.CheckEditPackages(edit, OrderOptions{Sources: src})
	want := []string{
		"unknown_class Mod: AlsoNot | Mod/Classes/A.uc:3: var class<AlsoNot> C;",
		"unknown_class Mod: NoSuchThing | Mod/Classes/A.uc:2: var NoSuchThing X; | Mod/Classes/B.uc:2: var NoSuchThing Y;",
	}
	if have := findingLines(res.Findings, UnknownClass); !slices.Equal(have, want) || res.UncheckedNames != nil || res.Valid {
		t.Errorf("all read: valid %v, note %+v, findings\nhave %q\nwant %q", res.Valid, res.UncheckedNames, have, want)
	}
	if res.Verdict != "The order is NOT valid." {
		t.Errorf("verdict %q", res.Verdict)
	}
}
