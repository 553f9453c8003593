package uscript

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// srcPackage scans in-memory sources (file name -> text) into a Package.
func srcPackage(t testing.TB, name string, files map[string]string) *Package {
	t.Helper()
	p := &Package{Name: name, HasSources: true, Flags: DefaultUpkgFlags}
	names := make([]string, 0, len(files))
	for f := range files {
		names = append(names, f)
	}
	slices.Sort(names)
	for _, f := range names {
		c, err := Scan(f, []byte(files[f]))
		if err != nil {
			t.Fatal(err)
		}
		p.Classes = append(p.Classes, c)
	}
	return p
}

// depLines renders dependencies as "Pkg: file:line kind name [candidates]".
func depLines(deps []Dependency) []string {
	out := []string{}
	for _, d := range deps {
		for _, e := range d.Evidence {
			s := fmt.Sprintf("%s: %s:%d %s %s", d.Package, e.File, e.Line, e.Kind, e.Name)
			if e.Candidates != nil {
				s += " " + fmt.Sprint(e.Candidates)
			}
			out = append(out, s)
		}
	}
	return out
}

func evidenceLines(ev []Evidence) []string {
	out := []string{}
	for _, e := range ev {
		out = append(out, fmt.Sprintf("%s:%d %s %s", e.File, e.Line, e.Kind, e.Name))
	}
	return out
}

// testNatives are native classes of a UE1 game's binaries, for the
// index (package native reads the real ones).
var testNatives = map[string][]string{
	"Core":   {"Object", "Class", "Package", "Function"},
	"Engine": {"Actor", "Font", "Level", "Sound", "Texture", "Canvas"},
	"Fire":   {"FireTexture"},
}

