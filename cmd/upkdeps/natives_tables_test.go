package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/check"
	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/install"
)

// writeSpecInstall writes packages ("System/Core.u" with "Name:Class"
// exports and "Pkg.Name:ClassPkg.Class" imports) of one version under dir,
// and the files of extra (ini, Manifest.ini) as they are.
func writeSpecInstall(t *testing.T, dir string, version, licensee uint16, pkgs map[string][2][]string, extra map[string]string) {
	t.Helper()
	n := uint32(0)
	for file, spec := range pkgs {
		n++
		b := format.NewBuilder(version, licensee)
		b.File.GUID = format.GUID{n, 7, 7, 7}
		for _, im := range spec[1] {
			b.ImportSpec(im)
		}
		for _, ex := range spec[0] {
			b.ExportSpec(ex, 16)
		}
		path := filepath.Join(dir, filepath.FromSlash(file))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := format.WriteFile(path, b.File); err != nil {
			t.Fatal(err)
		}
	}
	for file, text := range extra {
		put(t, filepath.Join(dir, filepath.FromSlash(file)), []byte(text))
	}
}

// TestUE2NativeTables: on a UT2004 install without binaries, the ini's
// NetworkDevice=IpDrv.TcpNetDriver names a class only IpDrv's module
// registers (IpDrv.u does not export it): no finding, where the built-in
// UE2 table used to cover only Core and Engine (missing_object).
func TestUE2NativeTables(t *testing.T) {
	dir := t.TempDir()
	writeSpecInstall(t, dir, 128, 29, map[string][2][]string{
		"System/Core.u":   {{"Object:Class"}, {"Core.Class:Core.Class"}},
		"System/Engine.u": {{"Actor:Class", "Info:Class"}, {"Core.Object:Core.Class"}},
		"System/IpDrv.u":  {{"TcpLink:Class"}, {"Engine.Info:Core.Class", "IpDrv.TcpipConnection:Core.Class"}},
	}, map[string]string{"System/UT2004.ini": "[Core.System]\nPaths=../System/*.u\n[Engine.Engine]\nNetworkDevice=IpDrv.TcpNetDriver\n" +
		"[Engine.GameEngine]\nServerPackages=IpDrv\n"})
	rep, code := checkJSON(t, "--ini", filepath.Join(dir, "System", "UT2004.ini"), "--game", "ut2004")
	for _, f := range rep.Findings {
		if strings.EqualFold(f.Package, "IpDrv") {
			t.Errorf("finding against IpDrv: %s %s: %s %v", f.Severity, f.Kind, f.Message, f.Objects)
		}
	}
	if code != exitOK {
		t.Errorf("exit %d, findings %+v", code, rep.Findings)
	}
}

// TestNativesByBuild: a UT99 install whose Manifest.ini says 451 gets the
// 436/451-era table (no udemo, which only 469 has); one that says 469c,
// or none, the 469 table.
func TestNativesByBuild(t *testing.T) {
	for _, tc := range []struct {
		manifest  string
		wantUdemo bool
		table     string
	}{
		{"[Setup]\nProduct=UnrealTournament\nVersion=451\n", false, "ut99-436"},
		{"[Setup]\nVersion=436\n[UnrealTournament]\nVersion=469c\n", true, "ut99-469"},
		{"", true, "ut99-469"},
	} {
		dir := t.TempDir()
		extra := map[string]string{"System/UnrealTournament.ini": "[Core.System]\nPaths=../System/*.u\n[Editor.EditorEngine]\nEditPackages=Core\nEditPackages=Engine\nEditPackages=Botpack\n"}
		if tc.manifest != "" {
			extra["System/Manifest.ini"] = tc.manifest
		}
		writeSpecInstall(t, dir, 69, 0, map[string][2][]string{
			"System/Core.u":   {{"Object:Class"}, {"Core.Class:Core.Class"}},
			"System/Engine.u": {{"Actor:Class"}, {"Core.Object:Core.Class"}},
		}, extra)
		out, errOut, code := runCLI(t, "natives", "--json", "--no-progress", "--ini", filepath.Join(dir, "System", "UnrealTournament.ini"), "--game", "ut99")
		var rep check.Natives
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("natives: exit %d: %v (stderr %s)", code, err, errOut)
		}
		udemo, table := false, ""
		for _, p := range rep.Packages {
			if strings.EqualFold(p.Package, "udemo") {
				udemo = true
			}
			if p.Package == "Core" {
				table = p.Source.Table
			}
		}
		if udemo != tc.wantUdemo || table != tc.table {
			t.Errorf("manifest %q: udemo listed %v, Core from table %q; want %v, %q", tc.manifest, udemo, table, tc.wantUdemo, tc.table)
		}
	}
}

