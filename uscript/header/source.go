package header

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/install"
)

// ErrNotEditPackage is matched (errors.Is) by FromInstall's error for a
// selected package that EditPackages does not list.
var ErrNotEditPackage = errors.New("is not in EditPackages")

// FromInstall sets what opt reads from an install: its game root, game
// and generation, the packages of its EditPackages in compile order, the
// compiled .u of a package the install's lookup finds, and its native
// binaries (install.Install.Natives). selected, when not empty, are the
// headers to report: each must be in EditPackages (ErrNotEditPackage). An
// ini without EditPackages is an error.
func (opt *SyncOptions) FromInstall(in *install.Install, selected []string) error {
	opt.Root, opt.Generation, opt.Game = in.Search.Root(), in.Search.Generation(), in.Game.Name
	opt.CompiledFile = func(pkg string) string { return in.Search.Find(pkg).File }
	opt.Packages = in.Ini.EditPackages()
	if len(opt.Packages) == 0 {
		return fmt.Errorf("%s has no [Editor.EditorEngine] EditPackages", in.IniPath)
	}
	for _, s := range selected {
		if !containsFold(opt.Packages, s) {
			return fmt.Errorf("%s %w", s, ErrNotEditPackage)
		}
	}
	opt.Selected = selected
	var err error
	opt.Binaries, err = in.Natives()
	return err
}

// FromTree sets what opt reads from a source tree without an ini: the game
// root, the packages in compile order, the game profile named (its
// generation when the name is known), the native binaries in
// root/System (a binary that cannot be read is left out with a warning
// through warn) and the compiled .u of a package in root/System, its name
// matched ignoring case.
func (opt *SyncOptions) FromTree(root string, packages []string, game string, warn func(string)) error {
	g, _ := ini.ParseGame(game) // a name it does not know: generation 0
	opt.Root, opt.Packages, opt.Game, opt.Generation = root, packages, game, g.Generation
	system := filepath.Join(root, "System")
	opt.CompiledFile = func(pkg string) string { return findFold(system, pkg+".u") }
	bins, err := install.ReadBinaries([]string{system}, warn)
	if err != nil {
		return err
	}
	opt.Binaries = bins
	return nil
}

// findFold returns dir/name, matching name ignoring case, or "".
func findFold(dir, name string) string {
	if st, err := os.Stat(filepath.Join(dir, name)); err == nil && st.Mode().IsRegular() {
		return filepath.Join(dir, name)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	for _, e := range entries {
		if strings.EqualFold(e.Name(), name) && e.Type().IsRegular() {
			return filepath.Join(dir, e.Name())
		}
	}
	return ""
}