func TestDependencies(t *testing.T) {
	compiled := map[string][]string{
		"Core":    {"Object"},
		"Engine":  {"Actor", "Pawn", "Weapon", "Trigger", "Texture"},
		"UWindow": {"UWindowWindow", "Shared"},
	}
	idx := NewIndex(compiled)
	for pkg, classes := range testNatives {
		idx.AddNative(pkg, classes)
	}
	other := srcPackage(t, "OtherMod", map[string]string{
		"OtherThing.uc": "class OtherThing extends Actor;",
		"Shared.uc":     "class Shared extends Object;",
	})
	idx.AddSource(other)
	tests := []struct {
		name       string
		files      map[string]string
		want       []string
		unresolved []string
	}{
		{
			name:  "extends resolves through the index",
			files: map[string]string{"A.uc": "class A extends Pawn;"},
			want:  []string{"Engine: A.uc:1 extends Pawn"},
		},
		{
			name:  "own classes resolve to the package itself",
			files: map[string]string{"A.uc": "class A extends B;", "B.uc": "class B extends Object;\nvar A Other;\nvar Pawn P;"},
			want:  []string{"Core: B.uc:1 extends Object", "Engine: B.uc:3 type Pawn"},
		},
		{
			name: "ambiguous name: first added wins, candidates listed",
			// NewIndex adds compiled packages in sorted order: UWindow
			// before OtherMod, which AddSource added later.
			files: map[string]string{"A.uc": "class A extends Shared;"},
			want:  []string{"UWindow: A.uc:1 extends Shared [OtherMod UWindow]"},
		},
		{
			name:  "a name the package defines itself is not ambiguous",
			files: map[string]string{"A.uc": "class A extends Shared;", "Shared.uc": "class Shared extends Object;"},
			want:  []string{"Core: Shared.uc:1 extends Object"},
		},
		{
			name: "qualified names",
			files: map[string]string{"A.uc": "class A extends Object;\nfunction F()\n{\n" +
				"\tX = Engine.Pawn(Y);\n" + // a class of a known package
				"\tX = Engine.NotAClass;\n" + // not a class of Engine
				"\tX = Nowhere.Pawn(Y);\n" + // not a package
				"\tX = OtherMod.OtherThing.default.Z;\n" +
				"}\ndefaultproperties\n{\n\tMesh=UWindow.SomeMesh\n\tOther=Unknown.Thing\n}\n"},
			want: []string{"Core: A.uc:1 extends Object", "Engine: A.uc:4 qualified Engine.Pawn",
				"OtherMod: A.uc:7 qualified OtherMod.OtherThing", "UWindow: A.uc:11 qualified UWindow.SomeMesh"},
		},
		{
			name: "qualified types and literals name packages the index may not know",
			files: map[string]string{"A.uc": "class A extends Missing.Base;\n" +
				"var Missing.Thing T;\nvar Actor.EPhysics P;\nvar Unknown.EThing U;\n" +
				"#exec OBJ LOAD FILE=Textures.utx\n" +
				"defaultproperties\n{\n\tSkin=Texture'Skins.Group.Skin'\n\tMesh=Mesh'Self.Own'\n}\n"},
			want: []string{"Engine: A.uc:3 type Actor.EPhysics",
				"Missing: A.uc:1 extends Missing.Base", "Skins: A.uc:8 literal Texture'Skins.Group.Skin'",
				"Textures: A.uc:5 exec Textures.utx"},
			unresolved: []string{"A.uc:2 type Missing.Thing", "A.uc:4 type Unknown.EThing"},
		},
		{
			name: "unresolved class names",
			files: map[string]string{"A.uc": "class A extends NoSuchClass within NoOuter dependson(NoDep);\n" +
				"var NoSuchType X;\nfunction F() { Spawn(class'NoSuchLiteral'); T = Texture'Unqualified'; }\n"},
			want:       []string{},
			unresolved: []string{"A.uc:1 dependson NoDep", "A.uc:1 extends NoSuchClass", "A.uc:1 within NoOuter", "A.uc:3 literal class'NoSuchLiteral'"},
		},
		{
			name: "casts, and calls of the package's own functions",
			files: map[string]string{
				"A.uc": "class A extends Object;\nfunction F()\n{\n\tTrigger(X);\n\tP = Pawn(X);\n\tUWindowWindow(Y);\n}\n",
				"B.uc": "class B extends Object;\nfunction Trigger(Actor Other) {}\n",
			},
			want: []string{"Core: A.uc:1 extends Object", "Core: B.uc:1 extends Object", "Engine: A.uc:5 type Pawn",
				"Engine: B.uc:2 type Actor", "UWindow: A.uc:6 type UWindowWindow"},
		},
		{
			name:  "native classes",
			files: map[string]string{"A.uc": "class A extends Object;\nvar Font F;\nfunction G() { C = class'Class'; T = FireTexture(X); }\n"},
			want:  []string{"Core: A.uc:1 extends Object"},
		},
		{
			name:  "native-only classes make no dependency, whatever the spelling",
			files: map[string]string{"A.uc": "class A extends Actor;\nvar() sound Sound;\nvar Engine.Level L;\nvar Fire.FireTexture F;\n"},
			want:  []string{"Engine: A.uc:1 extends Actor"},
		},
		{
			name:  "extending a native class still needs its package",
			files: map[string]string{"A.uc": "class A extends Canvas;\n"},
			want:  []string{"Engine: A.uc:1 extends Canvas"},
		},
		{
			name: "groups the package's #exec lines create are not packages",
			files: map[string]string{"A.uc": "class A extends Object;\n" +
				"#exec OBJ LOAD FILE=Graphics\\Stats.utx PACKAGE=Self.Stats\n" +
				"#exec TEXTURE IMPORT NAME=Icon FILE=Icon.pcx GROUP=Skins\n" +
				"#exec OBJ LOAD FILE=Other.utx PACKAGE=Elsewhere.Grp\n" +
				"function F() { T = Texture'Stats.Net'; T = Texture'Skins.Icon'; T = Texture'Grp.X'; T = Texture'Engine.Y'; }\n"},
			want: []string{"Core: A.uc:1 extends Object", "Elsewhere: A.uc:4 exec Other.utx",
				"Engine: A.uc:5 literal Texture'Engine.Y'", "Grp: A.uc:5 literal Texture'Grp.X'",
				"Other: A.uc:4 exec Other.utx", "Stats: A.uc:2 exec Graphics\\Stats.utx"},
		},
		{
			name:  "a package naming itself is no dependency",
			files: map[string]string{"A.uc": "class A extends Object;\nvar Self.A X;\n#exec OBJ LOAD FILE=Tex.utx PACKAGE=Self.Skins\nvar Texture T;\ndefaultproperties\n{\n\tT=Texture'Self.Skins.T'\n}\n"},
			want:  []string{"Core: A.uc:1 extends Object", "Engine: A.uc:4 type Texture", "Tex: A.uc:3 exec Tex.utx"},
		},
		{
			name: "a literal naming the class itself or its subobject is no package",
			files: map[string]string{
				"MyPage.uc": "class MyPage extends Base;\ndefaultproperties\n{\n\tBegin Object Class=GUIImage Name=BkChar\n\tEnd Object\n" +
					"\tImg=GUIImage'MyPage.BkChar'\n\tImg2=GUIImage'Outer.BkChar'\n\tImg3=GUIImage'Outer.FromBase'\n\tTex=Texture'Engine.BkChar'\n}\n",
				"Base.uc":     "class Base extends Object;\ndefaultproperties\n{\n\tBegin Object Class=GUIImage Name=FromBase\n\tEnd Object\n\tI=GUIImage'Base.FromBase'\n}\n",
				"GUIImage.uc": "class GUIImage extends Object;\n",
			},
			want: []string{"Core: Base.uc:1 extends Object", "Core: GUIImage.uc:1 extends Object", "Engine: MyPage.uc:9 literal Texture'Engine.BkChar'"},
		},
		{
			name: "OBJ LOAD into the package being built still needs its file",
			files: map[string]string{"A.uc": "class A extends Object;\n#exec OBJ LOAD FILE=AXResources.u PACKAGE=Self\n" +
				"#exec OBJ LOAD FILE=..\\Textures\\Self.utx PACKAGE=Self\n"},
			want: []string{"AXResources: A.uc:2 exec AXResources.u", "Core: A.uc:1 extends Object"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := srcPackage(t, "Self", tt.files)
			if have := depLines(idx.Dependencies(p)); !slices.Equal(have, tt.want) {
				t.Errorf("dependencies:\nhave %q\nwant %q", have, tt.want)
			}
			if tt.unresolved == nil {
				tt.unresolved = []string{}
			}
			if have := evidenceLines(idx.Unresolved(p)); !slices.Equal(have, tt.unresolved) {
				t.Errorf("unresolved:\nhave %q\nwant %q", have, tt.unresolved)
			}
		})
	}
}

