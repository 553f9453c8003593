package native

import (
	"bytes"
	"maps"
	"slices"
	"strings"
	"testing"
)

func TestBuiltinTablesParse(t *testing.T) {
	tables := BuiltinTables()
	var names []string
	for _, tb := range tables {
		names = append(names, tb.Name)
		if tb.Source == "" || len(tb.From) == 0 || len(tb.Packages) == 0 {
			t.Errorf("%s: empty source, inputs or packages", tb.Name)
		}
		// Writing a table back gives the embedded bytes.
		want, err := tableFiles.ReadFile("tables/" + tb.Name + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		tb.WriteTo(&buf)
		if !bytes.Equal(buf.Bytes(), want) {
			t.Errorf("%s: WriteTo does not give the embedded file back", tb.Name)
		}
	}
	if want := []string{"undying", "ut2004", "ut2004-3369", "ut99-436", "ut99-469"}; !slices.Equal(names, want) {
		t.Errorf("tables %q, want %q", names, want)
	}
	// What issue 10 is about: UE2 native-only classes.
	ut2004 := Builtin("ut2004")
	for _, c := range []string{"KMeshProps", "MeshInstance", "TerrainPrimitive", "FluidSurfacePrimitive", "IndexBuffer", "VertexBuffer"} {
		if !slices.Contains(ut2004.Packages["Engine"], c) {
			t.Errorf("ut2004 table lacks Engine.%s", c)
		}
	}
	if got := len(Builtin("ut99-469").Packages["Core"]); got != 36 {
		t.Errorf("ut99-469 Core has %d classes, want 36", got)
	}
}

func TestBuiltinIsACopy(t *testing.T) {
	a := Builtin("ut99-469")
	a.Packages["Core"][0] = "Changed"
	delete(a.Packages, "Engine")
	b := Builtin("ut99-469")
	if b.Packages["Core"][0] == "Changed" || b.Packages["Engine"] == nil {
		t.Error("Builtin returned shared data")
	}
	if Builtin("nope") != nil {
		t.Error("Builtin(nope) != nil")
	}
}

func TestTablesFor(t *testing.T) {
	const ue2 = "ut2004 ut2004-3369"
	tests := []struct {
		game       string
		gen, build int
		want       string
	}{
		{"ut99", 1, 0, "ut99-469"}, {"UT99", 1, 469, "ut99-469"}, {"deusex", 1, 0, "ut99-469"}, {"rune", 1, 0, "ut99-469"},
		{"unreal", 1, 0, "ut99-469"}, {"ue1", 1, 0, "ut99-469"}, {"undying", 1, 0, "undying"}, {"ut99-436", 1, 0, "ut99-436"},
		// A 436 or 451 install gets no 469-only classes.
		{"ut99", 1, 436, "ut99-436"}, {"ut99", 1, 451, "ut99-436"}, {"deusex", 1, 1112, "ut99-469"},
		// An unnamed UE1 game with UT's build 451 is a 451 install; Unreal's 226 is not UT's.
		{"ue1", 1, 451, "ut99-436"}, {"", 1, 436, "ut99-436"}, {"ue1", 1, 226, "ut99-469"}, {"ue1", 1, 469, "ut99-469"},
		{"ut2004", 2, 0, ue2}, {"ut2003", 2, 0, ue2}, {"kf", 2, 0, ue2}, {"swat4", 2, 0, ue2}, {"ue2", 2, 0, ue2},
		{"", 1, 0, "ut99-469"}, {"other", 2, 0, ue2}, {"", 0, 0, ""}, {"other", 3, 0, ""},
	}
	for _, tt := range tests {
		var names []string
		for _, tab := range TablesFor(tt.game, tt.gen, tt.build) {
			names = append(names, tab.Name)
		}
		if have := strings.Join(names, " "); have != tt.want {
			t.Errorf("TablesFor(%q, %d, %d) = %q, want %q", tt.game, tt.gen, tt.build, have, tt.want)
		}
	}
	// UE2 modules beyond Core and Engine: native-only classes such as
	// IpDrv.TcpNetDriver are known without the install's binaries.
	s := NewSet()
	for _, tab := range TablesFor("ut2004", 2, 0) {
		s.AddTable(tab)
	}
	for _, c := range []string{"IpDrv.TcpNetDriver", "UWeb.WebRequest", "Fire.FireTexture", "Editor.BrushBuilder", "XInterface.GUIController", "Engine.KMeshProps"} {
		pkg, class, _ := strings.Cut(c, ".")
		if !s.Has(pkg, class) {
			t.Errorf("the UT2004 tables lack %s", c)
		}
	}
	if _, src, _ := s.Classes("Core"); src.Table != "ut2004" {
		t.Errorf("Core comes from table %q, want ut2004 (the first)", src.Table)
	}
}

func TestParseTableErrors(t *testing.T) {
	head := "# name: x\n# game: ut99\n# generation: 1\n"
	tests := []struct{ name, in, msg string }{
		{"no header", "Core Object\n", "header lacks"},
		{"bad generation", "# generation: 3\n", "x.txt:1: generation"},
		{"three fields", head + "Core Object Extra\n", "x.txt:4: want"},
		{"not a name", head + "Core Obj-ect\n", "x.txt:4:"},
		{"out of order", head + "Core Struct\nCore Object\n", "x.txt:5: Core Object is out of order"},
		{"repeated", head + "Core Object\nCore object\n", "x.txt:5:"},
		{"package order", head + "Engine Level\nCore Object\n", "x.txt:5:"},
		{"package spelling", head + "Core Object\ncore Struct\n", "x.txt:5: package core spelled Core"},
	}
	for _, tt := range tests {
		_, err := ParseTable(strings.NewReader(tt.in), "x.txt")
		if err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.msg)
		}
	}
}

