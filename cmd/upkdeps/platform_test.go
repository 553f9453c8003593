package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/format"
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
	if code != exitOK {
		t.Errorf("check: code %d, want %d (stderr %q)", code, exitOK, errOut)
	}
	var rep struct {
		Game            string `json:"game"`
		PackagesScanned int    `json:"packages_scanned"`
		Findings        []struct{ Kind, Package string }
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if rep.PackagesScanned != 5 || !strings.HasPrefix(rep.Game, "swrc, UE2") || len(rep.Findings) != 0 {
		t.Errorf("game %q, %d packages scanned, findings %+v; want swrc, 5, none", rep.Game, rep.PackagesScanned, rep.Findings)
	}

	// Another engine reads "Paths+" as a key of its own: nothing to scan,
	// and the warning says why.
	_, errOut, code = runCLI(t, "check", "--ini", "System/System.ini", "--game", "ut2004")
	if code != exitError || !strings.Contains(errOut, `System/System.ini:3: [Core.System] Paths+=../System/*.u and 6 more Key+= line(s)`) ||
		!strings.Contains(errOut, "give --game swrc") {
		t.Errorf("check --game ut2004: code %d, stderr %q", code, errOut)
	}
}
