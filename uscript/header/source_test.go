package header

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/install"
	"github.com/upkdeps/upkdeps/internal/demo"
)

// TestFromInstall: the demo's EditPackages in order, its root and game,
// the compiled .u its lookup finds and its natives; a selected package
// EditPackages lacks is ErrNotEditPackage, an ini without EditPackages an
// error naming it.
func TestFromInstall(t *testing.T) {
	dir := t.TempDir()
	if err := demo.Write(dir); err != nil {
		t.Fatal(err)
	}
	iniPath := filepath.Join(dir, demo.Ini)
	in, err := install.Open(install.Options{Ini: iniPath})
	if err != nil {
		t.Fatal(err)
	}
	var opt SyncOptions
	if err := opt.FromInstall(in, []string{"demobase"}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(opt.Packages, in.Ini.EditPackages()) || opt.Packages[0] != "Core" || !slices.Equal(opt.Selected, []string{"demobase"}) {
		t.Errorf("packages %q, selected %q", opt.Packages, opt.Selected)
	}
	if opt.Root != in.Search.Root() || opt.Game != in.Game.Name || opt.Generation != in.Search.Generation() || opt.Binaries == nil {
		t.Errorf("root %q game %q generation %d binaries %v", opt.Root, opt.Game, opt.Generation, opt.Binaries)
	}
	if f := opt.CompiledFile("DemoBase"); !strings.EqualFold(filepath.Base(f), "DemoBase.u") {
		t.Errorf("compiled DemoBase: %q", f)
	}
	if err := opt.FromInstall(in, []string{"Core", "Nope"}); !errors.Is(err, ErrNotEditPackage) || err.Error() != "Nope is not in EditPackages" {
		t.Errorf("Nope selected: %v", err)
	}

	bare := filepath.Join(dir, "System", "Bare.ini")
	if err := os.WriteFile(bare, []byte("[Core.System]\nPaths=../System/*.u\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	in, err = install.Open(install.Options{Ini: bare, Game: "ut99"})
	if err != nil {
		t.Fatal(err)
	}
	if err := opt.FromInstall(in, nil); err == nil || !strings.Contains(err.Error(), "Bare.ini has no [Editor.EditorEngine] EditPackages") {
		t.Errorf("no EditPackages: %v", err)
	}
}

// TestFromTree: a source tree's packages, the game's generation, and the
// compiled .u in System whatever the case of its name (a folder is none).
func TestFromTree(t *testing.T) {
	root := t.TempDir()
	system := filepath.Join(root, "System")
	if err := os.MkdirAll(system, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(system, "CORE.U"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(system, "engine.u"), 0o755); err != nil {
		t.Fatal(err)
	}
	var opt SyncOptions
	var warnings []string
	if err := opt.FromTree(root, []string{"Core", "Engine"}, "ut2004", func(s string) { warnings = append(warnings, s) }); err != nil {
		t.Fatal(err)
	}
	if opt.Root != root || !slices.Equal(opt.Packages, []string{"Core", "Engine"}) || opt.Game != "ut2004" || opt.Generation != 2 || opt.Binaries == nil {
		t.Errorf("%+v", opt)
	}
	if f := opt.CompiledFile("Core"); !strings.EqualFold(f, filepath.Join(system, "CORE.U")) {
		t.Errorf("compiled Core: %q", f)
	}
	if f := opt.CompiledFile("Engine"); f != "" {
		t.Errorf("a folder named engine.u found as the compiled Engine: %q", f)
	}
	if err := opt.FromTree(root, []string{"Core"}, "", nil); err != nil || opt.Generation != 0 {
		t.Errorf("no game: generation %d, err %v", opt.Generation, err)
	}
	if len(warnings) != 0 {
		t.Errorf("warnings %q", warnings)
	}
}
