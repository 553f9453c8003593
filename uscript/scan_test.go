package uscript

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// refLines renders refs as "line kind reference", the form the tables use.
func refLines(refs []Ref) []string {
	out := []string{}
	for _, r := range refs {
		out = append(out, fmt.Sprintf("%d %s %s", r.Line, r.Kind, r))
	}
	return out
}

func TestScanRefs(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{
			name: "extends",
			src:  "class Foo extends Bar;",
			want: []string{"1 extends Bar"},
		},
		{
			name: "expands qualified",
			src:  "class Foo expands Engine.Actor;",
			want: []string{"1 extends Engine.Actor"},
		},
		{
			name: "no parent",
			src:  "class Foo native;",
			want: []string{},
		},
		{
			name: "multi-line declaration",
			src: "class Foo\n" +
				"\textends Bar\n" +
				"\tconfig(User)\n" +
				"\thidecategories(Movement, Collision)\n" +
				"\twithin Pkg.Outer\n" +
				"\tdependson(A, Pkg.B)\n" +
				"\tnative;\n",
			want: []string{"2 extends Bar", "5 within Pkg.Outer", "6 dependson A", "6 dependson Pkg.B"},
		},
		{
			name: "declaration after comments and exec",
			src: "//=====\n// class Wrong extends Nothing;\n/* class Wrong2 extends Nothing2; */\n" +
				"class Foo extends Bar;\n",
			want: []string{"4 extends Bar"},
		},
		{
			name: "variables",
			src: "class Foo extends Object;\n" +
				"var Actor A;\n" +
				"var() config array< class<Pkg.Weapon> > Weapons;\n" +
				"var(Display) const editconst Texture Skin, OtherSkin[4];\n" +
				"var int I; var float F; var string S; var name N; var vector V; var rotator R; var bool B; var byte Y;\n" +
				"var enum EMode { M_One, M_Two } Mode;\n" +
				"var Actor.EPhysics Phys;\n",
			want: []string{"1 extends Object", "2 type Actor", "3 type Pkg.Weapon", "4 type Texture", "7 type Actor.EPhysics"},
		},
		{
			name: "struct members",
			src: "class Foo extends Object;\n" +
				"struct SEntry\n{\n\tvar Pawn P;\n\tvar class<Inventory> Inv;\n};\n" +
				"struct native SDerived extends SEntry { var int X; };\n",
			want: []string{"1 extends Object", "4 type Pawn", "5 type Inventory"},
		},
		{
			name: "function header",
			src: "class Foo extends Object;\n" +
				"native(123) static final function Pawn Find(optional out Actor A, coerce class<Weapon> W, int N)\n" +
				"{\n\tlocal Controller C, D;\n\tlocal array<Ammo> List;\n}\n" +
				"event Touch(Actor Other);\n" +
				"delegate OnClick(GUIComponent Sender);\n" +
				"static final operator(16) vector * (vector V, MyStruct S);\n",
			want: []string{"1 extends Object", "2 type Pawn", "2 type Actor", "2 type Weapon",
				"4 type Controller", "5 type Ammo", "7 type Actor", "8 type GUIComponent", "9 type MyStruct"},
		},
		{
			name: "casts, default, static, new, class<>",
			src: "class Foo extends Object;\n" +
				"function F(Actor Other)\n{\n" +
				"\tP = Pawn(Other);\n" +
				"\tX = Weapon.default.FireRate + Ammo.static.Max();\n" +
				"\tC = class<Vehicle>(DynamicLoadObject(S, class'Class'));\n" +
				"\tO = new Menu;\n" +
				"\tO = new(None) Page;\n" +
				"\tO = new class'Pkg.Helper';\n" +
				"\tSuper(Info).PostBeginPlay();\n" +
				"}\n",
			want: []string{"1 extends Object", "2 type Actor", "4 type Pawn", "5 type Weapon", "5 type Ammo",
				"6 type Vehicle", "6 literal class'Class'", "7 type Menu",
				"8 type Page", "9 literal class'Pkg.Helper'", "10 type Info"},
		},
		{
			// A member call reads as a qualified candidate, which resolution
			// drops unless Other is a package with a class Pawn.
			name: "calls with several or no arguments are not casts",
			src: "class Foo extends Object;\n" +
				"function F()\n{\n\tTrigger(self, Instigator);\n\tTimer();\n\tOther.Pawn(X);\n\tint(X); float(Y); vector(R); string(Z);\n}\n",
			want: []string{"1 extends Object", "6 qualified Other.Pawn"},
		},
		{
			name: "variables are not classes",
			src: "class Foo extends Object;\n" +
				"event float Desire(Pawn Bot)\n{\n\tlocal Actor Core;\n" +
				"\tH = Bot.Default.Health;\n\tX = Core.bFinal;\n\tY = Bot(Z);\n}\n",
			want: []string{"1 extends Object", "2 type Pawn", "4 type Actor"},
		},
		{
			name: "qualified names",
			src: "class Foo extends Object;\n" +
				"function F()\n{\n\tX = Engine.Actor(Y);\n\tZ = Level.Game.Foo;\n\tZ = Pkg.Class.default.Z + Pkg.Class2.Static.F();\n" +
				"\tZ = Other.Health; Other.Pawn.Weapon.Fire(0);\n}\n",
			want: []string{"1 extends Object", "4 qualified Engine.Actor", "6 qualified Pkg.Class", "6 qualified Pkg.Class2"},
		},
		{
			name: "object literals",
			src: "class Foo extends Object;\n" +
				"function F()\n{\n" +
				"\tSpawn(class'Pkg.Thing');\n" +
				"\tT = Texture'Tex.Group.Name';\n" +
				"\tPlaySound(Sound 'Snd.Boom');\n" +
				"\tS = StaticMesh'DM-Map.Mesh';\n" +
				"\tSpawn(class'LocalThing');\n" +
				"}\n",
			// A one-argument call is a cast candidate; resolution drops it
			// unless a class has the name.
			want: []string{"1 extends Object", "4 type Spawn", "4 literal class'Pkg.Thing'", "5 literal Texture'Tex.Group.Name'",
				"6 type PlaySound", "6 literal Sound'Snd.Boom'", "7 literal StaticMesh'DM-Map.Mesh'", "8 type Spawn", "8 literal class'LocalThing'"},
		},
		{
			name: "name literals are not object literals",
			src: "class Foo extends Object;\n" +
				"function F()\n{\n\tGotoState('Engine.Actor');\n\tswitch(N) { case'Pkg.Name': return'Pkg.Other'; }\n\tN = 'Pkg.X';\n}\n",
			want: []string{"1 extends Object", "4 type GotoState"},
		},
		{
			name: "comments",
			src: "class Foo extends Object;\n" +
				"// var Hidden H; class'Pkg.Hidden' Hidden(X)\n" +
				"/* var Hidden H;\n   Texture'Pkg.Hidden'\n*/\n" +
				"/* outer /* inner */ var Hidden H; Pkg.Hidden.default.X */\n" +
				"var Actor A; // var Hidden B;\n" +
				"var /* Hidden */ Pawn P;\n" +
				"// a line comment does not open a block: /*\n" +
				"var Info I;\n",
			want: []string{"1 extends Object", "7 type Actor", "8 type Pawn", "10 type Info"},
		},
		{
			name: "strings",
			src: "class Foo extends Object;\n" +
				"function F()\n{\n" +
				"\tS = \"class'Pkg.Hidden' Hidden(X) var Hidden H;\";\n" +
				"\tS = \"escaped \\\" quote: Texture'Pkg.Hidden' \\\\\";\n" +
				"\tS = \"// not a comment\"; P = Pawn(X);\n" +
				"\tS = \"/* not a comment\"; I = Info(X);\n" +
				"}\n",
			want: []string{"1 extends Object", "6 type Pawn", "7 type Info"},
		},
		{
			name: "unterminated string ends at the line end",
			src:  "class Foo extends Object;\nfunction F()\n{\n\tS = \"open;\n\tP = Pawn(X);\n}\n",
			want: []string{"1 extends Object", "5 type Pawn"},
		},
		{
			name: "defaultproperties",
			src: "class Foo extends Object;\n" +
				"defaultproperties\n{\n" +
				"\tWeapons(0)=Bar\n" +
				"\tHidden(1)=(X=1.0,Y=Hidden(2))\n" +
				"\tMenuName=\"Pkg.Hidden }\"\n" +
				"\tTag='Pkg.Hidden'\n" +
				"\t// Mesh=LodMesh'Pkg.Hidden'\n" +
				"\tMesh=LodMesh'Models.Mesh'\n" +
				"\tMessageClass=Class'Msgs.Message'\n" +
				"\tBegin Object Class=GUIButton Name=OKButton\n" +
				"\tEnd Object\n" +
				"\tAmmo=Pkg.AmmoObject\n" +
				"}\n" +
				"var Pawn AfterDefaults;\n",
			want: []string{"1 extends Object", "9 literal LodMesh'Models.Mesh'", "10 literal Class'Msgs.Message'",
				"11 type GUIButton", "13 qualified Pkg.AmmoObject", "15 type Pawn"},
		},
		{
			name: "cpptext",
			src: "class Foo extends Object native;\n" +
				"cpptext\n{\n" +
				"\tvoid F(AHidden* H) { char c = '}'; char q = '\\''; const char* s = \"{\"; }\n" +
				"\tUHidden* G() { return Cast<UHidden>(StaticFindObject(UHidden::StaticClass(), NULL, TEXT(\"Pkg.Hidden\"))); }\n" +
				"\t// }\n" +
				"}\n" +
				"struct S { var int X; structcpptext { FS(Hidden(x)) {} } };\n" +
				"var Pawn AfterCpp;\n",
			want: []string{"1 extends Object", "9 type Pawn"},
		},
		{
			name: "exec",
			src: "class Foo extends Object;\n" +
				"#exec OBJ LOAD FILE=..\\Textures\\Tex.utx\n" +
				"#exec obj load file=\"..\\Sounds\\My Sounds.uax\" package=SoundPkg.Group\n" +
				"  #exec OBJ LOAD FILE=../Music/Song.umx // Hidden.utx\n" +
				"#exec OBJ LOAD FILE=Embedded.utx PACKAGE=Foo\n" +
				"#exec TEXTURE IMPORT NAME=Skin FILE=Textures\\Skin.pcx GROUP=Skins\n" +
				"#exec MESH IMPORT MESH=M ANIVFILE=Models\\M_a.3d DATAFILE=Models\\M_d.3d\n" +
				"#exec AUDIO IMPORT FILE=\"Sounds\\Boom.wav\" NAME=Boom\n" +
				"#exec NEW STATICMESH FILE=Meshes\\Other.usx NAME=X\n" +
				"// #exec OBJ LOAD FILE=Hidden.utx\n" +
				"/*\n#exec OBJ LOAD FILE=Hidden2.utx\n*/\n" +
				"var string S; #exec OBJ LOAD FILE=NotAtLineStart.utx\n" +
				"X = Y # Z; #error = Pawn(X)\n",
			// An OBJ LOAD with PACKAGE= names two packages: the one it
			// fills and the file's, which must exist.
			want: []string{"1 extends Object", "2 exec ..\\Textures\\Tex.utx", "3 exec ..\\Sounds\\My Sounds.uax",
				"3 exec ..\\Sounds\\My Sounds.uax", "4 exec ../Music/Song.umx", "5 exec Embedded.utx", "5 exec Embedded.utx",
				"9 exec Meshes\\Other.usx", "14 exec NotAtLineStart.utx",
				"15 type Pawn"},
		},
		{
			name: "a named binary operator is no cast",
			src:  "class Foo extends Object;\nfunction F()\n{\n\tX = A Dot (B - C);\n\tY = Normal(A) Cross (B);\n\tZ = V[0] Dot(W);\n}\n",
			want: []string{"1 extends Object", "5 type Normal"},
		},
		{
			name: "variable named Event is not a function",
			src:  "class Foo extends Object;\nvar name Event;\nfunction F()\n{\n\tEvent = GetTag(Owner);\n\tif (Event != '') P = Pawn(X);\n}\n",
			want: []string{"1 extends Object", "5 type GetTag", "6 type Pawn"},
		},
		{
			name: "state extends is not a class",
			src:  "class Foo extends Object;\nauto state Idle extends Base\n{\n\tignores Touch;\nBegin:\n\tSleep(1.0);\n}\n",
			want: []string{"1 extends Object", "6 type Sleep"},
		},
		{
			name: "one reference per line",
			src:  "class Foo extends Object;\nvar Pawn A; var Pawn B;\n",
			want: []string{"1 extends Object", "2 type Pawn"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Scan("Foo.uc", []byte(tt.src))
			if err != nil {
				t.Fatalf("Scan: %v", err)
			}
			if have := refLines(c.Refs); !slices.Equal(have, tt.want) {
				t.Errorf("refs:\nhave %q\nwant %q", have, tt.want)
			}
			for _, d := range c.Diagnostics {
				t.Errorf("unexpected diagnostic %s", d)
			}
		})
	}
}

