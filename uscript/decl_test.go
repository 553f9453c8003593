package uscript

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// declSource exercises every construct the declaration reader knows.
const declSource = `//=====================================================
// Demo: every declaration the header generator needs.
//=====================================================
class Demo extends Engine.Actor
	native
	nativereplication
	config(User)
	abstract
	transient
	noexport
	dependson(Other);

#exec Texture Import File=Textures\S_Demo.pcx Name=S_Demo

const MAXSLOTS = 8;
const Greeting = "hi;there";

enum EMode
{
	MODE_Off,
	MODE_On, // comment
	MODE_Auto
};

struct export DemoPair extends Base
{
	var() int A, B;
	var float C[2];
	structcpptext
	{
		void Clear() { A = B = 0; }
	}
};

struct native Tagged
{
	var name Tag;
};

var(Display) config byte Level;
var globalconfig bool bFlag, bOther;
var native private const pointer Handle;
var transient string[32] Title;
var class<Actor> Spawns[MAXSLOTS];
var array<class<Pawn> > Pawns;
var enum ESide { SIDE_Left, SIDE_Right } Side;
var struct InlineS { var int X; } Inline;
var delegate<OnDone> DoneHook;
var Engine.Pawn Owner2;
var localized string Caption<ToolTip=Shown.>;
var() cache string Icon;
var() cache class<Actor> IconClass;
var Cache Store;

replication
{
	reliable if (Role == ROLE_Authority)
		Level;
}

delegate OnDone(int Code);

native(300) static final function int Count(optional coerce string S, out array<int> List);
native final iterator function AllDemos(class<Demo> BaseClass, out Demo D);
event Touched(Actor Other, out vector HitLocation, byte B[4])
{
	local int i;
	i = 1;
}
simulated function bool Ready() const;
native function Travel(string URL);
static event function bool InView(Actor A);
native(552) static final operator(16) color * (color A, float B);
native static final preoperator int ++ (out int A);

state Waiting
{
	function Tick(float DeltaTime) {}
}

auto state Idle
{
}

cpptext
{
	void Demo::Native();
	INT Count;
}

defaultproperties
{
	Level=3
}
`

