package header

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestDetectLayout: each layout is told from a header written in it.
func TestDetectLayout(t *testing.T) {
	for _, l := range []Layout{UE1, UE1Early, Undying, UE2, UE2Early, {Name: "ue2-early", UE2: true, Early: true, PackAfterByte: true},
		{Name: "ue2-early", UE2: true, Early: true, SizeChecks: true}, {Name: "ue2-early", UE2: true, Early: true, SizeChecks: true, SizeChecksInStaticLink: true}} {
		got, ok := DetectLayout(generate(t, tree, l, nil)["Engine"])
		if !ok || got != l {
			t.Errorf("%+v: detected %+v, %v", l, got, ok)
		}
	}
	// The first header that shows a generation decides it; a later one
	// adds what it shows (Undying's IpDrv header has no aligned vector).
	ue1 := generate(t, tree, UE1, nil)["Engine"]
	und := generate(t, tree, Undying, nil)["Engine"]
	if got, _ := DetectLayout([]byte("not a header"), ue1, und); got != Undying {
		t.Errorf("ue1 then undying: %+v", got)
	}
	if _, ok := DetectLayout([]byte("#include <stdio.h>\n")); ok {
		t.Error("a file that is no header gave a layout")
	}
}

// earlyTree adds to the tree what only the early UE2 layout writes
// differently: a name constant, an enum whose first value has no
// underscore, and an enum declared inside a struct.
var earlyTree = append(append([]src{}, tree...), src{"Engine", "Pawn.uc", `class Pawn extends Actor native;
const FIRINGBLENDBONE='X Spine';
enum EScaleAxis
{
	ScaleAxisNone,
	ScaleAxisX
};
struct MusicVar
{
	var string Name;
	var enum EMusicVarType { SNDVarType_Int, SNDVarType_Bool } Type;
};
var int Health;
var MusicVar Music;
`})

// TestUE2EarlyRules names what the early UE2 layout (XIII's published
// headers) does otherwise than UT2004's.
func TestUE2EarlyRules(t *testing.T) {
	ue2 := string(generate(t, earlyTree, UE2, nil)["Engine"])
	early := string(generate(t, earlyTree, UE2Early, nil)["Engine"])
	ue1 := string(generate(t, earlyTree, UE1, nil)["Engine"])
	names := regexp.MustCompile(`(?m)^AUTOGENERATE_NAME\(\w+\)$`)
	if e, u := names.FindAllString(early, -1), names.FindAllString(ue1, -1); strings.Join(e, " ") != strings.Join(u, " ") || len(e) < 5 {
		t.Errorf("names: early %v, want the name table's order %v", e, u)
	}
	if e := names.FindAllString(ue2, -1); strings.Join(e, " ") == strings.Join(names.FindAllString(early, -1), " ") {
		t.Errorf("names: UT2004 sorts them, the test tree should show it: %v", e)
	}
	for _, c := range []struct{ rule, ue2, early string }{
		{"first member", "    INT MaxPlayers GCC_PACK(4);\n", "    INT MaxPlayers;\n"},
		{"after a byte", "    BYTE Bytes[2];\n    FVector Location GCC_PACK(4);\n", "    BYTE Bytes[2];\n    FVector Location;\n"},
		{"first bool kept", "    BITFIELD bStatic:1 GCC_PACK(4);\n", "    BITFIELD bStatic:1 GCC_PACK(4);\n"},
		{"bool to non-bool kept", "    FLOAT TimeLeft GCC_PACK(4);\n", "    FLOAT TimeLeft GCC_PACK(4);\n"},
		{"bool parameter", "        Parms.bLoud=((bLoud) ? FIRST_BITFIELD : 0);\n", "        Parms.bLoud=bLoud;\n"},
		{"static array parameter", "        appMemcpy(&Parms.Keys,Keys,sizeof(Parms.Keys));\n", "        appMemcpy(&Parms.Keys,&Keys,sizeof(Parms.Keys));\n"},
		{"name constant", "#define UCONST_FIRINGBLENDBONE 'X Spine'\n", "#define UCONST_FIRINGBLENDBONE X Spine\n"},
		{"no _MAX without an underscore", "    ScaleAxisX              =1,\n    E_MAX                   =2,\n};\n", "    ScaleAxisX              =1,\n};\n"},
		{"static-link block", "\n\n#ifdef NATIVE_DEFS_ONLY\nDECLARE_NATIVE_TYPE(Engine,AActor);\n",
			"#if SUPPORTS_PRAGMA_PACK\n#pragma pack (pop)\n#endif\n\n#if __STATIC_LINK\n#ifndef ENGINE_NATIVE_DEFS\n#define ENGINE_NATIVE_DEFS\n\nDECLARE_NATIVE_TYPE(Engine,AActor);\n"},
		{"static-link end", "#endif // NATIVE_DEFS_ONLY\n\n#ifdef NATIVES_ONLY\n", "\n#endif // Engine_NATIVE_DEFS\n\n#ifdef NATIVES_ONLY\n"},
		{"file end", "#endif // VERIFY_CLASS_SIZES\n", "IMPLEMENT_NATIVE_HANDLER(Engine,AActor);\n\n#endif // NATIVES_ONLY\n#endif // __STATIC_LINK\n"},
	} {
		if !strings.Contains(ue2, c.ue2) {
			t.Errorf("%s: UT2004 layout lacks %q", c.rule, c.ue2)
		}
		if !strings.Contains(early, c.early) {
			t.Errorf("%s: early layout lacks %q", c.rule, c.early)
		}
	}
	if !strings.HasSuffix(early, "#endif // __STATIC_LINK\n") || strings.Contains(early, "VERIFY_CLASS_SIZE") || strings.Contains(early, "NATIVE_DEFS_ONLY") {
		t.Errorf("early layout's tables:\n%s", early[strings.LastIndex(early, "#if __STATIC_LINK"):])
	}
	// An enum inside a struct is the struct's: no layout writes it.
	for name, h := range map[string]string{"ue1": ue1, "ue2": ue2, "ue2-early": early} {
		if strings.Contains(h, "EMusicVarType") {
			t.Errorf("%s: a struct's enum written as the class's", name)
		}
	}
}