func TestScanClass(t *testing.T) {
	src := "// header\n\nclass MyWeapon extends Engine.Weapon\n\twithin Controller\n\tconfig(User);\n"
	c, err := Scan("path/to/MyWeapon.uc", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := Class{Name: "MyWeapon", Super: "Weapon", SuperPackage: "Engine", Within: "Controller", File: "path/to/MyWeapon.uc", Line: 3}
	have := Class{Name: c.Name, Super: c.Super, SuperPackage: c.SuperPackage, Within: c.Within, WithinPackage: c.WithinPackage, File: c.File, Line: c.Line}
	if have.Name != want.Name || have.Super != want.Super || have.SuperPackage != want.SuperPackage ||
		have.Within != want.Within || have.WithinPackage != "" || have.File != want.File || have.Line != want.Line {
		t.Errorf("have %+v\nwant %+v", have, want)
	}
	if len(c.Refs) != 2 || c.Refs[0].Text != "class MyWeapon extends Engine.Weapon" || c.Refs[1].Text != "within Controller" {
		t.Errorf("evidence text: have %q", refLines(c.Refs))
	}
}

func TestScanDiagnostics(t *testing.T) {
	tests := []struct {
		name, file, src string
		want            []string
	}{
		{"name matches ignoring case", "dir/myclass.UC", "class MyClass extends Object;", nil},
		{"name differs", "dir/Other.uc", "\nclass MyClass extends Object;",
			[]string{"dir/Other.uc:2: class MyClass is declared in a file named Other.uc (ucc make requires them to match)"}},
		{"no file name, no check", "", "class MyClass extends Object;", nil},
		{"declaration without semicolon", "C.uc", "class C extends Object\n{", []string{"C.uc:1: class declaration does not end with ';'"}},
		{"nested comment read as not nested", "C.uc", "class C extends Object;\n/* a /* b */\nvar Pawn P;\n",
			[]string{"C.uc:2: nested block comment is not closed; read as not nested"}},
		{"unclosed comment", "C.uc", "class C extends Object;\n/* a\nvar Pawn P;\n",
			[]string{"C.uc:2: block comment is not closed before the end of the file"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Scan(tt.file, []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			var have []string
			for _, d := range c.Diagnostics {
				have = append(have, d.String())
			}
			if !slices.Equal(have, tt.want) {
				t.Errorf("have %q\nwant %q", have, tt.want)
			}
		})
	}
	// The plain reading of an unbalanced nested comment keeps the code after it.
	c, _ := Scan("C.uc", []byte("class C extends Object;\n/* a /* b */\nvar Pawn P;\n"))
	if have := refLines(c.Refs); !slices.Contains(have, "3 type Pawn") {
		t.Errorf("refs after an unbalanced comment: have %q", have)
	}
}

func TestScanErrors(t *testing.T) {
	tests := []struct {
		name string
		src  []byte
		want string
	}{
		{"empty", nil, "uscript: X.uc:1: no class declaration"},
		{"only comments", []byte("// class X extends Y;\n/* class X */"), "uscript: X.uc:1: no class declaration"},
		{"class inside a block", []byte("{ class X extends Y; }"), "uscript: X.uc:1: no class declaration"},
		{"too many tokens", []byte("class X extends Y;\n" + strings.Repeat("(", maxTokens)), fmt.Sprintf("uscript: X.uc:2: more than %d tokens: not UnrealScript source", maxTokens)},
		{"too large", make([]byte, MaxFileSize+1), fmt.Sprintf("uscript: X.uc: file is %d bytes, more than the %d-byte limit for a source file", MaxFileSize+1, MaxFileSize)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Scan("X.uc", tt.src)
			var se *Error
			if !errors.As(err, &se) {
				t.Fatalf("have %v, want an *Error", err)
			}
			if err.Error() != tt.want {
				t.Errorf("have %q\nwant %q", err, tt.want)
			}
		})
	}
}

func utf16LE(s string, bom bool) []byte {
	var b []byte
	if bom {
		b = append(b, 0xFF, 0xFE)
	}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return b
}

func utf16BE(s string) []byte {
	b := []byte{0xFE, 0xFF}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u>>8), byte(u))
	}
	return b
}