func TestReadDecls(t *testing.T) {
	d, err := ReadDecls("Demo.uc", []byte(declSource))
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "Demo" || d.Super != "Actor" || d.SuperPackage != "Engine" || d.Line != 4 {
		t.Errorf("class %s extends %s.%s at line %d", d.Name, d.SuperPackage, d.Super, d.Line)
	}
	if want := []string{"native", "nativereplication", "config", "abstract", "transient", "noexport"}; !reflect.DeepEqual(d.Modifiers, want) {
		t.Errorf("modifiers %v, want %v", d.Modifiers, want)
	}
	if d.ModifierArgs["config"] != "User" || !d.Has("noexport") || d.Has("intrinsic") {
		t.Errorf("modifier args %v", d.ModifierArgs)
	}
	if !reflect.DeepEqual(d.DependsOn, []string{"Other"}) {
		t.Errorf("dependson %v", d.DependsOn)
	}
	if want := []Const{{"MAXSLOTS", "8", 15}, {"Greeting", `"hi;there"`, 16}}; !reflect.DeepEqual(d.Consts, want) {
		t.Errorf("consts %+v, want %+v", d.Consts, want)
	}
	enums := map[string][]string{}
	for _, e := range d.Enums {
		enums[e.Name] = e.Values
	}
	if !reflect.DeepEqual(enums, map[string][]string{"EMode": {"MODE_Off", "MODE_On", "MODE_Auto"}, "ESide": {"SIDE_Left", "SIDE_Right"}}) {
		t.Errorf("enums %v", enums)
	}
	structs := map[string]Struct{}
	for _, s := range d.Structs {
		structs[s.Name] = s
	}
	pair := structs["DemoPair"]
	if pair.Super != "Base" || !reflect.DeepEqual(pair.Modifiers, []string{"export"}) || len(pair.Vars) != 3 || pair.Vars[2].Dim != 2 ||
		!strings.Contains(pair.CppText, "void Clear() { A = B = 0; }") {
		t.Errorf("struct DemoPair: %+v", pair)
	}
	if s := structs["Tagged"]; !reflect.DeepEqual(s.Modifiers, []string{"native"}) || s.Vars[0].Type.Name != "name" {
		t.Errorf("struct Tagged: %+v", s)
	}
	if _, ok := structs["InlineS"]; !ok {
		t.Errorf("inline struct missing: %v", structs)
	}
	type v struct {
		name, typ string
		dim       int
		dimText   string
		mods      string
		editable  bool
		cat       string
	}
	var got []v
	for _, x := range d.Vars {
		got = append(got, v{x.Name, x.Type.String(), x.Dim, x.DimText, strings.Join(x.Modifiers, " "), x.Editable, x.Category})
	}
	want := []v{
		{"Level", "byte", 1, "", "config", true, "Display"},
		{"bFlag", "bool", 1, "", "globalconfig", false, ""},
		{"bOther", "bool", 1, "", "globalconfig", false, ""},
		{"Handle", "pointer", 1, "", "native private const", false, ""},
		{"Title", "string", 1, "", "transient", false, ""},
		{"Spawns", "class<Actor>", 0, "MAXSLOTS", "", false, ""},
		{"Pawns", "array<class<Pawn>>", 1, "", "", false, ""},
		{"Side", "ESide", 1, "", "", false, ""},
		{"Inline", "InlineS", 1, "", "", false, ""},
		{"DoneHook", "delegate<OnDone>", 1, "", "", false, ""},
		{"Owner2", "Engine.Pawn", 1, "", "", false, ""},
		{"Caption", "string", 1, "", "localized", false, ""},
		{"Icon", "string", 1, "", "cache", true, ""},
		{"IconClass", "class<Actor>", 1, "", "cache", true, ""},
		{"Store", "Cache", 1, "", "", false, ""},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("vars:\n have %+v\n want %+v", got, want)
	}
	funcs := map[string]Func{}
	var names []string
	for _, f := range d.Funcs {
		funcs[f.Name] = f
		names = append(names, f.Kind+" "+f.Name)
	}
	if want := []string{"delegate OnDone", "function Count", "function AllDemos", "event Touched", "function Ready", "function Travel", "event InView", "operator *", "preoperator ++"}; !reflect.DeepEqual(names, want) {
		t.Errorf("functions %v, want %v (functions in states are not read)", names, want)
	}
	c := funcs["Count"]
	if !c.Native() || c.NativeIndex != 300 || !c.Has("static") || !c.Has("final") || c.Return.Name != "int" || len(c.Params) != 2 ||
		!c.Params[0].Has("optional") || !c.Params[0].Has("coerce") || !c.Params[1].Has("out") || c.Params[1].Type.String() != "array<int>" {
		t.Errorf("Count: %+v", c)
	}
	if a := funcs["AllDemos"]; !a.Has("iterator") || a.NativeIndex != -1 || a.Params[0].Type.String() != "class<Demo>" {
		t.Errorf("AllDemos: %+v", a)
	}
	ev := funcs["Touched"]
	if !ev.Event() || !ev.Body || ev.Return != nil || len(ev.Params) != 3 || !ev.Params[1].Has("out") || ev.Params[2].Dim != 4 || ev.Line != 65 {
		t.Errorf("Touched: %+v", ev)
	}
	if r := funcs["Ready"]; !r.Has("simulated") || r.Body || r.Return.Name != "bool" {
		t.Errorf("Ready: %+v", r)
	}
	if op := funcs["*"]; op.Kind != "operator" || op.Precedence != 16 || op.NativeIndex != 552 || op.Return.Name != "color" || len(op.Params) != 2 {
		t.Errorf("operator *: %+v", op)
	}
	if op := funcs["++"]; op.Kind != "preoperator" || !op.Params[0].Has("out") {
		t.Errorf("preoperator ++: %+v", op)
	}
	if !strings.Contains(d.CppText, "void Demo::Native();\n\tINT Count;") || d.CppTextLine != 85 {
		t.Errorf("cpptext at %d: %q", d.CppTextLine, d.CppText)
	}
}

func TestReadDeclsErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		line int
		msg  string
	}{
		{"no class", "var int X;", 1, "no class declaration"},
		{"too large", strings.Repeat(" ", MaxFileSize+1), 0, "limit"},
	} {
		_, err := ReadDecls("X.uc", []byte(tc.src))
		var e *Error
		if !errors.As(err, &e) || e.Line != tc.line || !strings.Contains(e.Msg, tc.msg) {
			t.Errorf("%s: error %v, want *Error at line %d with %q", tc.name, err, tc.line, tc.msg)
		}
	}
	// Many tokens: refused at the lexer's bound.
	src := "class A extends B;\n" + strings.Repeat("(", maxTokens+10)
	if _, err := ReadDecls("A.uc", []byte(src)); err == nil || !strings.Contains(err.Error(), "tokens") {
		t.Errorf("token bound: %v", err)
	}
}

func TestReadDeclsUnterminated(t *testing.T) {
	// Unclosed blocks and lists end at the end of the file.
	for _, src := range []string{
		"class A extends B; struct S { var int X;",
		"class A extends B; enum E { X, Y",
		"class A extends B; function F(int A, ",
		"class A extends B; var array<array<array<class<",
		"class A extends B; cpptext {",
		"class A extends B; native(1) static operator(",
		"class A extends B; var() enum",
	} {
		if _, err := ReadDecls("A.uc", []byte(src)); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
}

// TestReadDeclsSpecifiersAfterKeyword: UnrealScript accepts function
// specifiers after the function or event keyword too. Before, the first
// form dropped the function and the second made native its return type.
func TestReadDeclsSpecifiersAfterKeyword(t *testing.T) {
	src := `class A extends Actor native;
function native final SetTimer(float Rate, bool bLoop);
function native Foo();
event simulated Bar();
function native(233) final int Counted(int X);
static function private iterator AllOf(out Actor A);
function Final();
function native Static();
event latent int Wait(float T) { }
native static function event ClientTravel(string URL, bool bItems);
function Event();
`
	d, err := ReadDecls("A.uc", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	type fn struct {
		kind, name, mods, ret string
		native                int
		params                int
	}
	var got []fn
	for _, f := range d.Funcs {
		ret := ""
		if f.Return != nil {
			ret = f.Return.String()
		}
		got = append(got, fn{f.Kind, f.Name, strings.Join(f.Modifiers, " "), ret, f.NativeIndex, len(f.Params)})
	}
	want := []fn{
		{"function", "SetTimer", "native final", "", -1, 2},
		{"function", "Foo", "native", "", -1, 0},
		{"event", "Bar", "simulated", "", -1, 0},
		{"function", "Counted", "native final", "int", 233, 1},
		{"function", "AllOf", "static private iterator", "", -1, 1},
		{"function", "Final", "", "", -1, 0},
		{"function", "Static", "native", "", -1, 0},
		{"event", "Wait", "latent", "int", -1, 1},
		{"event", "ClientTravel", "native static", "", -1, 2},
		{"function", "Event", "", "", -1, 0},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("functions:\n have %+v\n want %+v", got, want)
	}
}

// TestClassDeclOneReader: Scan and ReadDecls read a class declaration with
// the same reader, so they agree on its name, parent, outer class, dependson
// list and a missing ";", however it is written.
func TestClassDeclOneReader(t *testing.T) {
	for _, src := range []string{
		"class A extends B;",
		"class A expands Core.B within Engine.Outer dependson(C, D) native config(User);",
		"Class A Extends B Implements(I) HideCategories(Movement,Display) Abstract;",
		"class A extends B native\n{\n",
		"class A dependson(C) extends;",
		"class A extends B within",
	} {
		c, err := Scan("A.uc", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		d, err := ReadDecls("A.uc", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		var deps []string
		for _, r := range c.Refs {
			if r.Kind == KindDependsOn {
				deps = append(deps, r.Name)
			}
		}
		have := fmt.Sprint(c.Name, c.Super, c.SuperPackage, c.Within, deps, len(c.Diagnostics))
		want := fmt.Sprint(d.Name, d.Super, d.SuperPackage, d.Within, d.DependsOn, len(d.Diagnostics))
		if have != want {
			t.Errorf("%q: Scan %s, ReadDecls %s", src, have, want)
		}
	}
}
