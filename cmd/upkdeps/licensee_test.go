package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/upkdeps/upkdeps/format"
)

// licenseeIni is a licensee build's ini: Paths and CachePath under
// [Engine.System], and extensions of the game's own.
const licenseeIni = `[Engine.Engine]
Language=int

[Engine.System]
CachePath=../Cache
Paths=../System/*.u
Paths=../Maps/*.dnf
Paths=../Textures/*.dtx
Paths=../Sounds/*.dfx
Paths=../Music/*.dmx

[Editor.EditorEngine]
EditPackages=Core
EditPackages=Engine
EditPackages=Game
`

// writeLicenseeInstall writes a small install of a licensee build (version
// 68, licensee 2) whose packages only its own extensions reach.
func writeLicenseeInstall(t *testing.T, dir string) {
	t.Helper()
	for _, p := range []struct {
		file             string
		exports, imports []string
	}{
		{"System/Core.u", []string{"Object:Class"}, []string{"Core.Class:Core.Class", "Core.Package:Core.Class"}},
		{"System/Engine.u", []string{"Actor:Class", "Texture:Class", "Sound:Class", "Music:Class"}, []string{"Core.Object:Core.Class"}},
		{"System/Game.u", []string{"Hero:Class"}, []string{"Engine.Actor:Core.Class", "Walls.Brick:Engine.Texture"}},
		{"Textures/Walls.dtx", []string{"Brick:Engine.Texture"}, nil},
		{"Sounds/Doors.dfx", []string{"Open:Engine.Sound"}, nil},
		{"Music/Theme.dmx", []string{"Theme:Engine.Music"}, nil},
		{"Maps/Level1.dnf", []string{"MyLevel:Engine.Level"}, []string{"Game.Hero:Core.Class", "Doors.Open:Engine.Sound",
			"Walls.Brick:Engine.Texture", "Theme.Theme:Engine.Music", "Missing.Thing:Engine.Texture"}},
	} {
		b := format.NewBuilder(68, 2)
		b.File.GUID = format.GUID{uint32(len(p.file)), 2, 3, 4}
		for _, im := range p.imports {
			b.ImportSpec(im)
		}
		for _, ex := range p.exports {
			b.ExportSpec(ex, 16)
		}
		path := filepath.Join(dir, filepath.FromSlash(p.file))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := format.WriteFile(path, b.File); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "System", "Game.ini"), []byte(licenseeIni), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCheckLicenseeIni: with Paths under [Engine.System] and the game's own
// extensions, check scans the packages those Paths reach and finds the one
// missing import.
func TestCheckLicenseeIni(t *testing.T) {
	dir := t.TempDir()
	writeLicenseeInstall(t, dir)
	t.Chdir(dir)
	out, errOut, code := runCLI(t, "check", "--ini", "System/Game.ini")
	if code != exitFindings {
		t.Errorf("check: code %d, want %d (stderr %q)", code, exitFindings, errOut)
	}
	golden(t, "check-licensee.txt", out)

	out, _, _ = runCLI(t, "check", "--ini", "System/Game.ini", "--json")
	var rep struct {
		PackagesScanned int `json:"packages_scanned"`
		Findings        []struct {
			Kind, Package string
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.PackagesScanned != 7 {
		t.Errorf("packages_scanned %d, want 7", rep.PackagesScanned)
	}
	if len(rep.Findings) != 1 || rep.Findings[0].Kind != "missing_package" || rep.Findings[0].Package != "Missing" {
		t.Errorf("findings %+v, want one missing_package Missing", rep.Findings)
	}

	out, _, code = runCLI(t, "info", "Maps/Level1.dnf")
	if code != exitOK {
		t.Errorf("info: code %d", code)
	}
	golden(t, "info-licensee.txt", out)
}