// TestCompiledNativeOnlyImport: the compiled twin of
// TestOrderNativeOnlyClass. A licensee Core.u imports Engine.Sound, a class
// only Engine's module registers (the built-in table says so; Engine.u
// does not export it): neither check nor order --clean sees a cycle or an
// order problem, though Core.u does import from Engine.
func TestCompiledNativeOnlyImport(t *testing.T) {
	dir := t.TempDir()
	writeSpecInstall(t, dir, 69, 0, map[string][2][]string{
		"System/Core.u":   {{"Object:Class"}, {"Core.Class:Core.Class", "Engine.Sound:Core.Class"}},
		"System/Engine.u": {{"Actor:Class"}, {"Core.Object:Core.Class"}},
	}, map[string]string{"System/UnrealTournament.ini": "[Core.System]\nPaths=../System/*.u\n[Editor.EditorEngine]\nEditPackages=Core\nEditPackages=Engine\n"})
	iniPath := filepath.Join(dir, "System", "UnrealTournament.ini")
	rep, code := checkJSON(t, "--ini", iniPath, "--game", "ut99")
	if code != exitOK || len(rep.Findings) != 0 {
		t.Errorf("check: exit %d, findings %+v", code, rep.Findings)
	}
	out, errOut, code := runCLI(t, "order", "--json", "--clean", "--ini", iniPath, "--game", "ut99")
	var ord install.OrderReport
	if err := json.Unmarshal([]byte(out), &ord); err != nil {
		t.Fatalf("order: %v (stderr %s)", err, errOut)
	}
	if code != exitOK || !ord.Valid || len(ord.Findings) != 0 || ord.Checked != 2 {
		t.Errorf("order --clean: exit %d, valid %v, checked %d, findings %+v", code, ord.Valid, ord.Checked, ord.Findings)
	}
	for _, c := range ord.Constraints {
		if c.Package == "Core" {
			t.Errorf("Core must depend on nothing: %+v", c)
		}
	}
}

// TestNativeOnlyOneRule: the same cases through the compiled imports
// (graph) and the sources (uscript's index), which share native.Only: Core
// uses Engine.X, where Engine's module registers Sound and Actor (the
// built-in UE1 table). Core depends on Engine for the build exactly when
// Engine's script declares X; a class of that name in another package
// (Extra) does not make Engine's native-only class a script one. Either
// path deciding otherwise fails here.
func TestNativeOnlyOneRule(t *testing.T) {
	const ini = "[Core.System]\nPaths=../System/*.u\n[Editor.EditorEngine]\nEditPackages=Core\nEditPackages=Engine\nEditPackages=Extra\n"
	for _, tc := range []struct {
		name          string
		class         string // what Core uses: Engine.<class>
		engine, extra string // the classes Engine's and Extra's script declare
		want          bool   // Core depends on Engine
	}{
		{"native-only", "Sound", "Actor", "Thing", false},
		{"declared elsewhere too", "Sound", "Actor", "Sound", false},
		{"declared by Engine", "Sound", "Sound", "Thing", true},
		{"scripted native class", "Actor", "Actor", "Thing", true},
	} {
		for _, path := range []string{"compiled", "sources"} {
			dir := t.TempDir()
			extra := map[string]string{"System/UnrealTournament.ini": ini}
			var pkgs map[string][2][]string
			if path == "compiled" {
				pkgs = map[string][2][]string{
					"System/Core.u":   {{"Object:Class"}, {"Engine." + tc.class + ":Core.Class"}},
					"System/Engine.u": {{tc.engine + ":Class"}, {"Core.Object:Core.Class"}},
					"System/Extra.u":  {{tc.extra + ":Class"}, {"Core.Object:Core.Class"}},
				}
			} else {
				extra["Core/Classes/Object.uc"] = "class Object native;\nvar Engine." + tc.class + " S;\n"
				extra["Engine/Classes/"+tc.engine+".uc"] = "class " + tc.engine + " extends Object native;\n"
				extra["Extra/Classes/"+tc.extra+".uc"] = "class " + tc.extra + " extends Object;\n"
			}
			writeSpecInstall(t, dir, 69, 0, pkgs, extra)
			out, errOut, _ := runCLI(t, "order", "--json", "--clean", "--game", "ut99", "--ini", filepath.Join(dir, "System", "UnrealTournament.ini"))
			var rep install.OrderReport
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("%s, %s: %v (stderr %s)", tc.name, path, err, errOut)
			}
			have := false
			for _, c := range rep.Constraints {
				have = have || (c.Package == "Core" && c.On == "Engine")
			}
			if have != tc.want || rep.Checked != 3 {
				t.Errorf("%s, %s: Core depends on Engine %v, want %v (checked %d; constraints %+v)", tc.name, path, have, tc.want, rep.Checked, rep.Constraints)
			}
			if path == "sources" {
				continue
			}
			// natives lists the class as native-only exactly when order
			// does not make it a build dependency.
			out, errOut, _ = runCLI(t, "natives", "--json", "--game", "ut99", "--ini", filepath.Join(dir, "System", "UnrealTournament.ini"))
			var nat struct {
				Packages []struct {
					Package    string   `json:"package"`
					NativeOnly []string `json:"native_only"`
				} `json:"packages"`
			}
			if err := json.Unmarshal([]byte(out), &nat); err != nil {
				t.Fatalf("natives: %v (stderr %s)", err, errOut)
			}
			only := false
			for _, p := range nat.Packages {
				only = only || (p.Package == "Engine" && slices.Contains(p.NativeOnly, tc.class))
			}
			if only == tc.want {
				t.Errorf("%s: natives lists Engine.%s as native-only: %v, want %v", tc.name, tc.class, only, !tc.want)
			}
		}
	}
}
