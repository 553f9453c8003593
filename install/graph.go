package install

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/internal/par"
)

// GraphOptions say how Graph scans.
type GraphOptions struct {
	// Resolver finds the packages (nil: the engine's lookup of the
	// install, graph.FromSearcher).
	Resolver graph.Resolver
	// Overlay holds packages that are not on disk, by the path they would
	// have (graph.Options.Overlay: a mod checked as if installed).
	Overlay map[string]graph.Held
	Jobs    int // parallel readers (0 or less: one per core)
	// Reuse is an earlier graph of the install whose packages are not
	// read again (or nil).
	Reuse *graph.Graph
	// Progress is graph.Options.Progress (nil: none).
	Progress func(total int) func()
}

// Graph scans the install's packages through opt.Resolver (the overlay
// included). An install with no package to read and no sources is an
// error (NothingToScan).
func (in *Install) Graph(ctx context.Context, opt GraphOptions) (*graph.Graph, error) {
	r := opt.Resolver
	if r == nil {
		r = graph.FromSearcher(in.Search)
	}
	if len(r.Candidates()) == 0 && !in.HasSources() {
		return nil, in.NothingToScan()
	}
	return graph.Build(ctx, r, graph.Options{Jobs: par.Jobs(opt.Jobs), Reuse: opt.Reuse, Roots: in.Roots(),
		Overlay: opt.Overlay, Progress: opt.Progress, MapExts: in.Ini.MapExts(in.Game)})
}

// Roots are the graph's roots: the ini's lines (graph.RootsOf), then the
// command line's (Options.URL's map, game class and mutators, then
// Options.Mutators).
func (in *Install) Roots() []graph.Root {
	return append(graph.RootsOf(in.Ini, in.Search.Generation()), in.cmdRoots...)
}

// HasSources reports whether an EditPackages entry has UnrealScript
// sources (<GameRoot>/<Pkg>/Classes/*.uc): a source tree before its first
// build has no package file, yet order and check have work to do. A
// Classes folder without a .uc (only a .upkg) is no source: nothing could
// be built or checked from it.
func (in *Install) HasSources() bool {
	with, _ := in.ClassesFolders()
	return len(with) > 0
}

// ClassesFolders returns the EditPackages entries whose Classes folder
// holds a .uc file, and those whose Classes folder holds none.
func (in *Install) ClassesFolders() (withUC, withoutUC []string) {
	for _, p := range in.Ini.EditPackages() {
		ents, err := os.ReadDir(filepath.Join(in.Search.Root(), p, "Classes"))
		if err != nil {
			continue
		}
		if slices.ContainsFunc(ents, func(e os.DirEntry) bool {
			return !e.IsDir() && strings.EqualFold(filepath.Ext(e.Name()), ".uc")
		}) {
			withUC = append(withUC, p)
		} else {
			withoutUC = append(withoutUC, p+"/Classes")
		}
	}
	return withUC, withoutUC
}

// NothingToScan is the error of a graph command whose install has no
// package to read: an empty ini, no Paths, or Paths that match nothing.
// Saying "no problems found" there would hide a wrong ini.
func (in *Install) NothingToScan() error {
	paths := in.Ini.SystemFor(in.Game).Paths
	if len(paths) == 0 {
		return fmt.Errorf("%s: no Paths in [%s]: the ini names no folder to load packages from (is this the game's ini?)",
			in.IniPath, in.Ini.SystemSection(in.Game))
	}
	err := fmt.Errorf("%s: its Paths (%s) match no package file: nothing to check (is this the game's ini, in its System folder?)",
		in.IniPath, strings.Join(paths, ", "))
	if _, empty := in.ClassesFolders(); len(empty) > 0 {
		err = fmt.Errorf("%w; no sources either: %s hold(s) no .uc file", err, strings.Join(empty, ", "))
	}
	return err
}