// TestProbesFromHints: which events UE2 calls only when probed is the
// engine's name table's business: an existing header's thunks say it.
func TestProbesFromHints(t *testing.T) {
	plain := string(generate(t, tree, UE2, nil)["Engine"])
	if !strings.Contains(plain, "if(IsProbing(NAME_Timer))") || strings.Contains(plain, "IsProbing(NAME_Greet)") {
		t.Fatalf("without hints: Timer is a probe, Greet is not:\n%s", plain)
	}
	got := string(generate(t, tree, UE2, map[string]*Hints{"Engine": {Thunks: []string{"Timer", "Greet"}, Probes: []string{"Greet"}}})["Engine"])
	if strings.Contains(got, "IsProbing(NAME_Timer)") || !strings.Contains(got, "if(IsProbing(NAME_Greet)) {") {
		t.Errorf("with hints: Timer is no probe, Greet is:\n%s", got)
	}
	// ParseHeader reads them back.
	f, err := ParseHeader(strings.NewReader(got), "EngineClasses.h")
	if err != nil {
		t.Fatal(err)
	}
	h := HintsFrom(f)
	if probes, thunks := " "+strings.Join(h.Probes, " ")+" ", " "+strings.Join(h.Thunks, " ")+" "; !strings.Contains(probes, " Greet ") ||
		strings.Contains(probes, " Timer ") || !strings.Contains(thunks, " Timer ") {
		t.Errorf("parsed probes %v, thunks %v", h.Probes, h.Thunks)
	}
}

