package uscript

import (
	"slices"
	"testing"
)

// TestScanShippedSyntax: the syntax of the trees that build (issue 37),
// each case a shape found in one of them.
func TestScanShippedSyntax(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
		vars      []string // declared variable names the scan must know
		funcs     []string // declared function names the scan must know
	}{
		{
			name: "specifiers after the function keyword (UT2004 GameProfile)",
			src:  "class Foo extends Object;\nfunction static string TextPos(int N)\n{\n\treturn TextPos(N);\n}\n",
			// The call is kept for resolution, which drops it: the
			// class declares a function TextPos.
			want:  []string{"1 extends Object", "4 type TextPos"},
			funcs: []string{"textpos"},
		},
		{
			name: "UE2 cache, 227 nowarn/noedsave/norepnotify, an unknown specifier by its place",
			src: "class Foo extends Object;\nvar cache string S;\nvar() const protected cache array<Item> Items;\n" +
				"var(Zone) nowarn float Gain;\nvar noedsave norepnotify const Actor Owner;\nvar deepcopy Widget W;\n",
			want: []string{"1 extends Object", "3 type Item", "5 type Actor", "6 type Widget"},
			vars: []string{"s", "items", "gain", "owner", "w"},
		},
		{
			name: "var GUID X: GUID is the type (UT99 469 udemo)",
			src:  "class Foo extends Object;\nvar GUID FileGUID;\nfunction F(string N, GUID desiredGUID, int Gen) {}\n",
			want: []string{"1 extends Object"},
			vars: []string{"fileguid", "desiredguid"},
		},
		{
			name: "227 types uint, dword, lazyarray<T>, StaticLightData",
			src:  "class Foo extends Object;\nvar const uint T;\nvar transient dword A, B;\nvar() const editconst lazyarray<byte> D;\nvar StaticLightData L;\nvar lazyarray<Pawn> P;\n",
			want: []string{"1 extends Object", "6 type Pawn"},
		},
		{
			name: "a second extends is a C++ interface (227 Subsystem)",
			src:  "class Foo extends Object extends FExec native;\n",
			want: []string{"1 extends Object"},
		},
		{
			name: "cppbitmask(Name) { declarations } (227 Texture)",
			src:  "class Foo extends Object;\ncppbitmask(PolyFlags)\n{\n\tvar bool bInvisible;\n\tvar Pawn P;\n};\n",
			want: []string{"1 extends Object", "5 type Pawn"},
		},
		{
			name: "an inline struct after specifiers (UT2004 GUIButton)",
			src:  "class Foo extends Object;\nvar() struct native Padding\n{\n\tvar() float L;\n} Pad;\nvar Padding P2;\n",
			want: []string{"1 extends Object", "6 type Padding"},
		},
		{
			name: "preprocessor: #if 0 skipped, an unknown #ifdef kept but inactive, #define known",
			src: "class Foo extends Object;\n#if 0\nvar Gone A;\n#else\nvar Kept B;\n#endif\n" +
				"#ifdef WITH_KARMA\nvar Maybe C;\n#endif\n#define HAVE_X\n#ifdef HAVE_X\nvar Sure D;\n#else\nvar Never E;\n#endif\n",
			want: []string{"1 extends Object", "5 type Kept", "8 type Maybe (inactive)", "12 type Sure"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Scan("Foo.uc", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			have := refLines(c.Refs)
			for i, r := range c.Refs {
				if r.Inactive {
					have[i] += " (inactive)"
				}
			}
			if !slices.Equal(have, tt.want) {
				t.Errorf("refs:\nhave %q\nwant %q", have, tt.want)
			}
			for _, f := range tt.funcs {
				if _, ok := c.funcs[f]; !ok {
					t.Errorf("function %s not read; funcs %v", f, c.funcs)
				}
			}
			for _, v := range tt.vars {
				if _, ok := c.vars[v]; !ok {
					t.Errorf("variable %s not read; vars %v", v, c.vars)
				}
			}
		})
	}
}

