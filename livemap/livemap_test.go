package livemap

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/ini"
)

// The configs below follow the public documentation: VoteSys's README.md
// (VoteSys.ini, VoteSysPresets.ini) and MVES's release MVE_Config.ini and
// docs/quickstart.txt.
const gameIni = "[Engine.GameEngine]\nServerPackages=SoldierSkins\nServerPackages=Botpack\n"

const voteSysIniText = "[ServerSettings]\nVoteTimeLimit=30\nbManageServerPackages=True\nDefaultPackages=SoldierSkins\nDefaultPackages=Botpack\nDefaultPackages=VoteSys\n"

const voteSysPresets = "[VS_PresetConfig0]\nPresetName=DeathMatch\nAbbreviation=DM\nCategory=DM\nGame=Botpack.DeathMatchPlus\nMutators=\n\n" +
	"[VS_PresetConfig1]\nPresetName=InstaGib\nCategory=DM\nGame=Botpack.DeathMatchPlus\nMutators=InstaGibPlus.NewNetIG,Botpack.LowGrav\n\n" +
	"[VS_PresetConfig2]\nPresetName=Sniper\nCategory=CTF\nInheritFrom=DM/InstaGib\nMutators=SniperMod.Sniper\nbDisabled=True\n"

const mvesConfig = "[MVES.MapVote]\nbOverrideServerPackages=True\n" +
	"MainServerPackages=(\"SoldierSkins\",\"Botpack\",\"MVE2h\")\n" +
	"CustomGame[0]=(bEnabled=True,GameName=\"Deathmatch\",RuleName=\"Normal\",GameClass=\"Botpack.DeathMatchPlus\",MutatorList=\"\",Packages=\"\")\n" +
	"CustomGame[1]=(bEnabled=True,GameName=\"Capture the Flag\",RuleName=\"InstaGib\",GameClass=\"Botpack.CTFGame\",MutatorList=\"Botpack.InstaGibDM\",Packages=\"CTFExtras,FlagSkins\")\n" +
	"CustomGame[2]=(bEnabled=False,GameName=\"\",RuleName=\"\",GameClass=\"\",MutatorList=\"\",Packages=\"\")\n" +
	"bResetServerPackages=False\n"

func writeFiles(t *testing.T, files map[string]string) *ini.File {
	t.Helper()
	return writeFilesIn(t, t.TempDir(), files)
}

// writeFilesIn writes files (name -> text) in dir and loads its
// Server.ini.
func writeFilesIn(t *testing.T, dir string, files map[string]string) *ini.File {
	t.Helper()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := ini.Load(filepath.Join(dir, "Server.ini"))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// dirFind finds a package as dir/<pkg>.u when that file exists.
func dirFind(dir string) func(pkg string) string {
	return func(pkg string) string {
		p := filepath.Join(dir, pkg+".u")
		if _, err := os.Stat(p); err != nil {
			return ""
		}
		return p
	}
}

func names(es []Entry) []string {
	out := []string{}
	for _, e := range es {
		out = append(out, e.Package)
	}
	return out
}

func TestVoteSys(t *testing.T) {
	f := writeFiles(t, map[string]string{"Server.ini": gameIni, "VoteSys.ini": voteSysIniText, "VoteSysPresets.ini": voteSysPresets})
	m, err := Read(f, Options{Generation: 1})
	if err != nil {
		t.Fatal(err)
	}
	if m.Manager != VoteSys || !m.Managed || m.Switch == nil || m.Switch.Line != 3 {
		t.Fatalf("manager %q managed %v switch %+v", m.Manager, m.Managed, m.Switch)
	}
	if m.SchemaVersion != SchemaVersion || m.Ini != f.Path || m.SwitchText() != m.Switch.String() {
		t.Errorf("schema_version %d, ini %q (want %q), switch %q", m.SchemaVersion, m.Ini, f.Path, m.SwitchText())
	}
	if got, want := names(m.Base), []string{"SoldierSkins", "Botpack", "VoteSys"}; !reflect.DeepEqual(got, want) {
		t.Errorf("base %q, want %q", got, want)
	}
	want := map[string][]string{
		"DM/DeathMatch": {},
		"DM/InstaGib":   {"InstaGibPlus", "Botpack"},
		"CTF/Sniper":    {"InstaGibPlus", "Botpack", "SniperMod"},
	}
	if len(m.Presets) != 3 {
		t.Fatalf("%d presets: %+v", len(m.Presets), m.Presets)
	}
	for _, p := range m.Presets {
		if got := names(p.Packages); !reflect.DeepEqual(got, want[p.Name]) {
			t.Errorf("preset %s: %q, want %q", p.Name, got, want[p.Name])
		}
	}
	ig, _ := m.Preset("dm/instagib")
	if s := ig.Packages[0].Source.String(); s != "VoteSysPresets.ini:12 Mutators=InstaGibPlus.NewNetIG,Botpack.LowGrav" {
		t.Errorf("source %q", s)
	}
	if p, _ := m.Preset("Sniper"); p == nil || !p.Disabled {
		t.Errorf("Sniper: %+v, want the disabled CTF/Sniper", p)
	}
	got, err := m.Names("DM/InstaGib")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"SoldierSkins", "Botpack", "VoteSys", "InstaGibPlus"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Names = %q, want %q", got, want)
	}
	if _, err := m.Names("Nope"); !errors.Is(err, ErrNoPreset) || !strings.Contains(err.Error(), `"DM/InstaGib"`) {
		t.Errorf("unknown preset: %v", err)
	}
	// An absent package is reported on its preset line.
	miss := m.Missing(func(pkg string) bool { return !strings.EqualFold(pkg, "SniperMod") })
	if len(miss) != 1 || miss[0].Preset != "CTF/Sniper" || miss[0].Source.Line != 18 {
		t.Errorf("Missing = %+v", miss)
	}
}