// TestUE2EarlySizeChecks: an early UE2 header with a VERIFY_CLASS_SIZES
// section lists the exported classes only, not the native noexport ones
// (Canvas, and UEngine registered by the existing header) nor the C++-only
// ones, where the header has the section; XIII's have none.
func TestUE2EarlySizeChecks(t *testing.T) {
	hints := map[string]*Hints{"Engine": {Registrants: []string{"UCanvas", "AActor", "UFooDriver"}}}
	checks := regexp.MustCompile(`(?m)^VERIFY_CLASS_SIZE_NODIE\((\w+)\)$`)
	list := func(h string) []string {
		var out []string
		for _, m := range checks.FindAllStringSubmatch(h, -1) {
			out = append(out, m[1])
		}
		slices.Sort(out)
		return out
	}
	ue2 := string(generate(t, earlyTree, UE2, hints)["Engine"])
	if l := list(ue2); !slices.Contains(l, "UCanvas") {
		t.Fatalf("UT2004 checks the noexport native Canvas too, the test tree should show it: %v", l)
	}
	outside := UE2Early
	outside.SizeChecks = true
	inside := outside
	inside.SizeChecksInStaticLink = true
	for _, c := range []struct {
		l    Layout
		tail string
	}{
		{outside, "#endif // NATIVES_ONLY\n#endif // __STATIC_LINK\n\n#ifdef VERIFY_CLASS_SIZES\nVERIFY_CLASS_SIZE_NODIE(AActor)\n"},
		{inside, "#endif // NATIVES_ONLY\n\n#ifdef VERIFY_CLASS_SIZES\nVERIFY_CLASS_SIZE_NODIE(AActor)\n"},
	} {
		text := generate(t, earlyTree, c.l, hints)["Engine"]
		got := string(text)
		f, err := ParseHeader(bytes.NewReader(text), "EngineClasses.h")
		if err != nil {
			t.Fatal(err)
		}
		var declared []string
		for _, cl := range f.Classes {
			declared = append(declared, cl.Name)
		}
		slices.Sort(declared)
		if l := list(got); !slices.Equal(l, declared) || len(l) < 5 {
			t.Errorf("%+v: size checks %v, want the classes the header declares %v", c.l, l, declared)
		}
		if !strings.Contains(got, c.tail) || strings.Count(got, "#ifdef VERIFY_CLASS_SIZES") != 1 {
			t.Errorf("%+v: no %q in\n%s", c.l, c.tail, got[strings.LastIndex(got, "#if __STATIC_LINK"):])
		}
		if end := "#endif // VERIFY_CLASS_SIZES\n#endif // __STATIC_LINK\n"; c.l.SizeChecksInStaticLink != strings.HasSuffix(got, end) {
			t.Errorf("%+v: the section inside the static-link block is %v", c.l, !c.l.SizeChecksInStaticLink)
		}
		// The registrants keep the noexport and C++-only classes.
		for _, cpp := range []string{"UCanvas", "AActor", "UFooDriver"} {
			if !strings.Contains(got, "\t"+cpp+"::StaticClass(); \\\n") {
				t.Errorf("%+v: %s no longer registered", c.l, cpp)
			}
		}
		// Read back from the header it wrote, the layout is the same.
		if l, _ := DetectLayout(text); l != c.l {
			t.Errorf("detected %+v from a header written in %+v", l, c.l)
		}
	}
	// A header without the section (XIII's) gives a layout that writes none.
	if l, _ := DetectLayout(generate(t, earlyTree, UE2Early, hints)["Engine"]); l.SizeChecks {
		t.Errorf("detected %+v from a header without size checks", l)
	}
}

func TestGoldenHeadersUE2Early(t *testing.T) {
	got := generate(t, ue2Tree, UE2Early, nil)
	for _, p := range []string{"Engine", "Gui"} {
		path := filepath.Join("testdata", "ue2-early", p+"Classes.h")
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, got[p], 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if n, first := diffLines(normalize(got[p]), normalize(want)); n > 0 {
			t.Errorf("%s: %d lines differ from %s (go test -update rewrites it):\n%s", p, n, path, first)
		}
	}
}

// TestSpecifiersAfterKeyword: a native function declared with its
// specifiers after the keyword gets its DECLARE_FUNCTION and
// AUTOGENERATE_FUNCTION line, "function event" its thunk.
func TestSpecifiersAfterKeyword(t *testing.T) {
	files := append(append([]src{}, tree...), src{"Engine", "Pawn.uc", `class Pawn extends Actor native;
var int Health;
function native final SetTimer(float Rate, bool bLoop);
function native(540) Foo();
native static function event ClientTravel(string URL, bool bItems);
`})
	got := string(generate(t, files, UE2Early, nil)["Engine"])
	for _, want := range []string{"    DECLARE_FUNCTION(execSetTimer);\n", "AUTOGENERATE_FUNCTION(APawn,540,execFoo);\n",
		"    void eventClientTravel(const FString& URL, BITFIELD bItems)\n", "AUTOGENERATE_NAME(ClientTravel)\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
}

// TestUE2UnsortedNamesKept: a UE2 header whose names are not sorted keeps
// its order (the name table's), as UE1 headers do.
func TestUE2UnsortedNamesKept(t *testing.T) {
	names := regexp.MustCompile(`(?m)^AUTOGENERATE_NAME\((\w+)\)$`)
	sorted := names.FindAllStringSubmatch(string(generate(t, tree, UE2, nil)["Engine"]), -1)
	var order []string
	for _, m := range slices.Backward(sorted) {
		order = append(order, m[1])
	}
	got := names.FindAllStringSubmatch(string(generate(t, tree, UE2, map[string]*Hints{"Engine": {Names: order}})["Engine"]), -1)
	var have []string
	for _, m := range got {
		have = append(have, m[1])
	}
	if !slices.Equal(have, order) {
		t.Errorf("names %v, want the header's %v", have, order)
	}
	// The test means something only if the header's order is not sorted.
	if len(order) < 3 || sortedFold(order) {
		t.Fatalf("test names %v", order)
	}
}