// TestNativeClass: native and intrinsic mark a class with C++ code.
func TestNativeClass(t *testing.T) {
	for src, want := range map[string]bool{
		"class A extends Object native;":                     true,
		"class A extends Object\n\tintrinsic\n\tabstract;":   true,
		"class A extends Object abstract config(User);":      false,
		"class A extends Object nativereplication abstract;": false,
	} {
		c, err := Scan("A.uc", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if c.Native != want {
			t.Errorf("%q: Native %v, want %v", src, c.Native, want)
		}
	}
}

// TestStructScopedToClass: a type name binds to a struct the class or a
// parent declares before a class of that name in another package (227:
// Fire.FireTexture's struct Spark and the class UnrealShare.Spark), while
// class<Spark> still means the class.
func TestStructScopedToClass(t *testing.T) {
	idx := NewIndex(map[string][]string{"Core": {"Object"}})
	fire := srcPackage(t, "Fire", map[string]string{
		"FireTexture.uc": "class FireTexture extends Object;\nstruct Spark { var byte X; };\nvar array<Spark> Sparks;\n",
		"WetTexture.uc":  "class WetTexture extends FireTexture;\nvar Spark One;\nvar class<Spark> SparkClass;\n",
	})
	share := srcPackage(t, "UnrealShare", map[string]string{"Spark.uc": "class Spark extends Object;\n"})
	idx.AddSource(share)
	idx.AddSource(fire)
	have := depLines(idx.Dependencies(fire))
	want := []string{"Core: FireTexture.uc:1 extends Object", "UnrealShare: WetTexture.uc:3 type Spark"}
	if !slices.Equal(have, want) {
		t.Errorf("dependencies:\nhave %q\nwant %q", have, want)
	}
	// A subclass in another package inherits the struct too.
	mod := srcPackage(t, "Mod", map[string]string{"MyFire.uc": "class MyFire extends WetTexture;\nvar Spark S;\n"})
	if have := depLines(idx.Dependencies(mod)); !slices.Equal(have, []string{"Fire: MyFire.uc:1 extends WetTexture"}) {
		// not UnrealShare: MyFire.uc:2 type Spark
		t.Errorf("subclass in another package: %q", have)
	}
}

// TestCallIsNoUnknownClass: Name(expr) with Name no class is a call of a
// function the class may inherit (Abs, Spawn, log), never unresolved;
// with Name a class it is a cast and a dependency.
func TestCallIsNoUnknownClass(t *testing.T) {
	idx := NewIndex(map[string][]string{"Core": {"Object"}, "Engine": {"Actor", "Pawn"}})
	idx.AddNames(nil)
	p := srcPackage(t, "Mod", map[string]string{"A.uc": "class A extends Actor;\nfunction F(Actor O)\n{\n\tAbs(1); Disable('Tick'); Spawn(O.Class);\n\tP = Pawn(O);\n}\n"})
	if have := evidenceLines(idx.Unresolved(p)); len(have) != 0 {
		t.Errorf("unresolved: %q", have)
	}
	if have := depLines(idx.Dependencies(p)); !slices.Equal(have, []string{"Engine: A.uc:1 extends Actor", "Engine: A.uc:2 type Actor", "Engine: A.uc:5 type Pawn"}) {
		t.Errorf("dependencies: %q", have)
	}
}

// TestMovedClassInDefaults: a defaults value Class'Pkg.X' naming a
// class another package defines is no unknown class (227's UnrealI names
// classes it moved to UnrealShare by the old package); one defined
// nowhere is.
func TestMovedClassInDefaults(t *testing.T) {
	idx := NewIndex(map[string][]string{"Core": {"Object"}, "UnrealShare": {"BioGel"}})
	p := srcPackage(t, "UnrealI", map[string]string{"Rifle.uc": "class Rifle extends Object;\ndefaultproperties\n{\n" +
		"\tA=Class'UnrealI.BioGel'\n\tB=Class'UnrealI.NoWhere'\n}\n"})
	idx.AddSource(p)
	if have := evidenceLines(idx.Unresolved(p)); !slices.Equal(have, []string{"Rifle.uc:5 literal Class'UnrealI.NoWhere'"}) {
		t.Errorf("unresolved: %q", have)
	}
}

// TestSubfolderClasses: a class below Classes/ declares its name (no
// unknown class for a use of it) but its own references are no
// dependency and no finding: whether the game compiles it is not known.
func TestSubfolderClasses(t *testing.T) {
	idx := NewIndex(map[string][]string{"Core": {"Object"}})
	idx.AddNames(nil)
	p := srcPackage(t, "Mod", map[string]string{
		"A.uc":   "class A extends Object;\nvar Nested N;\n",
		"Sub.uc": "class Nested extends NoSuchParent;\nvar Engine.Actor X;\n",
	})
	p.Classes[1].Subfolder = true
	idx.AddSource(p)
	if have := evidenceLines(idx.Unresolved(p)); len(have) != 0 {
		t.Errorf("unresolved: %q", have)
	}
	if have := depLines(idx.Dependencies(p)); !slices.Equal(have, []string{"Core: A.uc:1 extends Object"}) {
		t.Errorf("dependencies: %q", have)
	}
}