func TestIndexOrder(t *testing.T) {
	// Added in build order, the earlier package wins whatever its name.
	idx := NewIndex(nil)
	idx.AddSource(srcPackage(t, "Zulu", map[string]string{"Common.uc": "class Common extends Object;"}))
	idx.AddCompiled("Alpha", []string{"Common", "Other"})
	idx.AddCompiled("zulu", []string{"Common"}) // the same package again
	if have, want := idx.Packages("COMMON"), []string{"Zulu", "Alpha"}; !slices.Equal(have, want) {
		t.Errorf("Packages: have %q, want %q", have, want)
	}
	idx.AddNative("Core", []string{"Object"})
	if !idx.IsPackage("ALPHA") || idx.IsPackage("Beta") || !idx.IsPackage("core") {
		t.Error("IsPackage")
	}
	p := srcPackage(t, "User", map[string]string{"U.uc": "class U extends Common;"})
	if have, want := depLines(idx.Dependencies(p)), []string{"Zulu: U.uc:1 extends Common [Alpha Zulu]"}; !slices.Equal(have, want) {
		t.Errorf("have %q, want %q", have, want)
	}
}

func TestDependenciesSorted(t *testing.T) {
	idx := NewIndex(map[string][]string{"b": {"B1"}, "A": {"A1"}, "c": {"C1"}})
	p := srcPackage(t, "P", map[string]string{
		"Z.uc": "class Z extends C1;\nvar A1 X;\nvar B1 Y;\nvar A1 Z;\n",
		"Y.uc": "class Y extends A1;\nvar A1 X; var A1 X2;\n",
	})
	deps := idx.Dependencies(p)
	var names []string
	for _, d := range deps {
		names = append(names, d.Package)
	}
	if want := []string{"A", "b", "c"}; !slices.Equal(names, want) {
		t.Errorf("packages: have %q, want %q", names, want)
	}
	want := []string{"Y.uc:1 extends A1", "Y.uc:2 type A1", "Z.uc:2 type A1", "Z.uc:4 type A1"}
	if have := evidenceLines(deps[0].Evidence); !slices.Equal(have, want) {
		t.Errorf("evidence: have %q, want %q", have, want)
	}
	if deps[0].Evidence[1].Text != "var A1 X; var A1 X2;" {
		t.Errorf("text: have %q", deps[0].Evidence[1].Text)
	}
	if s := strings.Join(depLines(idx.Dependencies(&Package{Name: "Empty"})), ","); s != "" {
		t.Errorf("empty package: have %q", s)
	}
}

