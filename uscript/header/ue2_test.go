package header

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/uscript"
)

// ue2Engine stands in for the parts of UT2004's Engine the MusicDownloader
// sources use: the parents of its classes and the events they override.
var ue2Engine = []src{
	{"Core", "Object.uc", "class Object native noexport;\nstruct Color { var byte B, G, R, A; };\n"},
	{"Engine", "Actor.uc", "class Actor extends Object native;\n"},
	{"Engine", "Interactions.uc", "class Interactions extends Object native;\n"},
	{"Engine", "Interaction.uc", "class Interaction extends Interactions native;\nevent Initialized();\nevent NotifyLevelChange();\nfunction Tick(float DeltaTime);\n"},
	{"Engine", "LocalMessage.uc", "class LocalMessage extends Object;\n"},
	{"Engine", "CriticalEventPlus.uc", "class CriticalEventPlus extends LocalMessage;\n"},
}

// TestPublicUE2Pair generates MusicDownloaderClasses.h from the sources of
// the public UT2004 native SDK (github.com/DarklightGames/UT2004-NativeSDK,
// whose header ucc make -h wrote from them) and compares it with the
// header. Set UPKDEPS_UT2004_SDK to a checkout of that repository; the
// test skips without it.
func TestPublicUE2Pair(t *testing.T) {
	sdk := os.Getenv("UPKDEPS_UT2004_SDK")
	if sdk == "" {
		t.Skip("UPKDEPS_UT2004_SDK (a checkout of DarklightGames/UT2004-NativeSDK) not set: skipping")
	}
	want, err := os.ReadFile(filepath.Join(sdk, "MusicDownloader", "Inc", "MusicDownloaderClasses.h"))
	if err != nil {
		t.Skipf("no MusicDownloaderClasses.h: %v", err)
	}
	g := New(UE2)
	byPkg := map[string][]*uscript.Decls{}
	for _, f := range ue2Engine {
		d, err := uscript.ReadDecls(f.file, []byte(f.text))
		if err != nil {
			t.Fatal(err)
		}
		byPkg[f.pkg] = append(byPkg[f.pkg], d)
	}
	for _, p := range []string{"Core", "Engine"} {
		if err := g.Add(Package{Name: p, Classes: byPkg[p]}); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{"MusicDownloaderLoader", "MusicDownloader"} {
		pd, err := uscript.ReadPackageDecls(sdk, p)
		if err != nil || len(pd.Classes) == 0 {
			t.Fatalf("%s: %v (%d classes)", p, err, len(pd.Classes))
		}
		if err := g.Add(Package{Name: p, Classes: pd.Classes}); err != nil {
			t.Fatal(err)
		}
	}
	got, _, ok, err := g.Header("MusicDownloader")
	if err != nil || !ok {
		t.Fatalf("ok %v err %v", ok, err)
	}
	if n, first := diffLines(normalize(got), normalize(want)); n > 0 {
		t.Errorf("MusicDownloaderClasses.h: %d lines differ:\n%s", n, first)
	}
}

// ue2Tree adds a UE2 package with delegates and cpptext to the tree.
var ue2Tree = append(append([]src{}, tree...), src{"Gui", "GUIButton.uc", `class GUIButton extends Object native;
cpptext
{
	void Draw(UCanvas* Canvas);
	UGUIButton();
}
struct native Padding
{
	var() float Horz, Vert;
	var() string Label;
	var() array<int> Stops;
};
struct native export Pair
{
	var string Key;
	var int Value;
	structcpptext
	{
		UBOOL IsEmpty() const;
	}
};
struct Plain { var int X; };
var byte Style;
var int Width;
delegate bool OnClick(Object Sender);
var array<string> Captions;
var bool bFocused;
delegate OnChange(Object Sender);
native(700) final function bool Press(int Times);
native(701) final function Release();
event byte Pick(string Key);
event Timer();
`}, src{"Gui", "GUILabel.uc", "class GUILabel extends GUIButton native;\nvar string Caption;\n"})

func TestGoldenHeadersUE2(t *testing.T) {
	got := generate(t, ue2Tree, UE2, nil)
	for _, p := range []string{"Engine", "Gui"} {
		path := filepath.Join("testdata", "ue2", p+"Classes.h")
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

// TestUE2Elements names what the UE2 layout adds to UE1's (facts from
// UT2004's ucc make -h output in the public native SDK).
func TestUE2Elements(t *testing.T) {
	got := generate(t, ue2Tree, UE2, nil)
	eng, gui := string(got["Engine"]), string(got["Gui"])
	for _, want := range []string{
		"#if SUPPORTS_PRAGMA_PACK\n#pragma pack (push,4)\n#endif\n",
		// Names sorted, ignoring case.
		"AUTOGENERATE_NAME(Aim)\nAUTOGENERATE_NAME(CalcView)\nAUTOGENERATE_NAME(GetTitle)\nAUTOGENERATE_NAME(Greet)\nAUTOGENERATE_NAME(Pick)\nAUTOGENERATE_NAME(PostLogin)\nAUTOGENERATE_NAME(PreTeleport)\nAUTOGENERATE_NAME(Tick)\nAUTOGENERATE_NAME(Timer)\nAUTOGENERATE_NAME(Touch)\n",
		// First member packed; after a byte, the next kind packed.
		"    BITFIELD bStatic:1 GCC_PACK(4);\n    BITFIELD bHidden:1;\n    FLOAT TimeLeft GCC_PACK(4);\n    BYTE Physics;\n    FName Tag GCC_PACK(4);\n",
		"    TArrayNoInit<INT> Numbers;\n    TArrayNoInit<class AActor*> Touching;\n",
		// The return value is cleared before the parameters are copied.
		"        AActor_eventPreTeleport_Parms Parms;\n        Parms.ReturnValue=0;\n        Parms.Dest=Dest;\n",
		"#ifndef NAMES_ONLY\n#undef AUTOGENERATE_NAME\n#undef AUTOGENERATE_FUNCTION\n#endif\n\n#if SUPPORTS_PRAGMA_PACK\n#pragma pack (pop)\n#endif\n\n\n#ifdef NATIVE_DEFS_ONLY\nDECLARE_NATIVE_TYPE(Engine,AActor);\n",
		"#define AUTO_INITIALIZE_REGISTRANTS_ENGINE \\\n\tAActor::StaticClass(); \\\n\tGNativeLookupFuncs[Lookup++] = &FindEngineAActorNative; \\\n",
		"NATIVE_INFO(AActor) GEngineAActorNatives[] = \n{ \n\tMAP_NATIVE(AActor,execMultiply_ColorFloat)\n\tMAP_NATIVE(AActor,execSetLocation)\n\tMAP_NATIVE(AActor,execSleep)\n\t{NULL,NULL}\n};\nIMPLEMENT_NATIVE_HANDLER(Engine,AActor);\n",
		"#ifdef VERIFY_CLASS_SIZES\nVERIFY_CLASS_SIZE_NODIE(AActor)\n",
		"#endif // VERIFY_CLASS_SIZES\n",
	} {
		if !strings.Contains(eng, want) {
			t.Errorf("UE2 EngineClasses.h lacks:\n%s", want)
		}
	}
	for _, want := range []string{
		"    BYTE Style GCC_PACK(4);\n    INT Width GCC_PACK(4);\n    FScriptDelegate __OnClick__Delegate;\n    TArrayNoInit<FString> Captions;\n    BITFIELD bFocused:1 GCC_PACK(4);\n    FScriptDelegate __OnChange__Delegate GCC_PACK(4);\n",
		"    BYTE eventPick(const FString& Key)\n    {\n        UGUIButton_eventPick_Parms Parms;\n        Parms.ReturnValue=0;\n        Parms.Key=Key;\n",
		"    DECLARE_CLASS(UGUIButton,UObject,0,Gui)\n\tvoid Draw(UCanvas* Canvas);\n\tUGUIButton();\n};\n",
		"AUTOGENERATE_FUNCTION(UGUIButton,701,execRelease);\nAUTOGENERATE_FUNCTION(UGUIButton,700,execPress);\n",
		// Native and export structs, NoInit members unless init or export,
		// an export struct's serializer; a plain struct stays out.
		"struct GUI_API FPadding\n{\n    FLOAT Horz GCC_PACK(4);\n    FLOAT Vert;\n    FStringNoInit Label;\n    TArrayNoInit<INT> Stops;\n};\n\n",
		"struct GUI_API FPair\n{\n    FString Key GCC_PACK(4);\n    INT Value;\n",
		"    friend GUI_API FArchive& operator<<(FArchive& Ar,FPair& MyPair)\n    {\n        return Ar << MyPair.Key << MyPair.Value;\n    }\n};\n",
		// Delegates: names, thunks through ProcessDelegate.
		"AUTOGENERATE_NAME(OnChange)\nAUTOGENERATE_NAME(OnClick)\n",
		"        ProcessDelegate(GUI_OnChange,&__OnChange__Delegate,&Parms);\n",
		// Probe events.
		"    void eventTimer()\n    {\n        if(IsProbing(NAME_Timer)) {\n        ProcessEvent(FindFunctionChecked(GUI_Timer),NULL);\n        }\n    }\n",
		// <Pkg>/Inc/<cpp>.h of a class without cpptext.
		"    DECLARE_CLASS(UGUILabel,UGUIButton,0,Gui)\n    #include \"UGUILabel.h\"\n};\n",
	} {
		if !strings.Contains(gui, want) {
			t.Errorf("UE2 GuiClasses.h lacks:\n%s", want)
		}
	}
	if strings.Contains(gui, "NO_DEFAULT_CONSTRUCTOR") || strings.Contains(gui, "#include \"UGUIButton.h\"") || strings.Contains(gui, "FPlain") {
		t.Errorf("a class with cpptext has NO_DEFAULT_CONSTRUCTOR or its include file, or a plain struct was written")
	}
	for _, want := range []string{
		"        Parms.bLoud=((bLoud) ? FIRST_BITFIELD : 0);\n",
		"        appMemcpy(&Parms.Keys,Keys,sizeof(Parms.Keys));\n",
		// The registrants have the noexport native classes too.
		"\tUConsole::StaticClass(); \\\n\tUCanvas::StaticClass(); \\\n",
		"VERIFY_CLASS_SIZE_NODIE(UCanvas)\n",
	} {
		if !strings.Contains(eng, want) {
			t.Errorf("UE2 EngineClasses.h lacks:\n%s", want)
		}
	}
}

// TestDiffStructs: a UE2 exported struct whose member changes is named
// with the member; one that is no longer exported is reported removed.
func TestDiffStructs(t *testing.T) {
	base := generate(t, ue2Tree, UE2, nil)["Gui"]
	have, err := ParseHeader(bytes.NewReader(base), "GuiClasses.h")
	if err != nil {
		t.Fatal(err)
	}
	if len(have.Structs) != 2 || len(have.Structs[1].Members) != 2 {
		t.Fatalf("parsed structs: %+v", have.Structs)
	}
	model := func(files []src) *File {
		g := New(UE2)
		var order []string
		byPkg := map[string][]*uscript.Decls{}
		for _, f := range files {
			d, err := uscript.ReadDecls(f.pkg+"/Classes/"+f.file, []byte(f.text))
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := byPkg[f.pkg]; !ok {
				order = append(order, f.pkg)
			}
			byPkg[f.pkg] = append(byPkg[f.pkg], d)
		}
		for _, p := range order {
			g.Add(Package{Name: p, Classes: byPkg[p]})
		}
		_, m, _, err := g.Header("Gui")
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	edit := func(old, new string) []src {
		files := append([]src{}, ue2Tree...)
		for i, f := range files {
			if f.file == "GUIButton.uc" {
				files[i].text = strings.Replace(f.text, old, new, 1)
			}
		}
		return files
	}
	for _, tc := range []struct {
		name string
		old  string
		new  string
		want Change
	}{
		{"retyped", "var int Value;", "var float Value;", Change{Class: "FPair", Kind: MemberRetyped, Name: "Value", Want: "FLOAT", Have: "INT"}},
		{"no longer native", "struct native export Pair", "struct Pair", Change{Class: "FPair", Kind: StructRemoved, Name: "FPair"}},
	} {
		var found bool
		for _, c := range Diff(model(edit(tc.old, tc.new)), have) {
			c.File, c.Line, c.HeaderLine = "", 0, 0
			found = found || c == tc.want
		}
		if !found {
			t.Errorf("%s: %+v not among the changes", tc.name, tc.want)
		}
	}
}