func TestScanEncodings(t *testing.T) {
	const src = "// Ünïcödé 😀\r\nclass Foo extends Bar;\r\nvar Pawn P; // é\r\n"
	want := []string{"2 extends Bar", "3 type Pawn"}
	tests := []struct {
		name string
		src  []byte
	}{
		{"ascii", []byte(strings.ReplaceAll(src, "😀", ""))},
		{"utf-8", []byte(src)},
		{"utf-8 bom", append([]byte{0xEF, 0xBB, 0xBF}, src...)},
		{"utf-16le bom", utf16LE(src, true)},
		{"utf-16le no bom", utf16LE(src, false)},
		{"utf-16be bom", utf16BE(src)},
		{"windows-1252", []byte("// \x93quoted\x94\nclass Foo extends Bar;\nvar Pawn P; // caf\xe9 \x80\n")},
		{"old mac line ends", []byte("// x\rclass Foo extends Bar;\rvar Pawn P;\r")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Scan("Foo.uc", tt.src)
			if err != nil {
				t.Fatal(err)
			}
			if have := refLines(c.Refs); !slices.Equal(have, want) {
				t.Errorf("have %q\nwant %q", have, want)
			}
			for _, r := range c.Refs {
				if !utf8.ValidString(r.Text) {
					t.Errorf("text %q is not UTF-8", r.Text)
				}
			}
		})
	}
	c, _ := Scan("Foo.uc", []byte("class Foo extends Bar;\nvar Pawn P; // caf\xe9 \x80\n"))
	if have, want := c.Refs[1].Text, "var Pawn P; // café €"; have != want {
		t.Errorf("windows-1252 text: have %q, want %q", have, want)
	}
}

