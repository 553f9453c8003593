package header

import (
	"bytes"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/uscript"
)

// withActor returns the tree with Engine's Actor.uc passed through edit.
func withActor(edit func(string) string) []src {
	out := make([]src, len(tree))
	copy(out, tree)
	for i, f := range out {
		if f.pkg == "Engine" && f.file == "Actor.uc" {
			out[i].text = edit(f.text)
		}
	}
	return out
}

// model returns the model of package pkg generated from files.
func model(t *testing.T, files []src, pkg string) *File {
	t.Helper()
	g := New(UE1)
	var order []string
	byPkg := map[string][]*uscript.Decls{}
	for _, f := range files {
		d, err := uscript.ReadDecls("../"+f.pkg+"/Classes/"+f.file, []byte(f.text))
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := byPkg[f.pkg]; !ok {
			order = append(order, f.pkg)
		}
		byPkg[f.pkg] = append(byPkg[f.pkg], d)
	}
	for _, p := range order {
		pkg := Package{Name: p, Classes: byPkg[p]}
		if p == "Engine" {
			pkg.Native = func(c string) bool { return strings.EqualFold(c, "SavedMove") }
		}
		if err := g.Add(pkg); err != nil {
			t.Fatal(err)
		}
	}
	_, m, ok, err := g.Header(pkg)
	if err != nil || !ok {
		t.Fatalf("%s: ok %v err %v", pkg, ok, err)
	}
	return m
}