func TestTableRoundTrip(t *testing.T) {
	in := &Table{Name: "t", Game: "ut2004", Generation: 2, Source: "line one\nline two", From: []string{"a.dll: pe-exports, 2 classes"},
		Packages: map[string][]string{"Engine": {"Level", "KMeshProps", "kmeshprops"}, "Core": {"Object"}}}
	var buf bytes.Buffer
	if _, err := in.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	want := "# upkdeps native class table, made by native/gentables: do not edit\n# name: t\n# game: ut2004\n# generation: 2\n" +
		"# source: line one\n# source: line two\n# from: a.dll: pe-exports, 2 classes\nCore Object\nEngine KMeshProps\nEngine Level\n"
	if buf.String() != want {
		t.Fatalf("WriteTo:\n%s\nwant:\n%s", buf.String(), want)
	}
	out, err := ParseTable(&buf, "t.txt")
	if err != nil {
		t.Fatal(err)
	}
	if out.Name != in.Name || out.Game != in.Game || out.Generation != 2 || out.Source != in.Source ||
		!slices.Equal(out.From, in.From) || !slices.Equal(slices.Sorted(maps.Keys(out.Packages)), []string{"Core", "Engine"}) ||
		!slices.Equal(out.Packages["Engine"], []string{"KMeshProps", "Level"}) {
		t.Errorf("round trip: %+v", out)
	}
}

func TestHeaderClasses(t *testing.T) {
	src := `/* DECLARE_CLASS(UCommented,UObject,0,Engine) */
#define DECLARE_CLASS( TClass, TSuperClass, TStaticFlags, TPackage ) \
	DECLARE_BASE_CLASS( TClass, TSuperClass, TStaticFlags, TPackage )
class ENGINE_API UKMeshProps : public UObject
{
	DECLARE_CLASS(UKMeshProps,UObject,0,Engine)
	// DECLARE_CLASS(ULineComment,UObject,0,Engine)
};
class AActor : public UObject { DECLARE_CLASS(AActor,UObject,(CLASS_Transient | CLASS_Config),Engine); };
	DECLARE_ABSTRACT_CLASS( UPrimitive, UObject, CLASS_Abstract, Engine )
	DECLARE_BASE_CLASS(UObject,UObject,0,Core)
	MY_DECLARE_CLASS(UNotOne,UObject,0,Engine)
	DECLARE_CLASS_INTRINSIC_X
`
	got, err := HeaderClasses(strings.NewReader(src), "x.h")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"Engine": {"KMeshProps", "Actor", "Primitive"}, "Core": {"Object"}}
	if !maps.EqualFunc(got, want, slices.Equal) {
		t.Errorf("have %q, want %q", got, want)
	}
	for _, bad := range []string{"DECLARE_CLASS(UA,UObject,0)\n", "DECLARE_CLASS(UA,UObject,\n0,Engine)\n", "DECLARE_CLASS(XA,UObject,0,Engine)\n"} {
		if _, err := HeaderClasses(strings.NewReader(bad), "bad.h"); err == nil || !strings.Contains(err.Error(), "native: bad.h:1:") {
			t.Errorf("%q: error %v, want one naming bad.h:1", bad, err)
		}
	}
}

// TestOwnTable: only a game's own table, never another game's or the
// generation's (which TablesFor falls back on).
func TestOwnTable(t *testing.T) {
	for _, c := range []struct{ game, want string }{
		{"ut99", "ut99-469"}, {"UT2004", "ut2004"}, {"undying", "undying"}, {"ut99-436", "ut99-436"},
		{"ue1", ""}, {"unreal", ""}, {"deusex", ""}, {"ue2", ""}, {"kf", ""}, {"ut2003", ""}, {"", ""},
	} {
		got := ""
		if tab := OwnTable(c.game); tab != nil {
			got = tab.Name
		}
		if got != c.want {
			t.Errorf("OwnTable(%q) = %q, want %q", c.game, got, c.want)
		}
	}
}

// TestBuiltinReadPerName: a table is read on first use, alone (a check of
// a UT99 install reads ut99-469, not the UT2004 tables), and once.
func TestBuiltinReadPerName(t *testing.T) {
	builtins.mu.Lock()
	saved := builtins.tables
	builtins.tables = nil
	builtins.mu.Unlock()
	defer func() {
		builtins.mu.Lock()
		builtins.tables = saved
		builtins.mu.Unlock()
	}()
	tables := TablesFor("ut99", 1, 469)
	if len(tables) != 1 || tables[0].Name != "ut99-469" {
		t.Fatalf("TablesFor(ut99) = %d tables", len(tables))
	}
	first, second := builtin("ut99-469"), builtin("ut99-469")
	if first != second || builtin("../tables/ut99-469") != nil {
		t.Error("a table read twice, or by a path")
	}
	builtins.mu.Lock()
	defer builtins.mu.Unlock()
	if got := slices.Sorted(maps.Keys(builtins.tables)); !slices.Equal(got, []string{"../tables/ut99-469", "ut99-469"}) {
		t.Errorf("names looked up %q", got)
	}
}
