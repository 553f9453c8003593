package header

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/uscript"
)

var update = flag.Bool("update", false, "rewrite the golden headers in testdata")

// src is one generated source file: package, file name and text.
type src struct{ pkg, file, text string }

// tree is a small generated source tree: Core with Object and its structs,
// Engine with native actors using every member type, an event of each
// shape, native functions and operators, enums, consts, a noexport class
// and a class native only through its binary; Mod in a later package.
var tree = []src{
	{"Core", "Object.uc", `class Object native noexport;
struct Vector { var float X, Y, Z; };
struct Plane extends Vector { var float W; };
struct Color { var byte R, G, B, A; };
var native const int ObjectFlags;
native(112) static final operator(40) string $ (coerce string A, coerce string B);
native static final preoperator byte ++ (out byte A);
`},
	{"Core", "Commandlet.uc", `class Commandlet extends Object abstract transient noexport native;
var string HelpCmd;
native event int Main(string Parms);
`},
	{"Engine", "Actor.uc", `class Actor extends Object abstract native nativereplication;
const MAXSLOTS = 4;
const Label = "act";
var(Advanced) const bool bStatic;
var bool bHidden;
var float TimeLeft;
var enum EPhysics { PHYS_None, PHYS_Walking, PHYS_Falling } Physics;
var name Tag;
var string Title;
var Actor Owner;
var class<Actor> SpawnClass;
var array<int> Numbers;
var array<Actor> Touching;
var Actor Slots[MAXSLOTS];
var byte Bytes[2];
var vector Location;
var bool bAfter;
var vector Velocity;
var Level XLevel;
var color DrawColor;
native(256) final latent function Sleep(float Seconds);
native final function bool SetLocation(vector NewLocation);
native(552) static final operator(16) color * (color A, float B);
event Touch(Actor Other);
event Timer();
event bool PreTeleport(Actor Dest);
event string GetTitle();
event Actor Pick(int Index);
event vector Aim();
event CalcView(out Actor ViewActor, out vector CameraLocation, out string Why, byte Keys[4]);
event Greet(string Text, coerce string Other, name Who, bool bLoud);
function NotAnEvent();
`},
	{"Engine", "Info.uc", `class Info extends Actor abstract native;
`},
	{"Engine", "GameInfo.uc", `class GameInfo extends Info native;
var globalconfig int MaxPlayers;
event Timer();
event PostLogin(Actor NewPlayer);
`},
	{"Engine", "ZoneInfo.uc", `class ZoneInfo extends Info native transient;
var enum EZone { ZONE_Open, ZONE_Closed } Zone;
enum ELight
{
	LIGHT_Off,
	LIGHT_On
};
`},
	{"Engine", "savedmove.uc", `class SavedMove extends Info;
var float Delta;
`},
	{"Engine", "Canvas.uc", `class Canvas extends Object native noexport;
var int X;
`},
	{"Engine", "Console.uc", `class Console extends Object native config(User);
var Canvas Canvas;
var int KeyLog[8];
var bool bTyping;
event Tick(float Delta);
`},
	{"Engine", "Scripted.uc", `class Scripted extends Info;
var int NotExported;
event Timer();
`},
	{"Mod", "ModInfo.uc", `class ModInfo extends GameInfo native;
var string title;
var actor savedmove;
native function Go();
event Boom(object Cause);
`},
	{"Mod", "Plain.uc", `class Plain extends Object;
var int X;
`},
}

// generate builds the tree's headers; native reports the classes the
// binaries register.
func generate(t *testing.T, files []src, layout Layout, hints map[string]*Hints) map[string][]byte {
	t.Helper()
	g := New(layout)
	for p, h := range hints {
		g.AddHints(p, h)
	}
	var order []string
	byPkg := map[string][]*uscript.Decls{}
	for _, f := range files {
		d, err := uscript.ReadDecls(filepath.Join(f.pkg, "Classes", f.file), []byte(f.text))
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
		if p == "Gui" {
			pkg.Include = func(cpp string) bool { return cpp == "UGUILabel" || cpp == "UGUIButton" }
		}
		if err := g.Add(pkg); err != nil {
			t.Fatal(err)
		}
	}
	out := map[string][]byte{}
	for _, p := range order {
		text, model, ok, err := g.Header(p)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			if model == nil || len(model.Classes) == 0 {
				t.Fatalf("%s: header without model", p)
			}
			out[p] = text
		}
	}
	return out
}