// TestVoteSysInherit: as VoteSys's LoadPresetPassTwo loads presets, a base
// may come later in the file and is found by its exact full name; a
// preset's Packages= entries are sent after all its mutators' packages,
// inherited first; a missing base (here one spelt in another case) and a
// loop are notes.
func TestVoteSysInherit(t *testing.T) {
	presets := "[VS_PresetConfig0]\nPresetName=Child\nCategory=DM\nInheritFrom=DM/Base\nMutators=ChildMut.M\nPackages=ChildPkg,Extra\nPackages=More\n\n" +
		"[VS_PresetConfig1]\nPresetName=Base\nCategory=DM\nMutators=BaseMut.M\nPackages=BasePkg\n\n" +
		"[VS_PresetConfig2]\nPresetName=Wrong\nCategory=DM\nInheritFrom=dm/base\n\n" +
		"[VS_PresetConfig3]\nPresetName=LoopA\nCategory=X\nInheritFrom=X/LoopB\nMutators=A.M\n\n" +
		"[VS_PresetConfig4]\nPresetName=LoopB\nCategory=X\nInheritFrom=X/LoopA\nMutators=B.M\n"
	f := writeFiles(t, map[string]string{"Server.ini": gameIni, "VoteSys.ini": voteSysIniText, "VoteSysPresets.ini": presets})
	m, err := Read(f, Options{Generation: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"DM/Child": {"BaseMut", "ChildMut", "BasePkg", "ChildPkg", "Extra", "More"},
		"DM/Base":  {"BaseMut", "BasePkg"},
		"DM/Wrong": {},
		"X/LoopA":  {"B", "A"},
		"X/LoopB":  {"B"},
	}
	for _, p := range m.Presets {
		if got := names(p.Packages); !reflect.DeepEqual(got, want[p.Name]) {
			t.Errorf("preset %s: %q, want %q", p.Name, got, want[p.Name])
		}
	}
	notes := strings.Join(m.Notes, "\n")
	for _, w := range []string{`InheritFrom=dm/base: no preset's full name is "dm/base"`, "preset X/LoopA inherits from itself through InheritFrom"} {
		if !strings.Contains(notes, w) {
			t.Errorf("notes lack %q:\n%s", w, notes)
		}
	}
}

// TestVoteSys469c: from UT 469c on (Engine.u declares bAddToPackageMap)
// VoteSys leaves ServerPackages alone, so the ini's are the base even with
// DefaultPackages listed; before it, or in compatibility mode, the base is
// DefaultPackages; without an Engine.u the version is a note.
func TestVoteSys469c(t *testing.T) {
	dir := t.TempDir()
	engine := func(names ...string) string {
		b := format.NewBuilder(69, 0)
		for _, n := range names {
			b.Name(n)
		}
		b.Export(0, "Mutator", 0, 0, 10)
		p := filepath.Join(dir, strings.Join(names, "")+"Engine.u")
		if err := format.WriteFile(p, b.File); err != nil {
			t.Fatal(err)
		}
		return p
	}
	newEngine, oldEngine := engine("bAddToPackageMap"), engine()
	for _, c := range []struct {
		name, settings, engine string
		want                   []string
		note                   string
	}{
		{"469c", voteSysIniText, newEngine, []string{"SoldierSkins", "Botpack"}, "DefaultPackages are not used"},
		{"469b", voteSysIniText, oldEngine, []string{"SoldierSkins", "Botpack", "VoteSys"}, ""},
		{"compat", voteSysIniText + "bUseServerPackagesCompatibilityMode=True\n", newEngine, []string{"SoldierSkins", "Botpack", "VoteSys"}, ""},
		{"unknown", voteSysIniText, "", []string{"SoldierSkins", "Botpack", "VoteSys"}, "whether the engine is UT 469c or later was not read"},
	} {
		f := writeFiles(t, map[string]string{"Server.ini": gameIni, "VoteSys.ini": c.settings, "VoteSysPresets.ini": voteSysPresets})
		find := func(pkg string) string {
			if strings.EqualFold(pkg, "Engine") {
				return c.engine
			}
			return ""
		}
		m, err := Read(f, Options{Generation: 1, Find: find})
		if err != nil {
			t.Fatal(err)
		}
		if got := names(m.Base); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: base %q, want %q", c.name, got, c.want)
		}
		if notes := strings.Join(m.Notes, "\n"); c.note != "" && !strings.Contains(notes, c.note) {
			t.Errorf("%s: notes lack %q:\n%s", c.name, c.note, notes)
		}
	}
}