func TestScanLongLine(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("class Foo extends Bar;\n")
	for range 10000 {
		b.WriteString("var Pawn P; local Actor A; X = Info(Y); ")
	}
	c, err := Scan("Foo.uc", b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Refs) != 4 {
		t.Errorf("have %d refs, want 4 (one per name on the line)", len(c.Refs))
	}
	for _, r := range c.Refs[1:] {
		if len(r.Text) > 200+len("…") || !strings.HasSuffix(r.Text, "…") {
			t.Errorf("text not cut: %d bytes", len(r.Text))
		}
	}
}

func TestParseExec(t *testing.T) {
	tests := []struct {
		line, cmd, sub string
		params         map[string]string
	}{
		{"exec OBJ LOAD FILE=a.utx", "OBJ", "LOAD", map[string]string{"file": "a.utx"}},
		{"exec  obj  load  file = x", "obj", "load", map[string]string{}},
		{`exec OBJ LOAD FILE="a b.utx" PACKAGE=P.G`, "OBJ", "LOAD", map[string]string{"file": "a b.utx", "package": "P.G"}},
		{`exec OBJ LOAD FILE="unclosed`, "OBJ", "LOAD", map[string]string{"file": "unclosed"}},
		{"exec TEXTURE IMPORT NAME=A FILE=B.pcx FILE=C", "TEXTURE", "IMPORT", map[string]string{"name": "A", "file": "B.pcx"}},
		{"error something", "", "", nil},
		{"", "", "", nil},
		{"exec", "", "", map[string]string{}},
	}
	for _, tt := range tests {
		cmd, sub, params := parseExec([]byte(tt.line))
		if cmd != tt.cmd || sub != tt.sub || fmt.Sprint(params) != fmt.Sprint(tt.params) {
			t.Errorf("%q: have %q %q %v, want %q %q %v", tt.line, cmd, sub, params, tt.cmd, tt.sub, tt.params)
		}
	}
}

func TestBaseName(t *testing.T) {
	for path, want := range map[string]string{
		`..\Textures\Foo.utx`: "Foo", "../Sounds/Bar.uax": "Bar", "Plain": "Plain", "a.b/c": "c", `x\y.z.u`: "y.z", "": "",
	} {
		if have := baseName(path); have != want {
			t.Errorf("baseName(%q): have %q, want %q", path, have, want)
		}
	}
}