func TestUnresolvedKnownNames(t *testing.T) {
	src := "class A extends Actor;\n" +
		"struct native SPair { var int X; };\n" +
		"enum EMode { M_A, M_B };\n" +
		"var SPair Pair;\n" + // 4: own struct
		"var EMode Mode;\n" + // 5: own enum
		"var EDrawType Draw;\n" + // 6: a name a compiled package declares
		"var NoSuchType Bad;\n" + // 7
		"var class<NoSuchClass> C;\n" + // 8
		"var class<EDrawType> NotAClass;\n" + // 9: a name, but not a class
		"function F(Actor Other)\n{\n" +
		"\tlocal NoSuchLocal L;\n" + // 12
		"\tX = VSize(V);\n" + // 13: a function a compiled package declares
		"\tX = NoSuchCast(Other);\n" + // 14: a call of an inherited function, unless NoSuchCast is a class
		"\tX = Instigator.default.Health;\n" + // 15: a variable of a compiled parent
		"\tX = NoSuchClassD.default.Health;\n" + // 16
		"\tO = new NoSuchNew;\n" + // 17
		"\tSuper(NoSuchSuper).F(Other);\n" + // 18
		"\tG(Other);\n" + // 19: own function
		"}\nfunction G(Actor A) {}\n" +
		"defaultproperties\n{\n\tBegin Object Class=NoSuchSub Name=Sub\n\tEnd Object\n}\n" // 24
	idx := NewIndex(map[string][]string{"Core": {"Object"}, "Engine": {"Actor"}})
	p := srcPackage(t, "Self", map[string]string{"A.uc": src})
	// Without the compiled packages' names, only what can be nothing but
	// a class is unknown.
	want := []string{"A.uc:8 type NoSuchClass", "A.uc:9 type EDrawType", "A.uc:18 type NoSuchSuper", "A.uc:24 type NoSuchSub"}
	if have := evidenceLines(idx.Unresolved(p)); !slices.Equal(have, want) {
		t.Errorf("open index:\nhave %q\nwant %q", have, want)
	}
	idx.AddNames([]string{"EDrawType", "VSize", "Instigator", "Health"})
	want = []string{"A.uc:7 type NoSuchType", "A.uc:8 type NoSuchClass", "A.uc:9 type EDrawType",
		"A.uc:12 type NoSuchLocal", "A.uc:16 type NoSuchClassD", "A.uc:17 type NoSuchNew",
		"A.uc:18 type NoSuchSuper", "A.uc:24 type NoSuchSub"}
	if have := evidenceLines(idx.Unresolved(p)); !slices.Equal(have, want) {
		t.Errorf("closed index:\nhave %q\nwant %q", have, want)
	}
	// class<X> after X on the same line: one reference, class only.
	same := srcPackage(t, "Same", map[string]string{"S.uc": "class S extends Actor;\nvar NoSuchOne A; var class<NoSuchOne> B;\n"})
	if have := evidenceLines(NewIndex(map[string][]string{"Engine": {"Actor"}}).Unresolved(same)); !slices.Equal(have, []string{"S.uc:2 type NoSuchOne"}) {
		t.Errorf("class<X> on the line of X: have %q", have)
	}
	// A subobject of a parent class in another source package.
	gui := srcPackage(t, "GUIBase", map[string]string{"BasePage.uc": "class BasePage extends Actor;\n" +
		"defaultproperties\n{\n\tBegin Object Class=Actor Name=Header\n\tEnd Object\n}\n"})
	gidx := NewIndex(map[string][]string{"Engine": {"Actor"}})
	gidx.AddSource(gui)
	page := srcPackage(t, "MyGUI", map[string]string{"MyPage.uc": "class MyPage extends BasePage;\n" +
		"defaultproperties\n{\n\tH=Actor'Somewhere.Header'\n\tI=Actor'Somewhere.NotASubobject'\n}\n"})
	if have := depLines(gidx.Dependencies(page)); !slices.Equal(have, []string{"GUIBase: MyPage.uc:1 extends BasePage", "Somewhere: MyPage.uc:5 literal Actor'Somewhere.NotASubobject'"}) {
		t.Errorf("subobject of a parent in another package: have %q", have)
	}
	// A package added with AddSource lends its declared names to others.
	idx.AddSource(p)
	want = []string{"B.uc:2 type NoSuchType"}
	q2 := srcPackage(t, "Other", map[string]string{"B.uc": "class B extends Actor;\nvar NoSuchType Bad;\nvar SPair P;\nvar EMode M;\nfunction F() { G(X); }\n"})
	if have := evidenceLines(idx.Unresolved(q2)); !slices.Equal(have, want) {
		t.Errorf("names of an added source package:\nhave %q\nwant %q", have, want)
	}
	// Enums and structs declared inline in a var, and named operators.
	q3 := srcPackage(t, "Third", map[string]string{"C.uc": "class C extends Actor;\n" +
		"var() enum EInline { I_A, I_B } Mode;\nvar EInline M2;\nvar struct SInline { var int X; } S;\nvar SInline S2;\n" +
		"native(3969) static final operator(16) float Dot ( vector A, vector B );\n" +
		"function F() { X = A Dot (B); Y = Dot(A); }\n"})
	if have := evidenceLines(idx.Unresolved(q3)); len(have) != 0 {
		t.Errorf("inline enum and struct, operator: have %q, want none", have)
	}
	// A class a package whose classes are known does not define; a group
	// path, a texture, an unknown package and a native class are not.
	idx.AddCompiled("Gone", nil)
	idx.AddNative("Engine", []string{"Canvas"})
	q4 := srcPackage(t, "Fourth", map[string]string{"D.uc": "class D extends Engine.NoSuchBase within Engine.Actor;\n" +
		"defaultproperties\n{\n\tA=Class'Engine.NoSuchClass'\n\tB=Class'Engine.Actor'\n\tC=Class'Gone.Thing'\n\tE=Class'Engine.Grp.X'\n" +
		"\tF=Texture'Engine.NoSuchTex'\n\tG=Class'Engine.Canvas'\n\tH=Class'Fourth.NotMine'\n\tI=Class'Fourth.D'\n}\n"})
	want = []string{"D.uc:1 extends Engine.NoSuchBase", "D.uc:4 literal Class'Engine.NoSuchClass'", "D.uc:10 literal Class'Fourth.NotMine'"}
	if have := evidenceLines(idx.Unresolved(q4)); !slices.Equal(have, want) {
		t.Errorf("classes a known package does not define:\nhave %q\nwant %q", have, want)
	}
}