func TestVoteSysOff(t *testing.T) {
	f := writeFiles(t, map[string]string{"Server.ini": gameIni,
		"VoteSys.ini": strings.Replace(voteSysIniText, "=True", "=False", 1), "VoteSysPresets.ini": voteSysPresets})
	m, err := Read(f, Options{Generation: 1})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := m.Names("DM/InstaGib")
	if want := []string{"SoldierSkins", "Botpack"}; m.Managed || !reflect.DeepEqual(got, want) {
		t.Errorf("managed %v, names %q, want the ini's %q", m.Managed, got, want)
	}
	if !strings.Contains(strings.Join(m.Notes, "\n"), "switch is off (VoteSys.ini:3 bManageServerPackages=False)") {
		t.Errorf("notes %q", m.Notes)
	}
}

func TestMVES(t *testing.T) {
	f := writeFiles(t, map[string]string{"Server.ini": gameIni, "MVE_Config.ini": mvesConfig})
	m, err := Read(f, Options{Generation: 1})
	if err != nil {
		t.Fatal(err)
	}
	if m.Manager != MVES || !m.Managed {
		t.Fatalf("manager %q managed %v", m.Manager, m.Managed)
	}
	if got, want := names(m.Base), []string{"SoldierSkins", "Botpack", "MVE2h"}; !reflect.DeepEqual(got, want) {
		t.Errorf("base %q, want %q", got, want)
	}
	if len(m.Presets) != 2 {
		t.Fatalf("presets %+v", m.Presets)
	}
	p, err := m.Preset("Capture the Flag/InstaGib")
	if err != nil {
		t.Fatal(err)
	}
	if got := names(p.Packages); !reflect.DeepEqual(got, []string{"CTFExtras", "FlagSkins"}) || p.Packages[0].Source.Line != 5 {
		t.Errorf("packages %+v", p.Packages)
	}
}

