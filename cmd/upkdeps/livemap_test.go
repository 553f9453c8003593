package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/format"
)

// writeVoteSysInstall writes a small UT99 server whose ServerPackages a
// VoteSys config owns (VoteSys.ini, VoteSysPresets.ini as VoteSys's
// README.md shows them): DefaultPackages=Base; preset DM/Mods adds ModA and
// ModB; DM/Broken names the absent package Absent on line 14. It returns
// the ini.
func writeVoteSysInstall(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for _, d := range []string{"System", "Maps"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	pkg := func(rel string, build func(b *format.Builder)) {
		b := format.NewBuilder(69, 0)
		b.File.Flags = format.FlagAllowDownload
		build(b)
		if err := format.WriteFile(filepath.Join(root, rel), b.File); err != nil {
			t.Fatal(err)
		}
	}
	pkg("System/Engine.u", func(b *format.Builder) { b.Export(0, "Level", 0, 0, 10); b.Export(0, "Mutator", 0, 0, 10) })
	for _, n := range []string{"Base", "ModA", "ModB"} {
		pkg("System/"+n+".u", func(b *format.Builder) {
			b.Export(0, "Mut"+n, 0, b.ImportPath("Engine.Mutator", "Core", "Class"), 10)
		})
	}
	pkg("Maps/DM-Test.unr", func(b *format.Builder) {
		b.Export(0, "MyLevel", b.ImportPath("Engine.Level", "Core", "Class"), 0, 10)
	})
	files := map[string]string{
		"Server.ini": "[Engine.Engine]\nGameEngine=Engine.GameEngine\n\n[Core.System]\nPaths=../System/*.u\nPaths=../Maps/*.unr\n\n" +
			"[Engine.GameEngine]\nServerPackages=Base\nServerActors=VoteSys.VoteSys\n",
		"VoteSys.ini": "[ServerSettings]\nbManageServerPackages=True\nDefaultPackages=Base\n",
		"VoteSysPresets.ini": "[VS_PresetConfig0]\nPresetName=Plain\nCategory=DM\nGame=Botpack.DeathMatchPlus\n\n" +
			"[VS_PresetConfig1]\nPresetName=Mods\nCategory=DM\nMutators=ModA.MutModA,ModB.MutModB\n\n" +
			"[VS_PresetConfig2]\nPresetName=Broken\nCategory=DM\nMutators=Absent.Mut\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(root, "System", name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(root, "System", "Server.ini")
}

// sentPackages runs downloads --json with args and returns its
// server_packages root's packages: what the server sends.
func sentPackages(t *testing.T, args ...string) []string {
	t.Helper()
	out, errOut, code := runCLI(t, append([]string{"downloads", "--json"}, args...)...)
	if code != exitOK {
		t.Fatalf("downloads %q: code %d, %s", args, code, errOut)
	}
	var d struct {
		Roots []struct {
			Kind     string   `json:"kind"`
			Packages []string `json:"packages"`
		} `json:"roots"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	for _, r := range d.Roots {
		if r.Kind == "server_packages" {
			return r.Packages
		}
	}
	return nil
}

// checkFindings runs check --json with args, wants exit code want, and
// returns its findings of kind as "severity package root;root", and its
// stderr.
func checkFindings(t *testing.T, want int, kind string, args ...string) ([]string, string) {
	t.Helper()
	out, errOut, code := runCLI(t, append([]string{"check", "--json"}, args...)...)
	if code != want {
		t.Fatalf("check %q: code %d, want %d, %s", args, code, want, errOut)
	}
	var rep struct {
		Findings []struct {
			Kind     string   `json:"kind"`
			Severity string   `json:"severity"`
			Package  string   `json:"package"`
			Roots    []string `json:"roots"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	var got []string
	for _, f := range rep.Findings {
		if f.Kind == kind {
			got = append(got, f.Severity+" "+f.Package+" "+strings.Join(f.Roots, ";"))
		}
	}
	return got, errOut
}

// TestPresetDownloadsRedirect: downloads --preset X and redirect build
// --preset X --dry-run differ from the plain runs by exactly X's packages.
func TestPresetDownloadsRedirect(t *testing.T) {
	iniPath := writeVoteSysInstall(t)
	serverRoot := func(args ...string) []string {
		t.Helper()
		return sentPackages(t, append([]string{"--ini", iniPath, "--game", "ut99"}, args...)...)
	}
	published := func(args ...string) []string {
		t.Helper()
		outDir := filepath.Join(t.TempDir(), "redirect")
		out, errOut, code := runCLI(t, append([]string{"redirect", "build", "--ini", iniPath, "--game", "ut99", "-o", outDir, "--dry-run", "--json"}, args...)...)
		if code != exitOK {
			t.Fatalf("redirect build %q: code %d, %s", args, code, errOut)
		}
		var r struct {
			Actions []struct {
				Package string `json:"package"`
			} `json:"actions"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		var pkgs []string
		for _, a := range r.Actions {
			if a.Package != "" {
				pkgs = append(pkgs, a.Package)
			}
		}
		slices.Sort(pkgs)
		return pkgs
	}
	diff := func(a, b []string) []string {
		var out []string
		for _, s := range b {
			if !slices.Contains(a, s) {
				out = append(out, s)
			}
		}
		return out
	}
	want := []string{"ModA", "ModB"}
	if got := diff(serverRoot(), serverRoot("--preset", "DM/Mods")); !slices.Equal(got, want) {
		t.Errorf("downloads --preset DM/Mods adds %q, want %q", got, want)
	}
	if got := diff(published(), published("--preset", "Mods")); !slices.Equal(got, want) {
		t.Errorf("redirect build --preset Mods adds %q, want %q", got, want)
	}
	if got := diff(serverRoot(), serverRoot("--preset", "DM/Plain")); len(got) != 0 {
		t.Errorf("DM/Plain adds %q", got)
	}
	_, errOut, code := runCLI(t, "downloads", "--ini", iniPath, "--game", "ut99", "--preset", "Nope")
	if code != exitError || !strings.Contains(errOut, `"DM/Mods"`) {
		t.Errorf("unknown preset: code %d, %s", code, errOut)
	}
}

// TestPresetMissingPackage: a preset naming an absent package, sent or
// only loaded (its game class), is an error of check on its line.
func TestPresetMissingPackage(t *testing.T) {
	iniPath := writeVoteSysInstall(t)
	live, _ := checkFindings(t, exitFindings, "live_missing", "--ini", iniPath, "--game", "ut99")
	// The presets' game class, Botpack.DeathMatchPlus, is not installed
	// either: the server loads it when DM/Plain runs.
	if want := []string{"error Absent VoteSysPresets.ini:14 Mutators=Absent.Mut", "error Botpack VoteSysPresets.ini:4 Game=Botpack.DeathMatchPlus"}; !slices.Equal(live, want) {
		t.Errorf("live_missing findings %q, want %q", live, want)
	}
}

// TestLivemapCommand: the live map lists each preset's packages with their
// lines.
func TestLivemapCommand(t *testing.T) {
	iniPath := writeVoteSysInstall(t)
	out, errOut, code := runCLI(t, "livemap", "--ini", iniPath, "--game", "ut99")
	if code != exitOK {
		t.Fatalf("code %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{
		"votesys manages ServerPackages (VoteSys.ini:2 bManageServerPackages=True)",
		"Base                     VoteSys.ini:3 DefaultPackages=Base",
		"preset DM/Mods, VoteSysPresets.ini:6 [VS_PresetConfig1]: 2 package(s)",
		"ModA                     VoteSysPresets.ini:9 Mutators=ModA.MutModA,ModB.MutModB",
		"ModB                     VoteSysPresets.ini:9 Mutators=ModA.MutModA,ModB.MutModB",
		"Absent                   VoteSysPresets.ini:14 Mutators=Absent.Mut",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestCheckPreset: check --preset takes the preset's ServerPackages as the
// client roots: ModB, sent only by preset DM/Mods, imports a ServerSideOnly
// package, a server_side_only error with the preset alone; an unknown
// preset is a usage error.
func TestCheckPreset(t *testing.T) {
	iniPath := writeVoteSysInstall(t)
	sys := filepath.Dir(iniPath)
	secret := format.NewBuilder(69, 0)
	secret.File.Flags = format.FlagServerSideOnly
	secret.Export(0, "Hidden", 0, 0, 10)
	modB := format.NewBuilder(69, 0)
	modB.File.Flags = format.FlagAllowDownload
	modB.Export(0, "MutModB", 0, modB.ImportPath("Secret.Hidden", "Core", "Class"), 10)
	for name, b := range map[string]*format.Builder{"Secret.u": secret, "ModB.u": modB} {
		if err := format.WriteFile(filepath.Join(sys, name), b.File); err != nil {
			t.Fatal(err)
		}
	}
	sso := func(args ...string) bool {
		t.Helper()
		out, errOut, code := runCLI(t, append([]string{"check", "--ini", iniPath, "--game", "ut99", "--json"}, args...)...)
		if code != exitFindings {
			t.Fatalf("check %q: code %d, %s", args, code, errOut)
		}
		return strings.Contains(out, `"server_side_only"`)
	}
	if sso() {
		t.Errorf("server_side_only without --preset: ModB is not sent")
	}
	if !sso("--preset", "DM/Mods") {
		t.Errorf("no server_side_only with --preset DM/Mods")
	}
	_, errOut, code := runCLI(t, "check", "--ini", iniPath, "--game", "ut99", "--preset", "Nope")
	if code != exitError || !strings.Contains(errOut, `no such preset "Nope"`) {
		t.Errorf("unknown preset: code %d, %s", code, errOut)
	}
}

// writeMutatorInstall writes a small UT2004 server: Base.MutA sets
// bAddToServerPackages=True in its defaults; Kid.MutB extends it, setting
// nothing; Loose.MutL and Orphan.MutO (whose parent Gone.MutX is nowhere)
// set nothing. It returns the ini, whose [Engine.GameEngine] lines are
// engineLines and which ends with a [Loose.MutL] section setting the
// switch, on line 7 plus the number of engineLines.
func writeMutatorInstall(t *testing.T, engineLines string) string {
	t.Helper()
	root := t.TempDir()
	sys := filepath.Join(root, "System")
	if err := os.MkdirAll(sys, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name string, build func(b *format.Builder) map[int][]byte) {
		t.Helper()
		b := format.NewBuilder(128, 29)
		b.File.Flags = format.FlagAllowDownload
		img, err := format.MarshalSerial(b.File, build(b))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(sys, name), img, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("Engine.u", func(b *format.Builder) map[int][]byte { b.Export(0, "Mutator", 0, 0, 10); return nil })
	write("Base.u", func(b *format.Builder) map[int][]byte {
		data := b.ClassDefaults([]byte{0, 1}, "bAddToServerPackages")
		b.Export(0, "MutA", 0, b.ImportPath("Engine.Mutator", "Core", "Class"), int32(len(data)))
		return map[int][]byte{0: data}
	})
	write("Kid.u", func(b *format.Builder) map[int][]byte {
		b.Export(0, "MutB", 0, b.ImportPath("Base.MutA", "Core", "Class"), 10)
		return nil
	})
	write("Loose.u", func(b *format.Builder) map[int][]byte {
		b.Export(0, "MutL", 0, b.ImportPath("Engine.Mutator", "Core", "Class"), 10)
		return nil
	})
	write("Orphan.u", func(b *format.Builder) map[int][]byte {
		b.Export(0, "MutO", 0, b.ImportPath("Gone.MutX", "Core", "Class"), 10)
		return nil
	})
	iniPath := filepath.Join(sys, "Server.ini")
	text := "[Core.System]\nPaths=../System/*.u\n\n[Engine.GameEngine]\n" + engineLines + "\n[Loose.MutL]\nbAddToServerPackages=True\n"
	if err := os.WriteFile(iniPath, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return iniPath
}

// TestMutatorSwitch: on a UT2004 server a ServerActors class that inherits
// bAddToServerPackages=True from its parent's defaults (another package)
// is sent (downloads' server_packages, livemap), and a class section's
// bAddToServerPackages=True line, which the engine never reads, sends
// nothing and is check's ini_section warning. A class whose parent's
// package is missing is a note of check's: what it sends went unchecked.
func TestMutatorSwitch(t *testing.T) {
	iniPath := writeMutatorInstall(t, "ServerPackages=Base\nServerActors=Kid.MutB\nServerActors=Orphan.MutO\n")
	sys := filepath.Dir(iniPath)
	if sent, want := sentPackages(t, "--ini", iniPath, "--game", "ut2004"), []string{"Base", "Kid"}; !slices.Equal(sent, want) {
		t.Errorf("server packages %q, want %q", sent, want)
	}
	out, errOut, code := runCLI(t, "livemap", "--ini", iniPath, "--game", "ut2004")
	if code != exitOK {
		t.Fatalf("livemap: code %d, %s", code, errOut)
	}
	for _, want := range []string{
		"Base.u Kid.MutB inherits bAddToServerPackages=True from Base.MutA's defaultproperties",
		"Server.ini:10 [Loose.MutL] bAddToServerPackages=True is not counted",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("livemap lacks %q:\n%s", want, out)
		}
	}
	got, errOut := checkFindings(t, exitFindings, "ini_section", "--ini", iniPath, "--game", "ut2004")
	if want := []string{"warning Loose Server.ini:10 [Loose.MutL] bAddToServerPackages=True"}; !slices.Equal(got, want) {
		t.Errorf("ini_section findings %q, want %q", got, want)
	}
	wantNote := "note: the live package map: " + filepath.Join(sys, "Orphan.u") + ": whether Orphan.MutO adds its package went unchecked: the package of parent class Gone.MutX is not found"
	if !strings.Contains(errOut, wantNote) || strings.Contains(errOut, "is not counted") {
		t.Errorf("check's stderr lacks the note, or repeats the ini_section warning as one:\n%s", errOut)
	}
}

// TestMutatorsFlag: --mutators names the command line's mutators: each is
// a root like a ServerActors line (a missing package or class is a
// finding whose root is the command line), and one whose parent's
// defaults set bAddToServerPackages is sent; a value that is not
// Pkg.Class is a usage error, and the config key mutators does the same
// as the flag.
func TestMutatorsFlag(t *testing.T) {
	iniPath := writeMutatorInstall(t, "ServerPackages=Base\n")
	sent := func(args ...string) []string {
		t.Helper()
		return sentPackages(t, append([]string{"--ini", iniPath, "--game", "ut2004"}, args...)...)
	}
	if got := sent(); !slices.Equal(got, []string{"Base"}) {
		t.Errorf("without --mutators: %q", got)
	}
	if got, want := sent("--mutators", "Kid.MutB"), []string{"Base", "Kid"}; !slices.Equal(got, want) {
		t.Errorf("--mutators Kid.MutB: %q, want %q", got, want)
	}
	args := []string{"--ini", iniPath, "--game", "ut2004", "--mutators", "Kid.MutB,Missing.MutX", "--mutators", "Base.NoSuch"}
	var got []string
	for _, kind := range []string{"missing_object", "missing_package"} {
		fs, _ := checkFindings(t, exitFindings, kind, args...)
		for _, f := range fs {
			if strings.Contains(f, "command line") {
				got = append(got, kind+" "+f)
			}
		}
	}
	want := []string{"missing_object error Base command line ?Mutator=Base.NoSuch", "missing_package error Missing command line ?Mutator=Missing.MutX"}
	if !slices.Equal(got, want) {
		t.Errorf("command-line findings %q, want %q", got, want)
	}
	_, errOut, code := runCLI(t, "check", "--ini", iniPath, "--game", "ut2004", "--mutators", "NoDot")
	if code != exitError || !strings.Contains(errOut, "--mutators") || !strings.Contains(errOut, `"NoDot" is not a mutator class Pkg.Class`) {
		t.Errorf("--mutators NoDot: code %d, %s", code, errOut)
	}
	cfg := filepath.Join(t.TempDir(), "upkdeps.yaml")
	if err := os.WriteFile(cfg, []byte("mutators: [Kid.MutB]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, want := sent("--config", cfg), []string{"Base", "Kid"}; !slices.Equal(got, want) {
		t.Errorf("config key mutators: %q, want %q", got, want)
	}
}

// TestMVESUnsentCheck: an MVES server whose switch is off and whose
// ServerPackages lack MVES's client package is check's live_unsent error
// on the ClientPackage line, and livemap lists the package as needed but
// not sent.
func TestMVESUnsentCheck(t *testing.T) {
	iniPath := writeVoteSysInstall(t)
	sys := filepath.Dir(iniPath)
	for _, n := range []string{"VoteSys.ini", "VoteSysPresets.ini"} {
		if err := os.Remove(filepath.Join(sys, n)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(sys, "MVE_Config.ini"), []byte("[MVES.MapVote]\nClientPackage=MVE2h\nbOverrideServerPackages=False\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, _ := checkFindings(t, exitFindings, "live_unsent", "--ini", iniPath, "--game", "ut99")
	if want := []string{"error MVE2h MVE_Config.ini:2 ClientPackage=MVE2h"}; !slices.Equal(got, want) {
		t.Errorf("live_unsent findings %q, want %q", got, want)
	}
	out, errOut, code := runCLI(t, "livemap", "--ini", iniPath, "--game", "ut99")
	if code != exitOK || !strings.Contains(out, "needed by the mapvote but not sent (1):\n  MVE2h") {
		t.Errorf("livemap: code %d\n%s%s", code, out, errOut)
	}
}

// TestURLFlag: --url takes the server's launch URL apart: its map and
// game class are roots (a missing one is a finding with the command line
// as root), its mutators count like --mutators'; a URL with spaces and a
// mutator list that names no class are usage errors naming --url.
func TestURLFlag(t *testing.T) {
	iniPath := writeMutatorInstall(t, "ServerPackages=Base\n")
	args := []string{"--ini", iniPath, "--game", "ut2004", "--url", "DM-Gone.ut2?Game=NoGame.Deathmatch?Mutator=Kid.MutB?Mutator=Other.Ignored"}
	if got, want := sentPackages(t, args...), []string{"Base", "Kid"}; !slices.Equal(got, want) {
		t.Errorf("sent %q, want %q", got, want)
	}
	missing, _ := checkFindings(t, exitFindings, "missing_package", args...)
	var got []string
	for _, f := range missing {
		if strings.Contains(f, "command line") {
			got = append(got, f)
		}
	}
	slices.Sort(got)
	want := []string{"error DM-Gone command line map=DM-Gone.ut2", "error NoGame command line ?Game=NoGame.Deathmatch"}
	if !slices.Equal(got, want) {
		t.Errorf("missing_package from the command line %q, want %q", got, want)
	}
	for _, url := range []string{"ucc server DM-Gone", "DM-Gone?Mutator=,Kid.MutB"} {
		_, errOut, code := runCLI(t, "check", "--ini", iniPath, "--game", "ut2004", "--url", url)
		if code != exitError || !strings.Contains(errOut, "--url: ") {
			t.Errorf("--url %q: code %d, %s", url, code, errOut)
		}
	}
}

// unusedNames runs unused --json with args and returns the names it
// lists; want is its exit code.
func unusedNames(t *testing.T, want int, args ...string) []string {
	t.Helper()
	out, errOut, code := runCLI(t, append([]string{"unused", "--json"}, args...)...)
	if code != want {
		t.Fatalf("unused %q: code %d, %s", args, code, errOut)
	}
	var rep struct {
		Unused []struct {
			Name string `json:"name"`
		} `json:"unused"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, u := range rep.Unused {
		names = append(names, u.Name)
	}
	return names
}

// TestUnusedPresets: what only a mapvote preset runs (VoteSys's DM/Mods
// runs ModA and ModB) is not unused: deleting it would break the preset.
func TestUnusedPresets(t *testing.T) {
	iniPath := writeVoteSysInstall(t)
	if got := unusedNames(t, exitFindings, "--ini", iniPath, "--game", "ut99"); slices.Contains(got, "ModA") || slices.Contains(got, "ModB") {
		t.Errorf("unused lists a preset's package: %q", got)
	}
}

// TestUnusedMutators: a mutator the command line alone runs is unused to
// `unused` until --mutators (or --url) names it.
func TestUnusedMutators(t *testing.T) {
	iniPath := writeMutatorInstall(t, "ServerPackages=Base\n")
	unused := func(args ...string) []string {
		t.Helper()
		return unusedNames(t, exitFindings, append([]string{"--ini", iniPath, "--game", "ut2004"}, args...)...)
	}
	if got := unused(); !slices.Contains(got, "Kid") {
		t.Errorf("without --mutators Kid should be unused: %q", got)
	}
	for _, args := range [][]string{{"--mutators", "Kid.MutB"}, {"--url", "DM-X?Mutator=Kid.MutB"}} {
		if got := unused(args...); slices.Contains(got, "Kid") {
			t.Errorf("%q: Kid listed as unused: %q", args, got)
		}
	}
}