func TestGoldenHeaders(t *testing.T) {
	got := generate(t, tree, UE1, nil)
	if _, ok := got["Core"]; ok {
		t.Errorf("Core has only noexport classes, yet a header was made")
	}
	for _, p := range []string{"Engine", "Mod"} {
		path := filepath.Join("testdata", "ue1", p+"Classes.h")
		if *update {
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

// TestHeaderElements names the elements the golden file must show, so
// that a regenerated golden file cannot silently lose one.
func TestHeaderElements(t *testing.T) {
	got := generate(t, tree, UE1, nil)
	eng := string(got["Engine"])
	mod := string(got["Mod"])
	for _, want := range []string{
		"#pragma pack (push,4)",
		"#ifndef ENGINE_API\n#define ENGINE_API DLL_IMPORT\n#endif",
		"#define AUTOGENERATE_NAME(name) extern ENGINE_API FName ENGINE_##name;",
		"AUTOGENERATE_NAME(Touch)\n",
		"enum EPhysics\n{\n    PHYS_None               =0,\n    PHYS_Walking            =1,\n    PHYS_Falling            =2,\n    PHYS_MAX                =3,\n};",
		"#define UCONST_Label \"act\"\n#define UCONST_MAXSLOTS 4\n",
		"class ENGINE_API AActor : public UObject\n{\npublic:\n",
		"    BITFIELD bStatic:1 GCC_PACK(4);\n    BITFIELD bHidden:1;\n    FLOAT TimeLeft GCC_PACK(4);\n",
		"    BYTE Physics;\n    FName Tag;\n    FStringNoInit Title;\n    class AActor* Owner;\n    class UClass* SpawnClass;\n",
		"    TArray<INT> Numbers;\n    TArray<class AActor*> Touching;\n    class AActor* Slots[4];\n    BYTE Bytes[2];\n",
		"    BITFIELD bAfter:1 GCC_PACK(4);\n    FVector Velocity GCC_PACK(4);\n    class ULevel* XLevel;\n    FColor DrawColor;\n",
		"    DECLARE_FUNCTION(execMultiply_ColorFloat);\n    DECLARE_FUNCTION(execSetLocation);\n    DECLARE_FUNCTION(execSleep);\n",
		"struct AActor_eventTouch_Parms\n{\n    class AActor* Other;\n};",
		"    void eventTimer()\n    {\n        ProcessEvent(FindFunctionChecked(ENGINE_Timer),NULL);\n    }",
		"    BITFIELD eventPreTeleport(class AActor* Dest)\n    {\n        AActor_eventPreTeleport_Parms Parms;\n        Parms.Dest=Dest;\n        Parms.ReturnValue=0;\n        ProcessEvent(FindFunctionChecked(ENGINE_PreTeleport),&Parms);\n        return Parms.ReturnValue;\n    }",
		"    FString eventGetTitle()\n    {\n        AActor_eventGetTitle_Parms Parms;\n        ProcessEvent(FindFunctionChecked(ENGINE_GetTitle),&Parms);\n        return Parms.ReturnValue;\n    }",
		"    void eventCalcView(class AActor*& ViewActor, FVector& CameraLocation, FString& Why, BYTE* Keys)",
		"        appMemcpy(&Parms.Keys,&Keys,sizeof(Parms.Keys));\n",
		"        ViewActor=Parms.ViewActor;\n        CameraLocation=Parms.CameraLocation;\n        Why=Parms.Why;\n",
		"    void eventGreet(const FString& Text, const FString& Other, FName Who, BITFIELD bLoud)",
		"struct AActor_eventGreet_Parms\n{\n    FString Text;\n    FString Other;\n    FName Who;\n    BITFIELD bLoud;\n};",
		"    DECLARE_CLASS(AActor,UObject,0|CLASS_NativeReplication,Engine)\n    NO_DEFAULT_CONSTRUCTOR(AActor)\n};",
		"    DECLARE_CLASS(AGameInfo,AInfo,0|CLASS_Config,Engine)",
		"    DECLARE_CLASS(AZoneInfo,AInfo,0|CLASS_Transient,Engine)",
		"class ENGINE_API Asavedmove : public AInfo", // named after its file
		"class ENGINE_API UConsole : public UObject",
		"    class UCanvas* Canvas;\n    INT KeyLog[8];\n    BITFIELD bTyping:1 GCC_PACK(4);\n",
		"    DECLARE_CLASS(UConsole,UObject,0|CLASS_Config,Engine)",
		"AUTOGENERATE_FUNCTION(AActor,552,execMultiply_ColorFloat);\nAUTOGENERATE_FUNCTION(AActor,-1,execSetLocation);\nAUTOGENERATE_FUNCTION(AActor,256,execSleep);\n",
		"#ifndef NAMES_ONLY\n#undef AUTOGENERATE_NAME\n#undef AUTOGENERATE_FUNCTION\n#endif NAMES_ONLY\n\n#if _MSC_VER\n#pragma pack (pop)\n#endif\n",
	} {
		if !strings.Contains(eng, want) {
			t.Errorf("EngineClasses.h lacks:\n%s", want)
		}
	}
	for _, absent := range []string{"UCanvas :", "AScripted", "NotExported", "NotAnEvent", "AGameInfo_eventTimer", "UObject :"} {
		if strings.Contains(eng, absent) {
			t.Errorf("EngineClasses.h has %q", absent)
		}
	}
	// Mod: the name table keeps the first spelling (Engine's Title; the
	// file name savedmove.uc made the class savedmove), and a class in
	// another package is a parent.
	for _, want := range []string{
		"#define AUTOGENERATE_NAME(name) extern MOD_API FName MOD_##name;",
		"class MOD_API AModInfo : public AGameInfo",
		"    FStringNoInit Title;\n    class AActor* savedmove;\n",
		"    void eventBoom(class UObject* Cause)",
		"ProcessEvent(FindFunctionChecked(MOD_Boom),&Parms);",
		"    DECLARE_CLASS(AModInfo,AGameInfo,0|CLASS_Config,Mod)",
		"AUTOGENERATE_FUNCTION(AModInfo,-1,execGo);",
	} {
		if !strings.Contains(mod, want) {
			t.Errorf("ModClasses.h lacks:\n%s", want)
		}
	}
	if strings.Contains(mod, "Plain") {
		t.Errorf("ModClasses.h exports the non-native class Plain")
	}
}

func TestUndyingVectorAlignment(t *testing.T) {
	eng := string(generate(t, tree, Undying, nil)["Engine"])
	if !strings.Contains(eng, "    BITFIELD bAfter:1 GCC_PACK(4);\n    FVector Velocity GCC_ALIGN(16);\n") {
		t.Errorf("undying layout: vector after a bool is not 16-aligned")
	}
}

func TestHintsKeepOrder(t *testing.T) {
	base := generate(t, tree, UE1, nil)["Engine"]
	f, err := ParseHeader(bytes.NewReader(base), "EngineClasses.h")
	if err != nil {
		t.Fatal(err)
	}
	h := HintsFrom(f)
	// A registration order that differs from the tree's file order, and a
	// name order of the engine's own.
	h.Classes = []string{"AActor", "AInfo", "AZoneInfo", "Asavedmove", "AGameInfo", "UConsole"}
	h.FuncClasses = []string{"AActor"}
	h.Names = []string{"Timer", "Touch"}
	got := string(generate(t, tree, UE1, map[string]*Hints{"Engine": h})["Engine"])
	var classes []string
	for _, l := range strings.Split(got, "\n") {
		if strings.HasPrefix(l, "class ENGINE_API ") {
			classes = append(classes, strings.Fields(l)[2])
		}
	}
	if strings.Join(classes, " ") != strings.Join(h.Classes, " ") {
		t.Errorf("class order %v, want the hints' %v", classes, h.Classes)
	}
	if !strings.Contains(got, "AUTOGENERATE_NAME(Timer)\nAUTOGENERATE_NAME(Touch)\n") {
		t.Errorf("names not in the hints' order:\n%s", got[:min(len(got), 1200)])
	}
}

func TestNoHeaderWithoutNatives(t *testing.T) {
	g := New(UE1)
	d, err := uscript.ReadDecls("Foo/Classes/Foo.uc", []byte("class Foo extends Object;\nvar int X;\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Add(Package{Name: "Foo", Classes: []*uscript.Decls{d}}); err != nil {
		t.Fatal(err)
	}
	if _, _, ok, err := g.Header("Foo"); ok || err != nil {
		t.Errorf("Foo: ok %v err %v, want no header", ok, err)
	}
	if _, _, _, err := g.Header("Bar"); err == nil {
		t.Errorf("a package never added gave no error")
	}
	d2, _ := uscript.ReadDecls("Foo/Classes/Foo2.uc", []byte("class Foo extends Object;\n"))
	if err := New(UE1).Add(Package{Name: "Foo", Classes: []*uscript.Decls{d, d2}}); err == nil {
		t.Errorf("a class declared twice gave no error")
	}
}

func TestParentCycle(t *testing.T) {
	a, _ := uscript.ReadDecls("P/Classes/A.uc", []byte("class A extends B native;\nvar int X;\nevent E();\n"))
	b, _ := uscript.ReadDecls("P/Classes/B.uc", []byte("class B extends A native;\nvar int Y;\nevent E();\n"))
	g := New(UE1)
	if err := g.Add(Package{Name: "P", Classes: []*uscript.Decls{a, b}}); err != nil {
		t.Fatal(err)
	}
	text, _, ok, err := g.Header("P")
	if err != nil || !ok || !bytes.Contains(text, []byte("class P_API UA : public UB")) {
		t.Errorf("cycle: ok %v err %v\n%s", ok, err, text)
	}
}

// TestSelfParentManyEvents: a class that extends itself, with thousands of
// events, used to walk its parent chain a thousand times per event.
func TestSelfParentManyEvents(t *testing.T) {
	var b strings.Builder
	b.WriteString("class A extends A native;\n")
	for i := range 3000 {
		b.WriteString("event E" + strings.Repeat("x", i%7) + itoa(i) + "();\n")
	}
	d, err := uscript.ReadDecls("A.uc", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	g := New(UE1)
	if err := g.Add(Package{Name: "P", Classes: []*uscript.Decls{d}}); err != nil {
		t.Fatal(err)
	}
	text, model, ok, err := g.Header("P")
	if err != nil || !ok || len(model.Classes[0].Events) != 3000 || !bytes.Contains(text, []byte("class P_API UA : public UA")) {
		t.Fatalf("ok %v err %v", ok, err)
	}
}

// TestUE1Early: Unreal 2xx-era builds (Wheel of Time) write DECLARE_CLASS
// without the package and a name constant's text without quotes; a class
// name may be declared again in a later package; a changed constant is a
// change.
func TestUE1Early(t *testing.T) {
	files := append(append([]src{}, tree...),
		src{"Mod", "Canvas2.uc", "class Canvas2 extends Object native;\nconst Size = 480.0;\nconst Hint = 'Stop';\nstatic event function bool Fits(int X);\n"},
		src{"Mod", "Console.uc", "class Console extends Object native;\nvar int Lines;\n"},
	)
	got := string(generate(t, files, UE1Early, nil)["Mod"])
	for _, want := range []string{
		"    DECLARE_CLASS(UCanvas2,UObject,0)\n",
		"#define UCONST_Hint Stop\n#define UCONST_Size 480.0\n",
		"    BITFIELD eventFits(INT X)\n",
		"class MOD_API UConsole : public UObject\n{\npublic:\n    INT Lines;\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("ModClasses.h lacks:\n%s", want)
		}
	}
	have, err := ParseHeader(strings.NewReader(got), "ModClasses.h")
	if err != nil {
		t.Fatal(err)
	}
	files[len(files)-2].text = strings.Replace(files[len(files)-2].text, "480.0", "768.0", 1)
	g := New(UE1Early)
	byPkg := map[string][]*uscript.Decls{}
	var order []string
	for _, f := range files {
		d, _ := uscript.ReadDecls(f.pkg+"/Classes/"+f.file, []byte(f.text))
		if _, ok := byPkg[f.pkg]; !ok {
			order = append(order, f.pkg)
		}
		byPkg[f.pkg] = append(byPkg[f.pkg], d)
	}
	for _, p := range order {
		if err := g.Add(Package{Name: p, Classes: byPkg[p]}); err != nil {
			t.Fatal(err)
		}
	}
	_, m, _, _ := g.Header("Mod")
	changes := Diff(m, have)
	if len(changes) != 1 || changes[0].Kind != ConstChanged || changes[0].Name != "Size" || changes[0].Want != "768.0" || changes[0].Have != "480.0" || changes[0].Line != 2 {
		t.Errorf("changes %+v", changes)
	}
}
