package check

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/install"
	"github.com/upkdeps/upkdeps/internal/demo"
)

// stockInstall writes a UT99 install (UnrealTournament.ini, the demo's
// Core.u and Engine.u) whose ServerPackages name the given packages, none
// of which is there, and checks it.
func stockInstall(t *testing.T, serverPackages ...string) *Report {
	t.Helper()
	src := t.TempDir()
	if err := demo.Write(src); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "System"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Core.u", "Engine.u"} {
		data, err := os.ReadFile(filepath.Join(src, "System", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "System", name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	text := "[Core.System]\r\nPaths=../System/*.u\r\nPaths=../Textures/*.utx\r\n[Engine.GameEngine]\r\n"
	for _, p := range serverPackages {
		text += "ServerPackages=" + p + "\r\n"
	}
	ini := filepath.Join(dir, "System", "UnrealTournament.ini")
	if err := os.WriteFile(ini, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := install.Open(install.Options{Ini: ini})
	if err != nil {
		t.Fatal(err)
	}
	rep, _, err := Run(context.Background(), in, Options{Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestStockMissing: several of the game's own packages missing are one
// stock_missing finding, which counts them by folder and the others
// apart, and leads "Fix first" when their errors are most of the errors;
// one missing is no such finding.
func TestStockMissing(t *testing.T) {
	rep := stockInstall(t, "Botpack", "UnrealShare", "UnrealI", "LadderFonts", "MyMod")
	var stock []graph.Finding
	for _, f := range rep.Findings {
		if f.Kind == graph.StockMissing {
			stock = append(stock, f)
		}
	}
	if len(stock) != 1 {
		t.Fatalf("stock_missing: %d findings, want 1: %+v", len(stock), rep.Findings)
	}
	f := stock[0]
	if have, want := f.Packages, []string{"Botpack", "LadderFonts", "UnrealI", "UnrealShare"}; f.Severity != graph.Error || !slices.Equal(have, want) {
		t.Errorf("stock_missing: %s, packages %q, want error, %q", f.Severity, have, want)
	}
	want := "the base install is incomplete: 4 of Unreal Tournament (UT99)'s own packages that this install needs are missing " +
		"(System 3, Textures 1): install or repair the game's own files first; 1 other missing package(s) are not the game's"
	if f.Message != want {
		t.Errorf("message:\nhave %q\nwant %q", f.Message, want)
	}
	if n := rep.Summary.ErrorsByKind[graph.MissingPackage]; n != 5 {
		t.Errorf("missing_package errors: %d, want 5 (each keeps its own)", n)
	}
	if ff := rep.Summary.FixFirst; len(ff) == 0 || ff[0].Kind != graph.StockMissing || !strings.HasPrefix(ff[0].Why, "4 of 5 errors") {
		t.Errorf("fix first: %+v, want stock_missing first", ff)
	}

	// Its errors are not most of the errors: it is listed, not first.
	rep = stockInstall(t, "Botpack", "UnrealShare", "ModA", "ModB", "ModC")
	if ff := rep.Summary.FixFirst; len(ff) == 0 || ff[0].Kind == graph.StockMissing {
		t.Errorf("fix first: %+v, want a ServerPackages error first", ff)
	}
	if rep.Summary.ByKind[graph.StockMissing] != 1 {
		t.Errorf("stock_missing: %d, want 1", rep.Summary.ByKind[graph.StockMissing])
	}
	// One retail package missing is no incomplete install.
	rep = stockInstall(t, "Botpack", "ModA")
	if n := rep.Summary.ByKind[graph.StockMissing]; n != 0 {
		t.Errorf("one retail package missing: %d stock_missing, want 0", n)
	}
}

// TestStockMissingFolderCase: the stock lists spell a folder in either
// case (UT99's Textures and textures); the count is per folder.
func TestStockMissingFolderCase(t *testing.T) {
	// UT99's list has Textures/LadderFonts.utx and lower-case textures/ files.
	stock := ini.OwnStockOf(ini.UT99)
	var lower string
	for _, p := range stock.Files() {
		if strings.HasPrefix(p, "textures/") {
			lower = strings.TrimSuffix(strings.TrimPrefix(p, "textures/"), filepath.Ext(p))
			break
		}
	}
	if lower == "" {
		t.Skip("the UT99 list spells no folder in lower case")
	}
	fs := []graph.Finding{{Kind: graph.MissingPackage, Package: "LadderFonts"}, {Kind: graph.MissingPackage, Package: lower}}
	f, ok := StockMissing(fs, stock, ini.UT99)
	if !ok || !strings.Contains(f.Message, "(Textures 2)") {
		t.Errorf("have %v %q, want one folder Textures 2", ok, f.Message)
	}
}
