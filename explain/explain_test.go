package explain

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/search"
)

// Real log lines, each from a public issue thread.
const (
	// OldUnreal/UnrealTournamentPatches#1492 (UT v469d client log).
	ut99Uses = "DevNet: PendingLevel received: USES GUID=D18A7B9211D38F04100067B9F6F8975A PKG=Engine FLAGS=1 SIZE=1260153 GEN=56 REALGEN=60 FNAME=Engine.u"
	// OldUnreal/UnrealTournamentPatches#1126 (UT v469c client log).
	ut99CantFind = "Warning: Failed to load TNaliMeshSkins: Can't find file for package TNaliMeshSkins.."
	// OldUnreal/UnrealTournamentPatches#785 (UT v469b client log).
	ut99Mismatch = `Warning: Failed to load "NWCoreVIII": Package "NWCoreVIII" version mismatch..`
	ut99Loaded   = "Log: File NWCoreVIII.u with GUID 7D927E974BB983E3896D64B9B9B426D2 was already loaded but is incompatible with requested GUID 42E724474FC4B639F83BED85116265F1 - Attempting reload"
	// OldUnreal/UnrealTournamentPatches#229 (UT v469b log).
	ut99Import = "Log: Failed import: ObjectProperty ObjectProperty UMenu.UMenuVideoClientWindow.ScaleCombo (file ../System/UMenu.u)"
	// utspect/InstaGibPlus#44 (a UT99 server's start).
	ut99CantFindFile = "Failed to load InstaGibPlus9: Can't find file InstaGibPlus9.."
	// OldUnreal/UnrealTournamentPatches#1816 (UT v469e server): follows a
	// failed import, in a form explain does not read.
	ut99Unknown = "Failed to load UTBrowser: Can't find IntProperty in file IntProperty"

	// OldUnreal/UT2004Patches#450 (UT2004 client).
	ut2004CantFind = "Failed to load 'Texture ChaosTex_006.XHairs.ChaosTex_006.XHairs.Xbow': Can't find file for package ChaosTex_006"
	// OldUnreal/UT2004Patches#509 (UT2004 3374 log).
	ut2004Import = "Log: Failed import: AnimNotify_Script AnimNotify_Script HumanMaleA.AnimNotify_Script1 (file ../Animations/HumanMaleA.ukx, when loading Package glumpf)"
	// OldUnreal/FullGameInstallers#28 (UT2004 3374 start).
	ut2004CantFindQuoted = "Can't find file for package 'D3D9Drv'"
	// eezstreet/SWATEliteForce#517 (an Unreal Engine 2 game's log).
	ue2MissingObject = "Warning: Failed to load 'Texture gui_tex.resetbutton': Failed to find object 'Texture gui_tex.resetbutton'"
	ue2Unknown       = "Warning: Failed to load 'NULL': Can't resolve package name"
)

