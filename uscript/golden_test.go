package uscript

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// goldenTree is a small game root: four source packages in build order
// (EditPackages) over compiled Core and Engine. It holds a forward
// reference (MidPkg uses LatePkg), a cycle through within (LatePkg's
// LateWithin is within MidPkg's MidOuter, which uses LateWithin), a name
// defined twice, a missing package, a class nobody defines, a package
// referencing another only in comments, strings, names and cpptext, a
// lower-case folder, a UTF-16 file and .upkg files.
var goldenTree = map[string]string{
	"BasePkg/Classes/BaseThing.uc": `//=============================================================================
// BaseThing: the root of the mod.
//=============================================================================
class BaseThing extends Engine.Actor
	abstract;

#exec OBJ LOAD FILE=..\Textures\BaseTex.utx

var Texture Skin;
var class<Pawn> PawnClass;

defaultproperties
{
	Skin=Texture'BaseTex.Skins.Main'
	PawnClass=Class'Engine.Pawn'
}
`,
	"BasePkg/Classes/BaseHelper.uc": "class BaseHelper extends Info;\n\nvar int Count;\n",
	"BasePkg/Classes/Shared.uc":     "class Shared extends Object;\n",
	"BasePkg/Classes/BasePkg.upkg":  "[Flags]\nAllowDownload=True\nClientOptional=False\nServerSideOnly=False\n",

	"MidPkg/Classes/MidThing.uc": `class MidThing extends BaseThing
	dependson(BaseHelper);

var class<LateThing> Later;   // a forward reference: LatePkg is built after MidPkg
var Shared Mine;              // MidPkg defines Shared too: its own wins

function Pawn FindPawn(Actor Other)
{
	local BaseHelper H;

	if (Pawn(Other) != None)
		return Pawn(Other);
	H = Spawn(class'BaseHelper');
	return None;
}
`,
	"MidPkg/Classes/MidOuter.uc": "class MidOuter extends Object;\n\nvar LateWithin Inner;\n",
	"MidPkg/Classes/Shared.uc":   "class Shared extends Object;\n",

	"LatePkg/Classes/LateThing.uc":  "class LateThing extends MidThing;\n\nvar Shared Which; // BasePkg and MidPkg both define Shared\n",
	"LatePkg/Classes/LateWithin.uc": "class LateWithin extends Object\n\twithin MidOuter;\n",
	"LatePkg/Classes/LateBroken.uc": "class LateBroken extends NoSuchClass;\n\nvar Texture T;\n\ndefaultproperties\n{\n\tT=Texture'MissingTex.Foo'\n}\n",
	"LatePkg/Classes/LatePkg.upkg":  "[Flags]\nAllowDownload=False\nServerSideOnly=True\n",

	"quietpkg/classes/Quiet.uc": `class Quiet extends Engine.Info;

// var BaseThing Hidden;  class'BasePkg.BaseThing'  BaseThing(X)
/* Texture'BaseTex.Skins.Main'
   /* nested: BaseHelper.default.Count */
   var MidThing Hidden2;
*/
#exec OBJ LOAD FILE=..\System\Engine.u

function string Describe()
{
	local string S;
	local name N;

	S = "class'BasePkg.BaseThing' BaseThing(X) \"BasePkg.BaseHelper\"";
	N = 'BaseThing';
	GotoState('BasePkg.BaseThing');
	return S;
}

cpptext
{
	ABaseThing* Find(UBaseHelper* H) { return Cast<ABaseThing>(H->Outer); }
}

defaultproperties
{
	Tag="BasePkg.BaseThing"
	// Mesh=LodMesh'BasePkg.Hidden'
}
`,
}

// utf16Files of the golden tree are written as UTF-16LE with a BOM.
var utf16Files = map[string]string{
	"MidPkg/Classes/MidWide.uc": "class MidWide extends BaseHelper;\r\n// Ünïcödé\r\nvar Weapon W;\r\n",
}

var goldenOrder = []string{"BasePkg", "MidPkg", "LatePkg", "QuietPkg", "NoSources"}

// writeGoldenTree writes the tree under root.
func writeGoldenTree(t testing.TB, root string) {
	t.Helper()
	writeTree(t, root, goldenTree)
	for name, text := range utf16Files {
		if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(name)), utf16LE(text, true), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// report renders what upkdeps would learn from the tree: per package in
// build order, its flags, its dependencies with evidence (a forward one
// marked), unresolved names and diagnostics.
func report(t testing.TB, root string, order []string) string {
	t.Helper()
	idx := NewIndex(map[string][]string{
		"Core":   {"Object", "Commandlet"},
		"Engine": {"Actor", "Info", "Pawn", "Weapon", "Texture"},
	})
	var pkgs []*Package
	for _, name := range order {
		p, err := ScanPackage(root, name)
		if err != nil {
			t.Fatal(err)
		}
		idx.AddSource(p)
		pkgs = append(pkgs, p)
	}
	pos := map[string]int{}
	for i, name := range order {
		pos[strings.ToLower(name)] = i
	}
	rel := func(path string) string {
		r, err := filepath.Rel(root, path)
		if err != nil {
			return path
		}
		return filepath.ToSlash(r)
	}
	var b bytes.Buffer
	for i, p := range pkgs {
		fmt.Fprintf(&b, "%s: dir %q, sources %t, %d classes, upkg %t, %s\n",
			p.Name, rel(p.Dir), p.HasSources, len(p.Classes), p.HasUpkg, p.Flags)
		for _, d := range idx.Dependencies(p) {
			note := ""
			if j, ok := pos[strings.ToLower(d.Package)]; ok && j > i {
				note = " (built later)"
			} else if !idx.IsPackage(d.Package) {
				note = " (unknown package)"
			}
			fmt.Fprintf(&b, "  -> %s%s\n", d.Package, note)
			for _, e := range d.Evidence {
				fmt.Fprintf(&b, "       %s:%d %s %s", rel(e.File), e.Line, e.Kind, e.Name)
				if e.Candidates != nil {
					fmt.Fprintf(&b, " (candidates %s)", strings.Join(e.Candidates, ", "))
				}
				fmt.Fprintf(&b, "  | %s\n", e.Text)
			}
		}
		for _, e := range idx.Unresolved(p) {
			fmt.Fprintf(&b, "  unresolved %s:%d %s %s  | %s\n", rel(e.File), e.Line, e.Kind, e.Name, e.Text)
		}
		for _, d := range relDiagnostics(root, p.Diagnostics) {
			fmt.Fprintf(&b, "  diagnostic %s\n", d)
		}
	}
	return b.String()
}

func TestGoldenTree(t *testing.T) {
	root := t.TempDir()
	writeGoldenTree(t, root)
	have := report(t, root, goldenOrder)
	golden := filepath.Join("testdata", "tree.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(have), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if have != string(want) {
		t.Errorf("report differs from %s (go test -update rewrites it):\nhave:\n%s\nwant:\n%s", golden, have, want)
	}
	// Whatever the golden file says, nothing hidden may leak.
	for _, hidden := range []string{"Hidden", "Quiet.uc:3", "Quiet.uc:4", "Quiet.uc:5", "Quiet.uc:6", "Quiet.uc:14", "Quiet.uc:15", "Quiet.uc:16", "Quiet.uc:22", "Quiet.uc:27", "Quiet.uc:28"} {
		if strings.Contains(have, hidden) {
			t.Errorf("report mentions %q, which only comments, strings, names or cpptext hold", hidden)
		}
	}
}