func TestDiff(t *testing.T) {
	base := generate(t, tree, UE1, nil)["Engine"]
	have, err := ParseHeader(bytes.NewReader(base), "EngineClasses.h")
	if err != nil {
		t.Fatal(err)
	}
	if len(have.Classes) != 6 || len(have.Names) != 10 {
		t.Fatalf("parsed %d classes, %d names", len(have.Classes), len(have.Names))
	}
	if c := Diff(model(t, tree, "Engine"), have); len(c) != 0 {
		t.Fatalf("unchanged sources: %+v", c)
	}
	for _, tc := range []struct {
		name  string
		edit  func(string) string
		want  Change
		count int
	}{
		{"added", func(s string) string {
			return strings.Replace(s, "var float TimeLeft;", "var float TimeLeft;\nvar int Health;", 1)
		},
			Change{Class: "AActor", Kind: MemberAdded, Name: "Health", Want: "INT", File: "../Engine/Classes/Actor.uc", Line: 7}, 1},
		{"removed", func(s string) string { return strings.Replace(s, "var name Tag;\n", "", 1) },
			Change{Class: "AActor", Kind: MemberRemoved, Name: "Tag", Have: "FName", HeaderLine: 88}, 1},
		{"retyped", func(s string) string { return strings.Replace(s, "var float TimeLeft;", "var int TimeLeft;", 1) },
			Change{Class: "AActor", Kind: MemberRetyped, Name: "TimeLeft", Want: "INT", Have: "FLOAT", File: "../Engine/Classes/Actor.uc", Line: 6, HeaderLine: 86}, 1},
		{"array size", func(s string) string { return strings.Replace(s, "var byte Bytes[2];", "var byte Bytes[3];", 1) },
			Change{Class: "AActor", Kind: MemberRetyped, Name: "Bytes", Want: "BYTE[3]", Have: "BYTE[2]", File: "../Engine/Classes/Actor.uc", Line: 15, HeaderLine: 95}, 1},
		{"moved", func(s string) string {
			s = strings.Replace(s, "var name Tag;\n", "", 1)
			return strings.Replace(s, "var color DrawColor;", "var color DrawColor;\nvar name Tag;", 1)
		}, Change{Class: "AActor", Kind: MemberMoved, Name: "Tag", Want: "#17", Have: "#5", File: "../Engine/Classes/Actor.uc", Line: 20, HeaderLine: 88}, 1},
		{"native added", func(s string) string { return s + "native function Jump();\n" },
			Change{Class: "AActor", Kind: NativeAdded, Name: "Jump", File: "../Engine/Classes/Actor.uc", Line: 33}, 1},
		{"event retyped", func(s string) string {
			return strings.Replace(s, "event Touch(Actor Other);", "event Touch(Actor Other, int Count);", 1)
		},
			Change{Class: "AActor", Kind: EventChanged, Name: "Touch", Want: "void event(class AActor* Other, INT Count)", Have: "void event(class AActor* Other)", File: "../Engine/Classes/Actor.uc", Line: 24, HeaderLine: 157}, 1},
		{"enum changed", func(s string) string { return strings.Replace(s, "PHYS_Walking, ", "PHYS_Walking, PHYS_Swimming, ", 1) },
			Change{Class: "AActor", Kind: EnumChanged, Name: "EPhysics", Want: "PHYS_None,PHYS_Walking,PHYS_Swimming,PHYS_Falling", Have: "PHYS_None,PHYS_Walking,PHYS_Falling", File: "../Engine/Classes/Actor.uc", Line: 7, HeaderLine: 32}, 1},
		{"class no longer native", func(s string) string { return strings.Replace(s, "abstract native nativereplication", "abstract", 1) },
			Change{Class: "AActor", Kind: ClassRemoved, Name: "AActor", HeaderLine: 81}, 1},
	} {
		changes := Diff(model(t, withActor(tc.edit), "Engine"), have)
		var found bool
		for _, c := range changes {
			if c == tc.want {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: changes %+v\nwant among them %+v", tc.name, changes, tc.want)
		}
	}
}

// TestDiffEveryKind: layout, packing and order differences are reported
// next to structural ones, names as those added and removed.
func TestDiffEveryKind(t *testing.T) {
	want := model(t, tree, "Engine")
	// The header on disk: written in another layout (DECLARE_CLASS without
	// the package) from sources where Actor's bAfter was an int (so
	// Velocity had no packing mark) and Touch was another event.
	old := generate(t, withActor(func(s string) string {
		s = strings.Replace(s, "var bool bAfter;\n", "var int bAfter;\n", 1)
		return strings.Replace(s, "event Touch(Actor Other);\n", "event Old();\n", 1)
	}), UE1Early, nil)["Engine"]
	have, err := ParseHeader(bytes.NewReader(old), "EngineClasses.h")
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	var names, packing *Change
	for i, c := range Diff(want, have) {
		kinds[c.Kind]++
		switch c.Kind {
		case NamesChanged:
			names = &Diff(want, have)[i]
		case PackingChanged:
			packing = &Diff(want, have)[i]
		}
	}
	if kinds[DeclareChanged] != len(want.Classes) || kinds[MemberRetyped] != 1 || kinds[PackingChanged] != 1 {
		t.Errorf("kinds %v, want a declare change per class (%d), one retyped member, one packing change", kinds, len(want.Classes))
	}
	if names == nil || names.Want != "Touch" || names.Have != "Old" {
		t.Errorf("names change %+v, want added Touch, removed Old", names)
	}
	if packing == nil || packing.Name != "Velocity" || packing.Want != "GCC_PACK(4)" || packing.Have != "no mark" {
		t.Errorf("packing change %+v", packing)
	}
	// The same header with its classes in another order: only that.
	rev := *want
	rev.Classes = append([]*Class{}, want.Classes...)
	rev.Classes[0], rev.Classes[1] = rev.Classes[1], rev.Classes[0]
	if d := Diff(want, &rev); len(d) != 1 || d[0].Kind != OrderChanged || d[0].Name != "classes" {
		t.Errorf("reordered classes: %+v", d)
	}
}

// TestParseEnumValueEndingInMax: only the last _MAX line is the
// generator's; a value of the script may end in _MAX too.
func TestParseEnumValueEndingInMax(t *testing.T) {
	text := "class ENGINE_API UX : public UObject\n{\npublic:\n    DECLARE_CLASS(UX,UObject,0,Engine)\n};\n"
	text = "enum EOffer\n{\n    OFFER_NONE              =0,\n    OFFER_OWN_MAX           =1,\n    OFFER_LAST              =2,\n    OFFER_MAX               =3,\n};\n" + text
	f, err := ParseHeader(strings.NewReader(text), "X.h")
	if err != nil || len(f.Classes) != 1 || len(f.Classes[0].Enums) != 1 {
		t.Fatalf("%v %+v", err, f)
	}
	if got := strings.Join(f.Classes[0].Enums[0].Values, ","); got != "OFFER_NONE,OFFER_OWN_MAX,OFFER_LAST" {
		t.Errorf("values %s", got)
	}
}
