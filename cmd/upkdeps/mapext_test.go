package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/format"
)

// TestMapExtFromIni: a game whose ini says [URL] MapExt=xyz has its .xyz
// files as maps in graph, downloads, redirect build --dry-run and redirect
// verify (before, none of them saw a map: verify checked 0 files).
func TestMapExtFromIni(t *testing.T) {
	game := t.TempDir()
	ini := filepath.Join(game, "System", "Game.ini")
	writeFixFile(t, ini, []byte("[URL]\r\nMapExt=xyz\r\n[Core.System]\r\nPaths=../System/*.u\r\nPaths=../Maps/*.xyz\r\n"+
		"[IpDrv.HTTPDownload]\r\nRedirectToURL=http://redirect.invalid/\r\nUseCompression=True\r\n"))
	pkg := func(seed uint32, imports ...string) []byte {
		b := format.NewBuilder(69, 0)
		b.File.GUID = format.GUID{0xA0 + seed, seed, 1, 2}
		b.File.Flags = format.FlagAllowDownload
		for _, im := range imports {
			b.ImportSpec(im + ".Thing:Core.Class")
		}
		b.ExportSpec("Thing:Class", 64)
		data, err := format.Marshal(b.File)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	writeFixFile(t, filepath.Join(game, "System", "ModA.u"), pkg(10))
	writeFixFile(t, filepath.Join(game, "Maps", "DM-Odd.xyz"), pkg(30, "ModA"))

	out, errOut, code := runCLI(t, "graph", "--ini", ini, "--no-progress")
	if code != exitOK || !strings.Contains(out, `label="DM-Odd",shape="house"`) {
		t.Errorf("graph: code %d, DM-Odd is no map (house):\n%s%s", code, out, errOut)
	}
	out, errOut, code = runCLI(t, "downloads", "--ini", ini, "--no-progress")
	if code != exitOK || !strings.Contains(out, "DM-Odd") || !strings.Contains(out, "Maps/DM-Odd.xyz") {
		t.Errorf("downloads: code %d\n%s%s", code, out, errOut)
	}
	red := filepath.Join(t.TempDir(), "redirect")
	out, errOut, code = runCLI(t, "redirect", "build", "--ini", ini, "-o", red, "--dry-run", "--no-progress")
	if code != exitOK || !strings.Contains(out, "create  DM-Odd.xyz.uz") {
		t.Errorf("redirect build --dry-run: code %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(red); err == nil {
		t.Error("redirect build --dry-run wrote the folder")
	}
	out, errOut, code = runCLI(t, "redirect", "build", "--ini", ini, "-o", red, "--allow-bigger", "--no-progress")
	if code != exitOK {
		t.Fatalf("redirect build: code %d\n%s%s", code, out, errOut)
	}
	out, errOut, code = runCLI(t, "redirect", "verify", "--ini", ini, "-o", red, "--no-progress")
	if code != exitOK || !strings.Contains(out, "2 package(s) to publish, 2 file(s) checked") {
		t.Errorf("redirect verify: code %d\n%s%s", code, out, errOut)
	}
}
