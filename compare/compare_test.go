package compare

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/install"
)

// pkgSpec is a package of the generated installs.
type pkgSpec struct {
	rel  string
	guid format.GUID
	gens int
	flag format.PackageFlags
}

// writeInstall writes a UT2004-style install (version 128) with pkgs and
// an ini whose ServerPackages are ModA, ModB and ModC.
func writeInstall(t *testing.T, pkgs []pkgSpec) string {
	t.Helper()
	root := t.TempDir()
	for _, d := range []string{"System", "Maps"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range pkgs {
		b := format.NewBuilder(128, 29)
		b.File.Flags = p.flag
		b.File.GUID = p.guid
		for i := 0; i < p.gens; i++ {
			b.File.Generations = append(b.File.Generations, format.Generation{ExportCount: 1, NameCount: 2})
		}
		if strings.HasSuffix(p.rel, ".ut2") {
			b.Export(0, "MyLevel", b.ImportPath("Engine.Level", "Core", "Class"), 0, 10)
		} else {
			b.Export(0, "Level", 0, 0, 10)
		}
		if err := format.WriteFile(filepath.Join(root, p.rel), b.File); err != nil {
			t.Fatal(err)
		}
	}
	text := "[Engine.Engine]\nGameEngine=Engine.GameEngine\n\n[Core.System]\nPaths=../System/*.u\nPaths=../Maps/*.ut2\nCachePath=../Cache\nCacheExt=.uxx\n\n" +
		"[Engine.GameEngine]\nServerPackages=ModA\nServerPackages=ModB\nServerPackages=ModC\n"
	path := filepath.Join(root, "System", "UT2004.ini")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func open(t *testing.T, iniPath string) *install.Install {
	t.Helper()
	in, err := install.Open(install.Options{Ini: iniPath, Game: "ut2004"})
	if err != nil {
		t.Fatal(err)
	}
	return in
}

func server() []pkgSpec {
	dl := format.FlagAllowDownload
	return []pkgSpec{
		{"System/Engine.u", format.GUID{1, 1, 1, 1}, 3, dl},
		{"System/ModA.u", format.GUID{2, 2, 2, 2}, 1, dl},
		{"System/ModB.u", format.GUID{3, 3, 3, 3}, 2, dl},
		{"System/ModC.u", format.GUID{4, 4, 4, 4}, 1, dl},
		{"Maps/DM-Test.ut2", format.GUID{5, 5, 5, 5}, 1, dl},
	}
}

func run(t *testing.T, client []pkgSpec) *Report {
	t.Helper()
	srv := open(t, writeInstall(t, server()))
	g, err := srv.Graph(context.Background(), install.GraphOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Compare(context.Background(), srv, g, open(t, writeInstall(t, client)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestCompare: a client differing in one package's GUID (ModA), one
// generation (ModB: the same GUID, 1 generation of the server's 2) and one
// missing file (ModC): three findings, each with the player's error and
// the fix.
func TestCompare(t *testing.T) {
	client := server()
	client[1].guid = format.GUID{9, 9, 9, 9}
	client[2].gens = 1
	client = append(client[:3], client[4:]...)
	rep := run(t, client)
	if rep.Packages != 5 {
		t.Errorf("compared %d packages, want 5", rep.Packages)
	}
	want := []struct{ kind, pkg, player, fix string }{
		{GenerationBehind, "ModB", "1 of the server's 2", "replace the client's System/ModB.u"},
		{VersionMismatch, "ModA", "Failed to load ModA: Package ModA version mismatch", "delete or replace the client's System/ModA.u"},
		{MissingDownload, "ModC", "downloads ModC.u", "install the server's System/ModC.u"},
	}
	if len(rep.Findings) != len(want) {
		t.Fatalf("have %d findings, want %d: %+v", len(rep.Findings), len(want), rep.Findings)
	}
	for i, w := range want {
		f := rep.Findings[i]
		if f.Kind != w.kind || f.Package != w.pkg || !strings.Contains(f.PlayerError, w.player) || !strings.Contains(f.Fix, w.fix) {
			t.Errorf("finding %d = %+v, want %s %s %q %q", i, f, w.kind, w.pkg, w.player, w.fix)
		}
	}
	if rep.Errors != 2 || rep.Warnings != 1 {
		t.Errorf("errors %d warnings %d, want 2 and 1", rep.Errors, rep.Warnings)
	}
}

// TestCompareIdentical: identical installs, no finding.
func TestCompareIdentical(t *testing.T) {
	if rep := run(t, server()); len(rep.Findings) != 0 || rep.Packages != 5 {
		t.Errorf("%d packages, findings %+v", rep.Packages, rep.Findings)
	}
}

// TestCompareNoDownload: a package without AllowDownload the client lacks
// stops it joining.
func TestCompareNoDownload(t *testing.T) {
	client := server()
	client = append(client[:3], client[4:]...)
	srvSpecs := server()
	srvSpecs[3].flag = 0
	srv := open(t, writeInstall(t, srvSpecs))
	g, err := srv.Graph(context.Background(), install.GraphOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Compare(context.Background(), srv, g, open(t, writeInstall(t, client)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings) != 1 || rep.Findings[0].Kind != MissingNoDownload || !strings.Contains(rep.Findings[0].PlayerError, "Can't find file for package ModC") {
		t.Errorf("findings %+v", rep.Findings)
	}
}