// writeInstall writes packages into a temporary install and returns its
// Install answerer. Each package is (rel path, GUID, exports).
func writeInstall(t *testing.T, version uint16, paths string, pkgs map[string]struct {
	guid    format.GUID
	exports []string
}) Install {
	t.Helper()
	root := t.TempDir()
	for rel, p := range pkgs {
		b := format.NewBuilder(version, 0)
		b.File.GUID = p.guid
		b.File.Generations = []format.Generation{{ExportCount: 1, NameCount: 1}}
		for _, e := range p.exports {
			b.ExportPath(e, "Core.Class", 10)
		}
		full := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := format.WriteFile(full, b.File); err != nil {
			t.Fatal(err)
		}
	}
	iniPath := filepath.Join(root, "System", "Game.ini")
	if err := os.MkdirAll(filepath.Dir(iniPath), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(iniPath, []byte("[Core.System]\n"+paths), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := ini.Load(iniPath)
	if err != nil {
		t.Fatal(err)
	}
	s, err := search.New(f, search.Options{Generation: int(map[bool]int{true: 1, false: 2}[version < 100])})
	if err != nil {
		t.Fatal(err)
	}
	return SearchInstall(s, iniPath)
}

type pkg = struct {
	guid    format.GUID
	exports []string
}

func utf16LE(s string) []byte {
	out := []byte{0xFF, 0xFE}
	for _, u := range utf16.Encode([]rune(s)) {
		out = append(out, byte(u), byte(u>>8))
	}
	return out
}

type want struct {
	line      int
	kind, pkg string
	problem   bool
	why, fix  string
}

func check(t *testing.T, rep *Report, wants []want, unknown []int) {
	t.Helper()
	if len(rep.Explained) != len(wants) {
		for _, l := range rep.Explained {
			t.Logf("%d %s %s: %s | %s | %s", l.Number, l.Kind, l.Package, l.What, l.Why, l.Fix)
		}
		t.Fatalf("explained %d lines, want %d", len(rep.Explained), len(wants))
	}
	for i, w := range wants {
		l := rep.Explained[i]
		if l.Number != w.line || l.Kind != w.kind || l.Package != w.pkg || l.Problem != w.problem ||
			!strings.Contains(l.Why, w.why) || !strings.Contains(l.Fix, w.fix) {
			t.Errorf("line %d: have %s %s problem=%v why %q fix %q; want %s %s problem=%v why ~%q fix ~%q",
				l.Number, l.Kind, l.Package, l.Problem, l.Why, l.Fix, w.kind, w.pkg, w.problem, w.why, w.fix)
		}
	}
	var got []int
	for _, l := range rep.NotUnderstood {
		got = append(got, l.Number)
	}
	if len(got) != len(unknown) {
		t.Fatalf("not understood lines %v, want %v", got, unknown)
	}
	for i := range got {
		if got[i] != unknown[i] {
			t.Errorf("not understood lines %v, want %v", got, unknown)
		}
	}
}

// TestExplainUT99: one real line per kind, answered against a generated
// UT99 install: Engine.u in the server's version, NWCoreVIII.u in another,
// UMenu.u without ScaleCombo, TNaliMeshSkins and InstaGibPlus9 absent.
func TestExplainUT99(t *testing.T) {
	engine, _ := format.ParseGUID("D18A7B9211D38F04100067B9F6F8975A")
	in := writeInstall(t, 69, "Paths=../System/*.u\n", map[string]pkg{
		"System/Engine.u":     {engine, []string{"Actor"}},
		"System/NWCoreVIII.u": {format.GUID{1, 2, 3, 4}, []string{"NWCore"}},
		"System/UMenu.u":      {format.GUID{5, 6, 7, 8}, []string{"UMenuVideoClientWindow"}},
	})
	log := strings.Join([]string{"Log: Log file open", ut99Uses, ut99CantFind, ut99Loaded, ut99Mismatch, ut99Import,
		ut99CantFindFile, ut99Unknown, "Log: Game engine initialized"}, "\r\n") + "\r\n"
	rep, err := Explain(context.Background(), strings.NewReader(log), "UnrealTournament.log", Options{Install: in})
	if err != nil {
		t.Fatal(err)
	}
	check(t, rep, []want{
		{2, PackageMap, "Engine", false, "", ""},
		{3, CantFind, "TNaliMeshSkins", true, "not in this install either", "install TNaliMeshSkins"},
		{4, AlreadyLoaded, "NWCoreVIII", true, "loaded earlier", "delete System/NWCoreVIII.u"},
		{5, VersionMismatch, "NWCoreVIII", true, "GUID 00000001000000020000000300000004", "delete System/NWCoreVIII.u"},
		{6, FailedImport, "UMenu", true, "does not export UMenuVideoClientWindow.ScaleCombo either", "install the UMenu"},
		{7, CantFind, "InstaGibPlus9", true, "not in this install either", "install InstaGibPlus9"},
	}, []int{8})
	if rep.Lines != 9 || rep.Problems != 5 || rep.Encoding != "8-bit" {
		t.Errorf("lines %d problems %d encoding %s", rep.Lines, rep.Problems, rep.Encoding)
	}
	if !strings.Contains(rep.Explained[0].What, "this install has it: System/Engine.u") {
		t.Errorf("package map line: %q", rep.Explained[0].What)
	}
}

// TestExplainUT2004: UTF-16LE log (UT2004 writes its logs so when asked),
// real UE2 lines, against a generated UT2004 install: HumanMaleA.ukx
// without AnimNotify_Script1, gui_tex.utx with resetbutton, ChaosTex_006
// and D3D9Drv absent.
func TestExplainUT2004(t *testing.T) {
	in := writeInstall(t, 128, "Paths=../System/*.u\nPaths=../Animations/*.ukx\nPaths=../Textures/*.utx\n", map[string]pkg{
		"Animations/HumanMaleA.ukx": {format.GUID{1, 1, 1, 1}, []string{"HumanMale"}},
		"Textures/gui_tex.utx":      {format.GUID{2, 2, 2, 2}, []string{"resetbutton"}},
	})
	log := strings.Join([]string{ut2004CantFind, ut2004Import, ut2004CantFindQuoted, ue2MissingObject, ue2Unknown}, "\r\n")
	rep, err := Explain(context.Background(), bytes.NewReader(utf16LE(log)), "UT2004.log", Options{Install: in,
		Index: func(_ context.Context, pkg, _ string) []string {
			if pkg == "ChaosTex_006" {
				return []string{"/backup/ChaosUT2/Textures/ChaosTex_006.utx"}
			}
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	check(t, rep, []want{
		{1, CantFind, "ChaosTex_006", true, "not in this install either", "the index has: /backup/ChaosUT2/Textures/ChaosTex_006.utx"},
		{2, FailedImport, "HumanMaleA", true, "Animations/HumanMaleA.ukx does not export AnimNotify_Script1 either: glumpf was built", "install the HumanMaleA that glumpf was built against"},
		{3, CantFind, "D3D9Drv", true, "not in this install either", "install D3D9Drv"},
		{4, MissingObject, "gui_tex", true, "exports it: the machine that logged this has another gui_tex", "give that machine this install's Textures/gui_tex.utx"},
	}, []int{5})
	if rep.Encoding != "UTF-16LE" || rep.Lines != 5 {
		t.Errorf("encoding %s, %d lines", rep.Encoding, rep.Lines)
	}
	if l := rep.Explained[0]; l.Class != "Texture" || l.Object != "XHairs.ChaosTex_006.XHairs.Xbow" {
		t.Errorf("object %q class %q", l.Object, l.Class)
	}
}

// TestExplainServerPackageInt: "Server Package: X.int" is the line a server
// logs before it stops on a ServerPackages entry naming a localisation
// file. No public log with it was found: the line is built from the
// message format the server prints for every entry ("Server Package: X").
func TestExplainServerPackageInt(t *testing.T) {
	rep, err := Explain(context.Background(), strings.NewReader("DevNet: Server Package: MyMod.int\n"), "server.log", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Explained) != 1 || rep.Explained[0].Kind != ServerPackage || !rep.Explained[0].Problem || !strings.Contains(rep.Explained[0].Fix, "remove ServerPackages=MyMod.int") {
		t.Errorf("%+v", rep.Explained)
	}
}

// TestExplainLongLines: a line longer than MaxLineLength is cut and
// counted, and the next line is read as its own.
func TestExplainLongLines(t *testing.T) {
	log := strings.Repeat("x", 3*MaxLineLength) + "\n" + ut99CantFind + "\n"
	for name, data := range map[string][]byte{"ansi": []byte(log), "utf16": utf16LE(log)} {
		rep, err := Explain(context.Background(), bytes.NewReader(data), name, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Lines != 2 || rep.LinesTruncated != 1 || len(rep.Explained) != 1 || rep.Explained[0].Number != 2 {
			t.Errorf("%s: lines %d truncated %d explained %+v", name, rep.Lines, rep.LinesTruncated, rep.Explained)
		}
	}
}

// TestExplainChain: a problem line carries why the install loads the
// package, asked once per package; a line that is no problem does not.
func TestExplainChain(t *testing.T) {
	asked := map[string]int{}
	opt := Options{Chain: func(pkg string) []string {
		asked[pkg]++
		return []string{"UnrealTournament.ini:12 ServerPackages=" + pkg}
	}}
	log := ut99CantFind + "\n" + ut99CantFind + "\n" + "Server Package: Botpack\n"
	rep, err := Explain(context.Background(), strings.NewReader(log), "x.log", opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Explained) != 3 || len(rep.Explained[0].Chain) != 1 || rep.Explained[0].Chain[0] != "UnrealTournament.ini:12 ServerPackages=TNaliMeshSkins" || rep.Explained[2].Chain != nil {
		t.Errorf("%+v", rep.Explained)
	}
	if asked["TNaliMeshSkins"] != 1 || len(asked) != 1 {
		t.Errorf("asked %v", asked)
	}
}

// TestExplainBounds: lines over the bounds are counted, not kept.
func TestExplainBounds(t *testing.T) {
	log := strings.Repeat(ut99CantFind+"\n"+ue2Unknown+"\n", 5)
	rep, err := Explain(context.Background(), strings.NewReader(log), "x.log", Options{MaxExplained: 2, MaxNotUnderstood: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Explained) != 2 || len(rep.NotUnderstood) != 1 || rep.Dropped != 7 || rep.Problems != 5 {
		t.Errorf("explained %d, not understood %d, dropped %d, problems %d", len(rep.Explained), len(rep.NotUnderstood), rep.Dropped, rep.Problems)
	}
}
