package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/internal/testutil"
)

// pkgSpec is a package to generate: its file (relative to the install),
// exports and imports in format.Builder's spec form.
type pkgSpec struct {
	file             string
	exports, imports []string
}

// writePackages generates pkgs under dir with version ver/lic.
func writePackages(t *testing.T, dir string, ver, lic uint16, pkgs []pkgSpec) {
	t.Helper()
	for i, p := range pkgs {
		b := format.NewBuilder(ver, lic)
		b.File.GUID = format.GUID{uint32(i + 1), 2, 3, 4}
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
}

func writeText(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// swrcSystemIni is a System.ini in SWRC's form: lists appended with "+=".
const swrcSystemIni = `[Core.System]
CachePath=../Cache
Paths+=../System/*.u
Paths+=../Maps/*.ctm
Paths+=../Textures/*.utx

[Editor.EditorEngine]
EditPackages+=Core
EditPackages+=Engine
EditPackages+=CTGame

[Engine.GameEngine]
ServerPackages+=CTGame
ServerActors+=CTGame.Droid
`

// writeSWRCInstall writes a small SWRC install (packages 159/1) whose ini
// appends to its lists with "+=".
func writeSWRCInstall(t *testing.T, dir string) {
	t.Helper()
	writePackages(t, dir, 159, 1, []pkgSpec{
		{"System/Core.u", []string{"Object:Class"}, []string{"Core.Class:Core.Class", "Core.Package:Core.Class"}},
		{"System/Engine.u", []string{"Actor:Class", "Texture:Class"}, []string{"Core.Object:Core.Class"}},
		{"System/CTGame.u", []string{"Clone:Class"}, []string{"Engine.Actor:Core.Class", "Walls.Brick:Engine.Texture"}},
		{"Textures/Walls.utx", []string{"Brick:Engine.Texture"}, nil},
		{"Maps/Geo1.ctm", []string{"MyLevel:Engine.Level"}, []string{"CTGame.Clone:Core.Class", "Walls.Brick:Engine.Texture"}},
	})
	writeText(t, filepath.Join(dir, "System", "System.ini"), swrcSystemIni)
}

// TestCheckSWRCAppends: SWRC's System.ini appends its Paths and
// EditPackages with "+="; check reads them as the engine does, guessing the
// game from the ini's name, and scans every package.
func TestCheckSWRCAppends(t *testing.T) {
	dir := t.TempDir()
	writeSWRCInstall(t, dir)
	t.Chdir(dir)
	out, errOut, code := runCLI(t, "check", "--ini", "System/System.ini", "--json")
	if code != exitFindings {
		t.Errorf("check: code %d, want %d (stderr %q)", code, exitFindings, errOut)
	}
	var rep struct {
		Game            string `json:"game"`
		PackagesScanned int    `json:"packages_scanned"`
		Findings        []struct {
			Kind, Package string
			Roots         []string
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	// The one finding is the class ServerActors+= names: the appended
	// lines are roots, with the line as written as evidence.
	if rep.PackagesScanned != 5 || !strings.HasPrefix(rep.Game, "swrc, UE2") || len(rep.Findings) != 1 ||
		rep.Findings[0].Kind != "missing_object" || rep.Findings[0].Package != "CTGame" ||
		len(rep.Findings[0].Roots) != 1 || rep.Findings[0].Roots[0] != "System.ini:14 ServerActors+=CTGame.Droid" {
		t.Errorf("game %q, %d packages scanned, findings %+v; want swrc, 5, CTGame.Droid missing", rep.Game, rep.PackagesScanned, rep.Findings)
	}

	// Another engine reads "Paths+" as a key of its own: nothing to scan,
	// and the warning says why.
	_, errOut, code = runCLI(t, "check", "--ini", "System/System.ini", "--game", "ut2004")
	if code != exitError || !strings.Contains(errOut, `System/System.ini:3: [Core.System] Paths+=../System/*.u and 7 more Key+= line(s)`) ||
		!strings.Contains(errOut, "give --game swrc") {
		t.Errorf("check --game ut2004: code %d, stderr %q", code, errOut)
	}
}

// devIni is a Raven Shield SDK's kind of ini: its Paths name ..\Dev, the
// folder on disk is dev, and its textures end in .Utx.
const devIni = `[Core.System]
Paths=..\Dev\*.u
Paths=..\Textures\*.utx
Paths=..\Maps\*.unr
`

// writeDevInstall writes an install whose ini spells a folder and an
// extension in another case than the disk, with binary in System.
func writeDevInstall(t *testing.T, dir, binary string) {
	t.Helper()
	writePackages(t, dir, 69, 0, []pkgSpec{
		{"dev/Core.u", []string{"Object:Class"}, []string{"Core.Class:Core.Class", "Core.Package:Core.Class"}},
		{"dev/Engine.u", []string{"Actor:Class", "Texture:Class"}, []string{"Core.Object:Core.Class"}},
		{"Textures/Walls.Utx", []string{"Brick:Engine.Texture"}, nil},
		{"Maps/Level1.unr", []string{"MyLevel:Engine.Level"}, []string{"Engine.Actor:Core.Class", "Walls.Brick:Engine.Texture"}},
	})
	writeText(t, filepath.Join(dir, "System", "Game.ini"), devIni)
	writeText(t, filepath.Join(dir, "System", binary), "")
}

type platformReport struct {
	Platform        string `json:"platform"`
	PlatformReason  string `json:"platform_reason"`
	PackagesScanned int    `json:"packages_scanned"`
	CaseNotes       []struct {
		Setting, Kind, Want, Have, Message string
	} `json:"case_notes"`
	Findings []struct{ Kind, Package string }
}

func checkPlatform(t *testing.T, args ...string) (platformReport, string, int) {
	t.Helper()
	out, errOut, code := runCLI(t, append([]string{"check", "--ini", "System/Game.ini", "--json"}, args...)...)
	var rep platformReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s\n%s", err, out, errOut)
	}
	return rep, errOut, code
}

// TestCheckPlatformRules: a Windows install (a .dll) whose Paths folder and
// extension differ in case from the disk is scanned fully, with one note
// each; the same install with .so binaries reports what a Linux server
// misses; --platform and the config key platform override both.
func TestCheckPlatformRules(t *testing.T) {
	for _, tt := range []struct {
		name, binary string
		args         []string
		config       string
		want         string
	}{
		{"dll", "Core.dll", nil, "", "windows"},
		{"so", "Core.so", nil, "", "linux"},
		{"dll, --platform linux", "Core.dll", []string{"--platform", "linux"}, "", "linux"},
		{"so, --platform windows", "Core.so", []string{"--platform", "windows"}, "", "windows"},
		{"so, config platform windows", "Core.so", nil, "platform: windows\n", "windows"},
		{"both", "ucc-bin", nil, "", "linux"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeDevInstall(t, dir, tt.binary)
			if tt.name == "both" {
				writeText(t, filepath.Join(dir, "System", "Core.dll"), "")
			}
			t.Chdir(dir)
			if tt.config != "" {
				writeText(t, filepath.Join(dir, "upkdeps.yaml"), tt.config)
			}
			rep, errOut, code := checkPlatform(t, tt.args...)
			if rep.Platform != tt.want {
				t.Fatalf("platform %q (%s), want %s", rep.Platform, rep.PlatformReason, tt.want)
			}
			if len(rep.CaseNotes) != 2 || rep.CaseNotes[0].Kind != "folder" || rep.CaseNotes[0].Have != "dev" ||
				rep.CaseNotes[1].Kind != "extension" || rep.CaseNotes[1].Have != ".Utx" {
				t.Errorf("case notes %+v", rep.CaseNotes)
			}
			if strings.Contains(errOut, "the folder is dev") {
				t.Errorf("check repeats its case notes on stderr: %q", errOut)
			}
			if (tt.name == "both") != strings.Contains(errOut, "both Windows (Core.dll) and Linux (ucc-bin) binaries") {
				t.Errorf("stderr %q", errOut)
			}
			missing := map[string]bool{}
			for _, f := range rep.Findings {
				if f.Kind == "missing_package" {
					missing[f.Package] = true
				}
			}
			if tt.want == "windows" {
				if code != exitOK || rep.PackagesScanned != 4 || len(missing) != 0 {
					t.Errorf("code %d, %d scanned, missing %v; want 0, 4, none", code, rep.PackagesScanned, missing)
				}
				if !strings.Contains(rep.CaseNotes[0].Message, `a Linux server would not (write Paths[0]=..\dev\*.u`) {
					t.Errorf("note %q", rep.CaseNotes[0].Message)
				}
				return
			}
			// A Linux server: no Dev folder, so Core and Engine are missing;
			// Walls.Utx is found late, by the engine's case-insensitive pass.
			if code != exitFindings || rep.PackagesScanned != 2 || !missing["Engine"] {
				t.Errorf("code %d, %d scanned, missing %v; want 1, 2, Engine", code, rep.PackagesScanned, missing)
			}
			if !strings.Contains(rep.CaseNotes[0].Message, `no folder Dev on a case-sensitive file system: the folder is dev (write Paths[0]=..\dev\*.u`) {
				t.Errorf("note %q", rep.CaseNotes[0].Message)
			}
		})
	}
	// Other commands say the notes on stderr; text check prints them.
	dir := t.TempDir()
	writeDevInstall(t, dir, "Core.dll")
	t.Chdir(dir)
	out, errOut, _ := runCLI(t, "resolve", "--ini", "System/Game.ini", "Walls")
	if !strings.Contains(out, "UE1; Windows rules)") || !strings.Contains(errOut, "warning: System/Game.ini: Paths[0]=..\\Dev\\*.u: the folder is dev") {
		t.Errorf("resolve: stdout %q stderr %q", out, errOut)
	}
	out, _, _ = runCLI(t, "check", "--ini", "System/Game.ini")
	if !strings.Contains(out, "\ncase: Paths[1]=..\\Textures\\*.utx: 1 file(s) in Textures end in .Utx, not .utx (Walls.Utx)") {
		t.Errorf("check text:\n%s", out)
	}
	if _, errOut, code := runCLI(t, "check", "--ini", "System/Game.ini", "--platform", "macos"); code != exitError || !strings.Contains(errOut, "windows or linux") {
		t.Errorf("--platform macos: code %d, stderr %q", code, errOut)
	}
}

// TestCacheExtractPlatformRules: a cache file moves into the Paths folder
// the engine writes to: under Windows rules ..\Dev is the folder dev on
// disk; under Linux rules it is a folder Dev of its own.
func TestCacheExtractPlatformRules(t *testing.T) {
	for _, tt := range []struct{ platform, want, absent string }{
		{"windows", "dev/Extra.u", "Dev"},
		{"linux", "Dev/Extra.u", ""},
	} {
		t.Run(tt.platform, func(t *testing.T) {
			dir := t.TempDir()
			writeDevInstall(t, dir, "Core.dll")
			writeText(t, filepath.Join(dir, "System", "Game.ini"), devIni+"CachePath=..\\Cache\n")
			b := format.NewBuilder(69, 0)
			b.File.GUID = format.GUID{1, 2, 3, 4}
			b.ExportSpec("Gadget:Class", 16)
			guid := b.File.GUID.String()
			writeText(t, filepath.Join(dir, "Cache", "cache.ini"), "[Cache]\n"+guid+"=Extra.u\n")
			if err := format.WriteFile(filepath.Join(dir, "Cache", guid+".uxx"), b.File); err != nil {
				t.Fatal(err)
			}
			t.Chdir(dir)
			if _, errOut, code := runCLI(t, "cache", "extract", "--ini", "System/Game.ini", "--platform", tt.platform); code == exitError {
				t.Fatalf("cache extract: code %d, stderr %q", code, errOut)
			}
			if _, err := os.Stat(filepath.FromSlash(tt.want)); err != nil {
				t.Errorf("extracted file: %v", err)
			}
			// From the listing: a case-insensitive file system opens dev
			// for Dev.
			if tt.absent != "" && slices.Contains(testutil.DirNames(t, "."), tt.absent) {
				t.Errorf("%s was created beside dev", tt.absent)
			}
		})
	}
}
