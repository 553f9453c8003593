package livemap

import (
	"errors"
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
	"CustomGame[2]=(bEnabled=False,GameName=\"\",RuleName=\"\",GameClass=\"\",MutatorList=\"\",Packages=\"\")\n"

func writeFiles(t *testing.T, files map[string]string) *ini.File {
	t.Helper()
	dir := t.TempDir()
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

func TestBothMapvotes(t *testing.T) {
	f := writeFiles(t, map[string]string{"Server.ini": gameIni, "MVE_Config.ini": mvesConfig, "VoteSys.ini": voteSysIniText})
	if _, err := Read(f, Options{}); err == nil || !strings.Contains(err.Error(), "both") {
		t.Errorf("have %v, want an error naming both", err)
	}
}

// TestIniSection: UT2004 reads bAddToServerPackages=True from a class's
// section; UT99 has no such switch.
func TestIniSection(t *testing.T) {
	f := writeFiles(t, map[string]string{"Server.ini": gameIni + "\n[MyMut.MutFoo]\nbAddToServerPackages=True\n\n[Other.Off]\nbAddToServerPackages=False\n"})
	m, err := Read(f, Options{Generation: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := names(m.Base), []string{"SoldierSkins", "Botpack", "MyMut"}; !reflect.DeepEqual(got, want) {
		t.Errorf("base %q, want %q", got, want)
	}
	if e := m.Base[2]; e.From != FromIniSection || e.Source.Line != 6 {
		t.Errorf("entry %+v", e)
	}
	m1, _ := Read(f, Options{Generation: 1})
	if len(m1.Base) != 2 {
		t.Errorf("UE1 base %+v", m1.Base)
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
	if err := os.WriteFile(filepath.Join(dir, "Server.ini"), []byte("[Engine.GameEngine]\nServerPackages=Base\nServerActors=MyMut.MutOn\nServerActors=OtherMut.MutOff\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := ini.Load(filepath.Join(dir, "Server.ini"))
	if err != nil {
		t.Fatal(err)
	}
	find := func(pkg string) string {
		p := filepath.Join(dir, pkg+".u")
		if _, err := os.Stat(p); err != nil {
			return ""
		}
		return p
	}
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
