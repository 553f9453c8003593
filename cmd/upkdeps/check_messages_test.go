package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/internal/demo"
)

const lfsPointer = "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 1260153\n"

// TestCheckLFSAndEmpty: packages and binaries that are Git LFS pointers are
// named as such and counted apart from the readable packages; a 0-byte map
// is empty, not "not an unreal package".
func TestCheckLFSAndEmpty(t *testing.T) {
	chdirDemo(t)
	for path, text := range map[string]string{
		"Textures/DemoTex.utx": lfsPointer,
		"Sounds/DemoSnd.uax":   lfsPointer,
		"System/Engine.dll":    lfsPointer,
		"Maps/DM-Second.unr":   "",
	} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, errOut, _ := runCLI(t, "check", "--ini", demo.Ini)
	for _, want := range []string{
		"14 packages scanned, 10 of 14 readable (2 Git LFS pointers: fetch the files with git lfs pull)",
		"Textures/DemoTex.utx cannot be read: format: a Git LFS pointer, not the package itself (1260153 bytes)",
		"Maps/DM-Second.unr cannot be read: format: the file is empty (0 bytes)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("check output lacks %q:\n%s", want, out)
		}
	}
	if want := "1 binaries are Git LFS pointers, not the files (Engine.dll)"; !strings.Contains(errOut, want) {
		t.Errorf("stderr lacks %q: %s", want, errOut)
	}
	out, _, _ = runCLI(t, "check", "--ini", demo.Ini, "--json")
	var rep struct {
		Scanned  int `json:"packages_scanned"`
		Readable int `json:"packages_readable"`
		LFS      int `json:"git_lfs_pointers"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Scanned != 14 || rep.Readable != 10 || rep.LFS != 2 {
		t.Errorf("json counts: %+v", rep)
	}
}

// TestGenerationFromVersions: an ini whose only hint is a .unr map
// extension (a UE2 licensee game that kept it) over packages of version
// 128 is a UE2 install, not "ue1, UE1"; --game still decides.
func TestGenerationFromVersions(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	put(t, "System/Game.ini", []byte("[Core.System]\nPaths=../System/*.u\nPaths=../Maps/*.unr\n"))
	for _, name := range []string{"System/Core.u", "Maps/DM-Test.unr"} {
		put(t, name, cachePkg(t, cacheGUID(1), 128, 0))
	}
	out, _, _ := runCLI(t, "check", "--ini", "System/Game.ini", "--no-progress")
	if first, _, _ := strings.Cut(out, "\n"); !strings.HasPrefix(first, "upkdeps check: System/Game.ini (ue2, UE2;") {
		t.Errorf("header %q, want the UE2 of the packages' versions", first)
	}
	out, _, _ = runCLI(t, "check", "--ini", "System/Game.ini", "--no-progress", "--game", "ue1")
	if first, _, _ := strings.Cut(out, "\n"); !strings.HasPrefix(first, "upkdeps check: System/Game.ini (ue1, UE1;") {
		t.Errorf("--game ue1: header %q", first)
	}
}

// TestCheckExtensionCase: under Linux rules, a texture package found only
// because the file's extension differs in case from the Paths wildcard
// (Foo.UTX for *.utx) is explained as that, not as a name spelled in
// another case. (Under Windows rules the extension matches and the Paths
// case note explains it.)
func TestCheckExtensionCase(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	core := format.NewBuilder(69, 0)
	core.Export(0, "Object", 0, 0, 16)
	put(t, "System/Core.u", marshal(t, core))
	tex := format.NewBuilder(69, 0)
	tex.Export(0, "Wolf", tex.ImportPath("Core.Object", "Core", "Class"), 0, 16)
	put(t, "Textures/dnWolf.UTX", marshal(t, tex))
	mod := format.NewBuilder(69, 0)
	mod.Export(0, "Thing", mod.ImportPath("Core.Object", "Core", "Class"), 0, 16)
	mod.ImportPath("dnWolf.Wolf", "Core", "Object")
	put(t, "System/Mod.u", marshal(t, mod))
	put(t, "System/Game.ini", []byte("[Core.System]\nPaths=../System/*.u\nPaths=../Textures/*.utx\n[Engine.GameEngine]\nServerPackages=Mod\n"))
	out, _, _ := runCLI(t, "check", "--ini", "System/Game.ini", "--no-progress", "--platform", "linux")
	want := `imported as "dnWolf" and the file is Textures/dnWolf.UTX: the name matches, only the extension's case (.UTX) differs from the Paths wildcard's`
	if !strings.Contains(out, want) {
		t.Errorf("check output lacks %q:\n%s", want, out)
	}
}

func marshal(t *testing.T, b *format.Builder) []byte {
	t.Helper()
	data, err := format.Marshal(b.File)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestCheckUnbuiltSources: a missing package that is an EditPackages entry
// with sources (the demo's DemoExtras) says what to do: run ucc make.
func TestCheckUnbuiltSources(t *testing.T) {
	chdirDemo(t)
	out, _, _ := runCLI(t, "check", "--ini", demo.Ini, "--no-progress")
	want := "DemoExtras has sources (DemoExtras/Classes, 1 class(es)) but no compiled package: run ucc make; until then package DemoExtras is imported"
	if !strings.Contains(out, want) {
		t.Errorf("check output lacks %q:\n%s", want, out)
	}
}

// TestCheckRenderLineUE2: UT2004.ini's Render=Render.Render is dead on UE2
// (no Render package or binary ships): no missing_package warning there;
// on UE1 the line is live and a missing Render is reported.
func TestCheckRenderLineUE2(t *testing.T) {
	for _, tc := range []struct {
		version uint16
		want    bool
	}{{128, false}, {69, true}} {
		dir := t.TempDir()
		t.Chdir(dir)
		put(t, "System/Game.ini", []byte("[Engine.Engine]\nRender=Render.Render\n[Core.System]\nPaths=../System/*.u\n"))
		put(t, "System/Core.u", cachePkg(t, cacheGUID(1), tc.version, 0))
		rep, _ := checkJSON(t, "--ini", "System/Game.ini")
		have := false
		for _, f := range rep.Findings {
			have = have || (f.Kind == "missing_package" && f.Package == "Render")
		}
		if have != tc.want {
			t.Errorf("version %d: missing_package Render reported: %v, want %v (%+v)", tc.version, have, tc.want, rep.Findings)
		}
	}
}