// TestMVESAsWritten: what MapVote.uc (MVES at 1a84379) writes to
// ServerPackages: its client packages (ClientPackage, ClientScreenshotPackage,
// ClientLogoTexture's package), then MainServerPackages, every list's
// aliases expanded (Aliases[n], "<key> value" or "<key>=value", nested);
// with bResetServerPackages True or absent (its default), or no
// MainServerPackages, the game ini's ServerPackages are the base.
func TestMVESAsWritten(t *testing.T) {
	conf := "[MVES.MapVote]\nClientPackage=MVE2h\nClientLogoTexture=SpaceFX.nebula3\nClientScreenshotPackage=\nbOverrideServerPackages=True\n" +
		"bResetServerPackages=False\nMainServerPackages=(\"Botpack\",<skins>)\n" +
		"CustomGame[0]=(bEnabled=True,GameName=\"DM\",RuleName=\"LG\",GameClass=\"Botpack.DeathMatchPlus\",Packages=\"<lg>,Extra\")\n" +
		"Aliases[0]=<lg> LowGravPack,<more>\nAliases[1]=<more>=MorePack\nAliases[2]=<skins> SoldierSkins,BossSkins\nAliases[3]=\n"
	f := writeFiles(t, map[string]string{"Server.ini": gameIni, "MVE_Config.ini": conf})
	m, err := Read(f, Options{Generation: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := names(m.Base), []string{"MVE2h", "SpaceFX", "Botpack", "SoldierSkins", "BossSkins"}; !reflect.DeepEqual(got, want) {
		t.Errorf("base %q, want %q", got, want)
	}
	if e := m.Base[1]; e.From != FromMVES || e.Source.String() != "MVE_Config.ini:3 ClientLogoTexture=SpaceFX.nebula3" {
		t.Errorf("logo entry %+v", e)
	}
	p, err := m.Preset("DM/LG")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := names(p.Packages), []string{"LowGravPack", "MorePack", "Extra"}; !reflect.DeepEqual(got, want) {
		t.Errorf("preset packages %q, want %q", got, want)
	}
	for _, c := range []struct{ name, lines, note string }{
		{"reset", "bResetServerPackages=True\nMainServerPackages=(\"Other\")\n", "MVE_Config.ini:3 bResetServerPackages=True: MVES replaces MainServerPackages"},
		{"default", "MainServerPackages=(\"Other\")\n", "sets no bResetServerPackages (MVES's default is True)"},
		{"empty", "bResetServerPackages=False\n", "sets no MainServerPackages: MVES fills them"},
	} {
		conf := "[MVES.MapVote]\nbOverrideServerPackages=True\n" + c.lines
		f := writeFiles(t, map[string]string{"Server.ini": gameIni, "MVE_Config.ini": conf})
		m, err := Read(f, Options{Generation: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := names(m.Base), []string{"SoldierSkins", "Botpack"}; !reflect.DeepEqual(got, want) || m.Base[0].From != FromIni {
			t.Errorf("%s: base %+v, want the ini's %q", c.name, m.Base, want)
		}
		notes := strings.Join(m.Notes, "\n")
		if !strings.Contains(notes, c.note) || !strings.Contains(notes, "sets no ClientPackage") {
			t.Errorf("%s: notes %q", c.name, m.Notes)
		}
	}
}

// TestMVESExtends: a game type's Extends= list (CustomGame indices) adds
// those game types' packages first, recursively; a loop and an index no
// line has are notes.
func TestMVESExtends(t *testing.T) {
	conf := "[MVES.MapVote]\nbOverrideServerPackages=True\nbResetServerPackages=False\nMainServerPackages=(\"Botpack\")\n" +
		"CustomGame[0]=(bEnabled=False,GameName=\"Base\",GameClass=\"Botpack.DeathMatchPlus\",Packages=\"BasePkg\",Extends=\"\")\n" +
		"CustomGame[1]=(bEnabled=True,GameName=\"Mid\",GameClass=\"Botpack.DeathMatchPlus\",Packages=\"MidPkg\",Extends=\"0\")\n" +
		"CustomGame[2]=(bEnabled=True,GameName=\"Top\",GameClass=\"Botpack.DeathMatchPlus\",Packages=\"TopPkg\",Extends=\"1,7\")\n" +
		"CustomGame[3]=(bEnabled=True,GameName=\"LoopA\",GameClass=\"Botpack.DeathMatchPlus\",Packages=\"A\",Extends=\"4\")\n" +
		"CustomGame[4]=(bEnabled=True,GameName=\"LoopB\",GameClass=\"Botpack.DeathMatchPlus\",Packages=\"B\",Extends=\"3\")\n"
	f := writeFiles(t, map[string]string{"Server.ini": gameIni, "MVE_Config.ini": conf})
	m, err := Read(f, Options{Generation: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"Base": {"BasePkg"}, "Mid": {"BasePkg", "MidPkg"}, "Top": {"BasePkg", "MidPkg", "TopPkg"}, "LoopA": {"B", "A"}, "LoopB": {"A", "B"}}
	for _, p := range m.Presets {
		if got := names(p.Packages); !reflect.DeepEqual(got, want[p.Name]) {
			t.Errorf("%s: %q, want %q", p.Name, got, want[p.Name])
		}
	}
	if top, _ := m.Preset("Top"); top == nil || top.Packages[0].Source.Line != 5 {
		t.Errorf("Top's first package should come from CustomGame[0]'s line 5: %+v", top)
	}
	notes := strings.Join(m.Notes, "\n")
	for _, w := range []string{`Extends names "7", which no CustomGame line has`, "CustomGame[3] is reached twice through Extends"} {
		if !strings.Contains(notes, w) {
			t.Errorf("notes lack %q:\n%s", w, notes)
		}
	}
}

// TestMVESUnsent: with bOverrideServerPackages off, MVES's client package
// must be in the ini's ServerPackages; when it is not, it is Unsent (under
// XC_Engine a note instead); when it is, or MVES manages them, nothing.
func TestMVESUnsent(t *testing.T) {
	conf := "[MVES.MapVote]\nClientPackage=MVE2h\nbOverrideServerPackages=False\n"
	for _, c := range []struct {
		name, game, conf string
		unsent           []string
		note             string
	}{
		{"missing", gameIni, conf, []string{"MVE2h"}, ""},
		{"listed", gameIni + "ServerPackages=mve2h\n", conf, nil, ""},
		{"managed", gameIni, strings.Replace(conf, "=False", "=True", 1), nil, ""},
		{"xc", "[Engine.Engine]\nGameEngine=XC_Engine.XC_GameEngine\n\n" + gameIni, conf, nil, "MVES adds it to the package map itself"},
	} {
		f := writeFiles(t, map[string]string{"Server.ini": c.game, "MVE_Config.ini": c.conf})
		m, err := Read(f, Options{Generation: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got := names(m.Unsent); !reflect.DeepEqual(got, append([]string{}, c.unsent...)) {
			t.Errorf("%s: unsent %q, want %q", c.name, got, c.unsent)
		}
		if len(m.Unsent) > 0 && m.Unsent[0].Source.String() != "MVE_Config.ini:2 ClientPackage=MVE2h" {
			t.Errorf("%s: source %q", c.name, m.Unsent[0].Source)
		}
		if notes := strings.Join(m.Notes, "\n"); c.note != "" && !strings.Contains(notes, c.note) {
			t.Errorf("%s: notes lack %q:\n%s", c.name, c.note, notes)
		}
	}
}

// TestLoads: the packages a preset makes the server load, sent or not:
// VoteSys's Game= class (its own, else its first base's) and mutators;
// MVES's GameClass (the last set along Extends), ServerActors and
// MutatorList, aliases expanded, and MainServerActors and
// MainMutatorList for every game type; Used gathers them all.
func TestLoads(t *testing.T) {
	presets := "[VS_PresetConfig0]\nPresetName=Base\nCategory=DM\nGame=Botpack.DeathMatchPlus\nMutators=BaseMut.M\n\n" +
		"[VS_PresetConfig1]\nPresetName=Kid\nCategory=DM\nInheritFrom=DM/Base\nMutators=KidMut.M\nPackages=KidPkg\n\n" +
		"[VS_PresetConfig2]\nPresetName=Own\nCategory=DM\nInheritFrom=DM/Base\nGame=MyGame.G\n"
	f := writeFiles(t, map[string]string{"Server.ini": gameIni, "VoteSys.ini": voteSysIniText, "VoteSysPresets.ini": presets})
	m, err := Read(f, Options{Generation: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"DM/Base": {"Botpack", "BaseMut"}, "DM/Kid": {"Botpack", "BaseMut", "KidMut"}, "DM/Own": {"MyGame", "BaseMut"}}
	for _, p := range m.Presets {
		if got := names(p.Loads); !reflect.DeepEqual(got, want[p.Name]) {
			t.Errorf("VoteSys %s loads %q, want %q", p.Name, got, want[p.Name])
		}
	}
	if got, want := m.Used(), []string{"SoldierSkins", "Botpack", "VoteSys", "BaseMut", "KidMut", "KidPkg", "MyGame"}; !reflect.DeepEqual(got, want) {
		t.Errorf("VoteSys Used %q, want %q", got, want)
	}
	miss := m.Missing(func(pkg string) bool { return !strings.EqualFold(pkg, "MyGame") && !strings.EqualFold(pkg, "BaseMut") })
	var got []string
	for _, p := range miss {
		got = append(got, fmt.Sprintf("%s %s %v", p.Preset, p.Package, p.Loaded))
	}
	// BaseMut is sent (a VoteSys mutator's package): reported once per
	// preset as sent, not again as loaded.
	if want := []string{"DM/Base BaseMut false", "DM/Kid BaseMut false", "DM/Own BaseMut false", "DM/Own MyGame true"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Missing %q, want %q", got, want)
	}
	conf := "[MVES.MapVote]\nbOverrideServerPackages=False\nMainServerActors=<act>\nMainMutatorList=MainMut.M\nAliases[0]=<act> ActPkg.A,Act2.B Param=1\n" +
		"CustomGame[0]=(bEnabled=True,GameName=\"Base\",GameClass=\"Botpack.CTFGame\",MutatorList=\"BaseMut.M\",ServerActors=\"\",Packages=\"\")\n" +
		"CustomGame[1]=(bEnabled=True,GameName=\"Kid\",GameClass=\"\",MutatorList=\"<act>\",ServerActors=\"KidAct.A\",Packages=\"KidPkg\",Extends=\"0\")\n" +
		"CustomGame[2]=(bEnabled=True,GameName=\"Own\",GameClass=\"MyGame.G\",Extends=\"0\")\n"
	f = writeFiles(t, map[string]string{"Server.ini": gameIni, "MVE_Config.ini": conf})
	m, err = Read(f, Options{Generation: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := names(m.Loads), []string{"ActPkg", "Act2", "MainMut"}; !reflect.DeepEqual(got, want) {
		t.Errorf("MVES map loads %q, want %q", got, want)
	}
	want = map[string][]string{"Base": {"Botpack", "BaseMut"}, "Kid": {"Botpack", "BaseMut", "KidAct", "ActPkg", "Act2"}, "Own": {"MyGame", "BaseMut"}}
	for _, p := range m.Presets {
		if got := names(p.Loads); !reflect.DeepEqual(got, want[p.Name]) {
			t.Errorf("MVES %s loads %q, want %q", p.Name, got, want[p.Name])
		}
	}
}

// TestMVESAliasLoop: an alias that refers to itself stops after MVES's 32
// rounds, and one that doubles each round stops at 16 KiB, with a note.
func TestMVESAliasLoop(t *testing.T) {
	a := aliases{{"<a>", "x<a>"}}
	if got, ok := a.resolve("<a>"); got != strings.Repeat("x", 32)+"<a>" || !ok {
		t.Errorf("self loop: %q %v", got, ok)
	}
	b := aliases{{"<b>", "<b>,<b>"}}
	var notes []string
	if got := b.list("<b>", Source{"MVE_Config.ini", 9, "MainServerPackages=<b>"}, &notes); len(got) > maxAliasLen/4 || len(notes) != 1 || !strings.Contains(notes[0], "MVE_Config.ini:9 MainServerPackages=<b>: its aliases expand past 16 KiB") {
		t.Errorf("doubling alias: %d items, notes %q", len(got), notes)
	}
}

func TestBothMapvotes(t *testing.T) {
	f := writeFiles(t, map[string]string{"Server.ini": gameIni, "MVE_Config.ini": mvesConfig, "VoteSys.ini": voteSysIniText})
	if _, err := Read(f, Options{}); err == nil || !strings.Contains(err.Error(), "both") {
		t.Errorf("have %v, want an error naming both", err)
	}
}

// TestIniSection: a class section's line setting the switch adds nothing
// (the switch is not a config variable): it is a note, in each generation
// by its own switch's name.
func TestIniSection(t *testing.T) {
	f := writeFiles(t, map[string]string{"Server.ini": gameIni + "\n[MyMut.MutFoo]\nbAddToServerPackages=True\n\n[Other.Off]\nbAddToServerPackages=False\n\n[Old.Mut]\nbAddToPackageMap=True\n"})
	m, err := Read(f, Options{Generation: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := names(m.Base), []string{"SoldierSkins", "Botpack"}; !reflect.DeepEqual(got, want) {
		t.Errorf("base %q, want %q", got, want)
	}
	want := "Server.ini:6 [MyMut.MutFoo] bAddToServerPackages=True is not counted: Engine.Mutator declares bAddToServerPackages without config, so the engine never reads it from an ini; a class's defaultproperties set it"
	if len(m.Notes) != 1 || m.Notes[0] != want {
		t.Errorf("notes %q, want %q", m.Notes, want)
	}
	if got := IgnoredSwitchLines(f, 2); len(got) != 1 || got[0].Line != 6 {
		t.Errorf("UE2 ignored lines %+v", got)
	}
	if got := IgnoredSwitchLines(f, 1); len(got) != 1 || got[0].Line != 12 || got[0].Text != "[Old.Mut] bAddToPackageMap=True" {
		t.Errorf("UE1 ignored lines %+v", got)
	}
	if got := IgnoredSwitchLines(f, 0); got != nil {
		t.Errorf("unknown generation: %+v", got)
	}
}

// TestDefaults: a generated UT2004 mutator package whose class sets
// bAddToServerPackages=True in its default properties is in the live map,
// with the package as the source; a class without it is not.
func TestDefaults(t *testing.T) {
	dir := t.TempDir()
	write := func(name, class string, on bool) {
		t.Helper()
		b := format.NewBuilder(128, 29)
		var props []string
		if on {
			props = append(props, "bAddToServerPackages")
		}
		data := b.ClassDefaults([]byte{0x00, 0x01}, props...)
		b.Export(0, class, 0, b.ImportPath("Engine.Mutator", "Core", "Class"), int32(len(data)))
		img, err := format.MarshalSerial(b.File, map[int][]byte{0: data})
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".u"), img, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("MyMut", "MutOn", true)
	write("OtherMut", "MutOff", false)
	write("CmdMut", "MutCmd", true)
	f := writeFilesIn(t, dir, map[string]string{"Server.ini": "[Engine.GameEngine]\nServerPackages=Base\nServerActors=MyMut.MutOn\nServerActors=OtherMut.MutOff\n"})
	find := dirFind(dir)
	m, err := Read(f, Options{Generation: 2, Find: find, Mutators: []string{"CmdMut.MutCmd"}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := names(m.Base), []string{"Base", "MyMut", "CmdMut"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("base %q, want %q", got, want)
	}
	e := m.Base[1]
	if e.From != FromDefaults || e.Source.File != filepath.Join(dir, "MyMut.u") || e.Source.String() != "MyMut.u MyMut.MutOn defaultproperties bAddToServerPackages=True" {
		t.Errorf("entry %+v, source %q", e, e.Source)
	}
	// UE1 has no such switch.
	if m1, _ := Read(f, Options{Generation: 1, Find: find}); len(m1.Base) != 1 {
		t.Errorf("UE1 base %+v", m1.Base)
	}
}

// class is a class of a generated package: its parent ("Pkg.Class"
// imported, "Class" exported before it) and its defaults.
type class struct {
	name, super string
	props       []format.BoolDefault
}

// writePackage writes dir/pkg.u, a package of version (69 UT99, 128
// UT2004) holding classes in order.
func writePackage(t *testing.T, dir, pkg string, version uint16, classes ...class) {
	t.Helper()
	b := format.NewBuilder(version, 0)
	serial := map[int][]byte{}
	local := map[string]format.Ref{}
	for _, c := range classes {
		data := b.ClassDefaultBools([]byte{0x00, 0x01}, c.props...)
		super := local[c.super]
		if strings.Contains(c.super, ".") {
			super = b.ImportPath(c.super, "Core", "Class")
		}
		serial[len(b.File.Exports)] = data
		local[c.name] = b.Export(0, c.name, 0, super, int32(len(data)))
	}
	img, err := format.MarshalSerial(b.File, serial)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, pkg+".u"), img, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestDefaultsInherited: a class whose own defaults do not set the switch
// takes its parent's, in its package or another; a False of its own wins;
// the walk stops at Engine's classes without reading Engine.u; a parent
// whose package is missing is a note.
func TestDefaultsInherited(t *testing.T) {
	on := []format.BoolDefault{{Name: "bAddToServerPackages", Value: true}}
	off := []format.BoolDefault{{Name: "bAddToServerPackages", Value: false}}
	dir := t.TempDir()
	writePackage(t, dir, "Base", 128, class{"MutA", "Engine.Mutator", on}, class{"MutPlain", "Engine.Mutator", nil})
	writePackage(t, dir, "Kid", 128, class{"MutB", "Base.MutA", nil}, class{"MutC", "Base.MutA", off}, class{"MutD", "MutB", nil}, class{"MutE", "Base.MutPlain", nil})
	writePackage(t, dir, "Orphan", 128, class{"MutF", "Gone.MutX", nil})
	text := "[Engine.GameEngine]\nServerActors=Kid.MutB\nServerActors=Kid.MutC\nServerActors=Kid.MutD\nServerActors=Kid.MutE\nServerActors=Orphan.MutF\n"
	f := writeFilesIn(t, dir, map[string]string{"Server.ini": text})
	var asked []string
	find := func(pkg string) string {
		asked = append(asked, pkg)
		p := filepath.Join(dir, pkg+".u")
		if _, err := os.Stat(p); err != nil {
			return ""
		}
		return p
	}
	m, err := Read(f, Options{Generation: 2, Find: find})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range m.Base {
		got = append(got, e.From+" "+e.Source.String())
	}
	want := []string{
		"defaults Base.u Kid.MutB inherits bAddToServerPackages=True from Base.MutA's defaultproperties",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("base\n%q\nwant\n%q", got, want)
	}
	// Kid.MutD (MutB's child in Kid.u) is the same package: one entry.
	wantNote := filepath.Join(dir, "Orphan.u") + ": whether Orphan.MutF adds its package went unchecked: the package of parent class Gone.MutX is not found"
	if len(m.Notes) != 1 || m.Notes[0] != wantNote {
		t.Errorf("notes %q, want %q", m.Notes, wantNote)
	}
	for _, p := range asked {
		if strings.EqualFold(p, "Engine") || strings.EqualFold(p, "Core") {
			t.Errorf("looked up %s: the walk should stop at the engine's classes", p)
		}
	}
	// Each class on its own, to see what MutD and MutC give.
	d := defaults{find: find, prop: "bAddToServerPackages", files: map[string]*pkgView{}}
	defer d.close()
	for _, c := range []struct {
		pkg, class string
		on         bool
		from       string
	}{{"Kid", "MutB", true, "Base.MutA"}, {"Kid", "MutC", false, "Kid.MutC"}, {"Kid", "MutD", true, "Base.MutA"}, {"Kid", "MutE", false, ""}, {"Base", "MutA", true, "Base.MutA"}} {
		v, w, err := d.value(c.pkg, c.class)
		if err != nil || v != c.on || w.class != c.from {
			t.Errorf("%s.%s: %v from %q (%v), want %v from %q", c.pkg, c.class, v, w.class, err, c.on, c.from)
		}
	}
}

// TestDefaultsUT99: UT99 469c's switch is bAddToPackageMap, read from a UE1
// package's class defaults the same way; UT2004's name does nothing there.
func TestDefaultsUT99(t *testing.T) {
	dir := t.TempDir()
	writePackage(t, dir, "NewMut", 69, class{"Mut469", "Engine.Mutator", []format.BoolDefault{{Name: "bAddToPackageMap", Value: true}}})
	writePackage(t, dir, "WrongMut", 69, class{"Mut2004", "Engine.Mutator", []format.BoolDefault{{Name: "bAddToServerPackages", Value: true}}})
	f := writeFilesIn(t, dir, map[string]string{"Server.ini": "[Engine.GameEngine]\nServerActors=NewMut.Mut469\nServerActors=WrongMut.Mut2004\n"})
	find := func(pkg string) string { return filepath.Join(dir, pkg+".u") }
	m, err := Read(f, Options{Generation: 1, Find: find})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Base) != 1 || m.Base[0].Source.String() != "NewMut.u NewMut.Mut469 defaultproperties bAddToPackageMap=True" || len(m.Notes) != 0 {
		t.Errorf("base %+v, notes %q", m.Base, m.Notes)
	}
	// Only UT99 (or a game not named) has the switch in generation 1; an
	// unnamed UE1 game says it went unread, Unreal says nothing.
	for _, c := range []struct {
		game string
		sent bool
		note bool
	}{{"ut99", true, false}, {"", true, false}, {"ue1", false, true}, {"unreal", false, false}, {"deusex", false, false}} {
		m, err := Read(f, Options{Generation: 1, Find: find, Game: c.game})
		if err != nil {
			t.Fatal(err)
		}
		note := strings.Contains(strings.Join(m.Notes, "\n"), "is read only for UT99")
		if (len(m.Base) == 1) != c.sent || note != c.note {
			t.Errorf("game %q: base %q, notes %q", c.game, names(m.Base), m.Notes)
		}
	}
}

// TestDefaultsLoop: a hostile package whose classes are each other's
// parents ends the walk with a note, not a hang.
func TestDefaultsLoop(t *testing.T) {
	dir := t.TempDir()
	b := format.NewBuilder(128, 0)
	b.Export(0, "MutA", 0, format.ExportRef(1), 10)
	b.Export(0, "MutB", 0, format.ExportRef(0), 10)
	if err := format.WriteFile(filepath.Join(dir, "Loop.u"), b.File); err != nil {
		t.Fatal(err)
	}
	d := defaults{prop: "bAddToServerPackages", files: map[string]*pkgView{}, find: func(string) string { return filepath.Join(dir, "Loop.u") }}
	defer d.close()
	if _, _, err := d.value("Loop", "MutA"); err == nil || !strings.Contains(err.Error(), "more than 64 parent classes above Loop.MutA (a loop?)") {
		t.Errorf("err %v", err)
	}
}

// TestXVoting: UT2004's xVoting (VotingHandlerType=xVoting.xVotingHandler)
// makes each GameConfig line a preset that loads its game class and
// mutators; a mutator whose defaults set bAddToServerPackages is sent
// while its game config runs, though xVoting manages nothing; with
// bMapVote off every game config is disabled.
func TestXVoting(t *testing.T) {
	dir := t.TempDir()
	writePackage(t, dir, "MyMut", 128, class{"MutOn", "Engine.Mutator", []format.BoolDefault{{Name: "bAddToServerPackages", Value: true}}}, class{"MutOff", "Engine.Mutator", nil})
	text := "[Engine.GameEngine]\nServerPackages=Base\n\n[Engine.GameInfo]\nVotingHandlerType=xVoting.xVotingHandler\n\n[xVoting.xVotingHandler]\nbMapVote=True\n" +
		"GameConfig=(GameClass=\"XGame.xDeathMatch\",Prefix=\"DM\",Acronym=\"DM\",GameName=\"DeathMatch\",Mutators=\"MyMut.MutOn,MyMut.MutOff,Gone.Mut\",Options=)\n" +
		"GameConfig=(GameClass=\"Onslaught.ONSOnslaughtGame\",Prefix=\"ONS\",Acronym=\"ONS\",GameName=\"Onslaught\",Mutators=,Options=)\n"
	f := writeFilesIn(t, dir, map[string]string{"Server.ini": text})
	find := dirFind(dir)
	m, err := Read(f, Options{Generation: 2, Find: find})
	if err != nil {
		t.Fatal(err)
	}
	if m.Manager != XVoting || m.Managed || len(m.Presets) != 2 || names(m.Base)[0] != "Base" {
		t.Fatalf("map %+v", m)
	}
	dm, _ := m.Preset("DeathMatch")
	if got, want := names(dm.Loads), []string{"XGame", "MyMut", "Gone"}; !reflect.DeepEqual(got, want) {
		t.Errorf("loads %q, want %q", got, want)
	}
	if len(dm.Packages) != 1 || dm.Packages[0].Source.String() != "MyMut.u MyMut.MutOn defaultproperties bAddToServerPackages=True" {
		t.Errorf("packages %+v", dm.Packages)
	}
	if got, _ := m.Names("DeathMatch"); !reflect.DeepEqual(got, []string{"Base", "MyMut"}) {
		t.Errorf("Names(DeathMatch) = %q", got)
	}
	if got, _ := m.Names("Onslaught"); !reflect.DeepEqual(got, []string{"Base"}) {
		t.Errorf("Names(Onslaught) = %q", got)
	}
	var b strings.Builder
	if err := m.WriteText(&b); err != nil || !strings.Contains(b.String(), "xvoting votes its game configs (Server.ini:8 bMapVote=True)") {
		t.Errorf("text:\n%s", b.String())
	}
	off := strings.Replace(text, "bMapVote=True", "bMapVote=False", 1)
	if err := os.WriteFile(filepath.Join(dir, "Server.ini"), []byte(off), 0o644); err != nil {
		t.Fatal(err)
	}
	f, _ = ini.Load(filepath.Join(dir, "Server.ini"))
	m, err = Read(f, Options{Generation: 2, Find: find})
	if err != nil || !m.Presets[0].Disabled || !strings.Contains(strings.Join(m.Notes, "\n"), "xVoting's bMapVote is off") {
		t.Errorf("bMapVote off: %+v, %v", m, err)
	}
	if got, _ := m.Names(AllPresets); !reflect.DeepEqual(got, []string{"Base"}) {
		t.Errorf("Names(*) with voting off = %q", got)
	}
	// UE1 and an ini without the handler: no xVoting.
	if m, _ := Read(f, Options{Generation: 1, Find: find}); m.Manager != "" {
		t.Errorf("UE1: manager %q", m.Manager)
	}
}

// TestMVESMainSwitch: MVES runs MainMutatorList's mutators with every game
// type (PopulateResultWithDefaults), so one whose defaults set UT99 469c's
// bAddToPackageMap is sent with each, even with MVES's switch off.
func TestMVESMainSwitch(t *testing.T) {
	dir := t.TempDir()
	writePackage(t, dir, "MainMut", 69, class{"M", "Engine.Mutator", []format.BoolDefault{{Name: "bAddToPackageMap", Value: true}}})
	f := writeFilesIn(t, dir, map[string]string{"Server.ini": gameIni, "MVE_Config.ini": "[MVES.MapVote]\nbOverrideServerPackages=False\nMainMutatorList=MainMut.M\n" +
		"CustomGame[0]=(bEnabled=True,GameName=\"DM\",GameClass=\"Botpack.DeathMatchPlus\")\nCustomGame[1]=(bEnabled=True,GameName=\"CTF\",GameClass=\"Botpack.CTFGame\")\n"})
	find := dirFind(dir)
	m, err := Read(f, Options{Generation: 1, Find: find, Game: "ut99"})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"DM", "CTF"} {
		if got, _ := m.Names(p); !reflect.DeepEqual(got, []string{"SoldierSkins", "Botpack", "MainMut"}) {
			t.Errorf("%s: %q", p, got)
		}
	}
}

// TestVoteSysOwn: VoteSys's own package, found by its mutator class
// MutVoteSys on the command line or in ServerActors: sent by VoteSys when
// it manages ServerPackages, else Unsent unless the ini lists it; not
// found, a note.
func TestVoteSysOwn(t *testing.T) {
	off := strings.Replace(voteSysIniText, "=True", "=False", 1)
	for _, c := range []struct {
		name, game, settings string
		muts                 []string
		base, unsent         []string
		note                 bool
	}{
		{"managed, command line", gameIni, voteSysIniText, []string{"VS2.MutVoteSys"}, []string{"SoldierSkins", "Botpack", "VoteSys", "VS2"}, nil, false},
		{"off, ServerActors", gameIni + "ServerActors=VS2.MutVoteSys\n", off, nil, []string{"SoldierSkins", "Botpack"}, []string{"VS2"}, false},
		{"off, listed", gameIni + "ServerPackages=vs2\n", off, []string{"VS2.MutVoteSys"}, []string{"SoldierSkins", "Botpack", "vs2"}, nil, false},
		{"not named", gameIni, off, nil, []string{"SoldierSkins", "Botpack"}, nil, true},
	} {
		f := writeFiles(t, map[string]string{"Server.ini": c.game, "VoteSys.ini": c.settings, "VoteSysPresets.ini": voteSysPresets})
		m, err := Read(f, Options{Generation: 1, Mutators: c.muts})
		if err != nil {
			t.Fatal(err)
		}
		note := strings.Contains(strings.Join(m.Notes, "\n"), "VoteSys's own package is counted only when")
		if got := names(m.Base); !reflect.DeepEqual(got, c.base) || !reflect.DeepEqual(names(m.Unsent), append([]string{}, c.unsent...)) || note != c.note {
			t.Errorf("%s: base %q, unsent %q, notes %q", c.name, got, names(m.Unsent), m.Notes)
		}
	}
}
