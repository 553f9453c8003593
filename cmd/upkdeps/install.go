package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/internal/progress"
	"github.com/upkdeps/upkdeps/internal/termsafe"
	"github.com/upkdeps/upkdeps/native"
	"github.com/upkdeps/upkdeps/search"
)

// install is a game installation as the commands see it: its ini, the game
// profile and the engine's package lookup.
type install struct {
	iniPath string
	ini     *ini.File
	game    ini.Game
	search  *search.Searcher
	natives *native.Set // made by loadNatives
	// overlay holds packages that are not on disk, by the path they would
	// have (check --with).
	overlay map[string][]byte
}

// openInstall loads the ini named by --ini (or found in . and ./System),
// the game profile (--game, else guessed) and a Searcher.
func (a *app) openInstall() (*install, error) {
	path := a.cfg.Ini
	if path == "" {
		found, err := ini.Find(".")
		if err != nil {
			return nil, fmt.Errorf("no --ini given and %w", err)
		}
		path = found
	}
	f, err := ini.Load(path)
	if err != nil {
		return nil, err
	}
	in := &install{iniPath: path, ini: f, game: ini.GuessGame(f)}
	if a.cfg.Game != "" {
		g, err := ini.ParseGame(a.cfg.Game)
		if err != nil {
			return nil, usageError{err}
		}
		in.game = g
	}
	// A licensee's ini syntax ("Paths+=" in SWRC) is read as its engine reads it.
	in.ini = f.ForGame(in.game)
	f = in.ini
	if p := in.game.Profile(); p == nil || !p.AppendSyntax() {
		if lines := f.AppendLines(); len(lines) > 0 {
			l := lines[0]
			fmt.Fprintf(a.stderr, "warning: %s:%d: [%s] %s=%s and %d more Key+= line(s): this engine reads %q as a key of its own, not as an append (only swrc's does: give --game swrc if this is its ini)\n",
				path, l.Line, l.Section, l.Key, l.Value, len(lines)-1, l.Key)
		}
	}
	platform, err := search.ParsePlatform(a.cfg.Platform)
	if err != nil {
		return nil, usageError{err}
	}
	gen := in.game.Generation
	if a.cfg.Game == "" && in.game.Generic() {
		gen = 0 // only a map extension said it: let Core's version decide
	}
	s, err := search.New(f, search.Options{Game: in.game, Generation: gen, CacheDir: a.cfg.Cache, Platform: platform})
	if err != nil {
		return nil, err
	}
	if p := s.Platform(); p.Ambiguous() {
		fmt.Fprintf(a.stderr, "note: %s: %s (give --platform to choose)\n", path, p.Reason)
	}
	if !a.notesInReport {
		for _, n := range s.CaseNotes() {
			fmt.Fprintf(a.stderr, "warning: %s: %s\n", path, n.Message)
		}
	}
	for _, err := range s.SettingErrors() {
		if a.settingsAreErrors {
			return nil, fmt.Errorf("%s: %w: not changing anything", path, err)
		}
		fmt.Fprintf(a.stderr, "warning: %s\n", termsafe.String(fmt.Sprintf("%s: %v", path, err)))
	}
	in.search = s
	if in.game.Generic() && s.Generation() != in.game.Generation {
		// A map extension guessed the engine; the packages' versions
		// (Core's) tell it better.
		in.game = map[int]ini.Game{1: ini.UE1, 2: ini.UE2}[s.Generation()]
	}
	return in, nil
}

// buildGraph scans the install, with a progress bar on a terminal.
// reuse, when not nil, is an earlier graph of the install whose packages
// are not read again.
func (a *app) buildGraph(ctx context.Context, in *install, r graph.Resolver, reuse *graph.Graph) (*graph.Graph, error) {
	var bar *progress.Bar
	if len(r.Candidates()) == 0 && !in.hasSources() {
		return nil, in.nothingToScan()
	}
	opt := graph.Options{Jobs: a.cfg.Jobs, Reuse: reuse, Roots: graph.RootsOf(in.ini, in.search.Generation()), Overlay: in.overlay,
		Progress: func(total int) func() {
			bar.Done()
			bar = progress.New(a.stderr, !a.cfg.NoProgress, total, "scanning packages")
			return func() { bar.Add(1) }
		}}
	g, err := graph.Build(ctx, r, opt)
	bar.Done()
	return g, err
}

// openGraph opens the install and builds its graph through the engine's
// lookup: the start of every graph command.
func (a *app) openGraph(ctx context.Context) (*install, *graph.Graph, error) {
	in, err := a.openInstall()
	if err != nil {
		return nil, nil, err
	}
	g, err := a.buildGraph(ctx, in, graph.FromSearcher(in.search), nil)
	if err != nil {
		return nil, nil, err
	}
	return in, g, nil
}

// hasSources reports whether an EditPackages entry has UnrealScript
// sources (<GameRoot>/<Pkg>/Classes/*.uc): a source tree before its first
// build has no package file, yet order and check have work to do. A
// Classes folder without a .uc (only a .upkg) is no source: nothing could
// be built or checked from it.
func (in *install) hasSources() bool {
	with, _ := in.classesFolders()
	return len(with) > 0
}

// classesFolders returns the EditPackages entries whose Classes folder
// holds a .uc file, and those whose Classes folder holds none.
func (in *install) classesFolders() (withUC, withoutUC []string) {
	for _, p := range in.ini.EditPackages() {
		ents, err := os.ReadDir(filepath.Join(in.search.Root(), p, "Classes"))
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

// nothingToScan is the error of a graph command whose install has no
// package to read: an empty ini, no Paths, or Paths that match nothing.
// Saying "no problems found" there would hide a wrong --ini.
func (in *install) nothingToScan() error {
	paths := in.ini.SystemFor(in.game).Paths
	if len(paths) == 0 {
		return fmt.Errorf("%s: no Paths in [%s]: the ini names no folder to load packages from (is this the game's ini?)",
			in.iniPath, in.ini.SystemSection(in.game))
	}
	err := fmt.Errorf("%s: its Paths (%s) match no package file: nothing to check (is this the game's ini, in its System folder?)",
		in.iniPath, strings.Join(paths, ", "))
	if _, empty := in.classesFolders(); len(empty) > 0 {
		err = fmt.Errorf("%w; no sources either: %s hold(s) no .uc file", err, strings.Join(empty, ", "))
	}
	return err
}

// placementPaths are the Paths a file is placed by (search.PlacementPaths).
func (in *install) placementPaths() []string { return in.search.PlacementPaths() }

// binaryDirs are the folders whose .dll and .so files are the packages'
// native code: the ini's own folder (the game's System folder, where the
// engine loads its modules from) and the folders of the code packages in
// Paths (a Linux user ini outside the game names the game's System there).
func (in *install) binaryDirs() []string {
	dirs := []string{in.ini.Dir()}
	for _, p := range in.search.Paths() {
		if strings.EqualFold(p.Ext, ".u") && p.Exists {
			dirs = append(dirs, p.Dir)
		}
	}
	return dirs
}

// loadNatives reads the install's binaries and adds the game's built-in
// table for the packages without one. A binary that cannot be read is
// reported on stderr and left out: its package falls back on the table.
func (a *app) loadNatives(in *install) (*native.Set, error) {
	if in.natives != nil {
		return in.natives, nil
	}
	files, err := native.FindBinaries(in.binaryDirs())
	if err != nil {
		return nil, err
	}
	s := native.NewSet()
	var lfs []string
	for _, f := range files {
		b, err := native.ReadBinary(f)
		var le *native.LFSPointerError
		switch {
		case errors.As(err, &le):
			lfs = append(lfs, filepath.Base(f))
		case err != nil:
			fmt.Fprintf(a.stderr, "upkdeps: warning: %s (its native classes are not used)\n", termsafe.String(err.Error()))
		default:
			s.AddBinary(b)
		}
	}
	if len(lfs) > 0 {
		fmt.Fprintf(a.stderr, "upkdeps: warning: %d binaries are Git LFS pointers, not the files (%s): their native classes are not used; fetch them with git lfs pull\n",
			len(lfs), strings.Join(lfs, ", "))
	}
	for _, t := range native.TablesFor(in.game.Name, in.search.Generation(), in.build()) {
		s.AddTable(t)
	}
	in.natives = s
	return s, nil
}

// build is the game's build from the Manifest.ini beside the ini (0 when
// unknown): a UT99 436 or 451 install gets that era's native table.
func (in *install) build() int { return ini.GameBuild(in.ini.Dir()) }

// folders returns the Paths folders for DOT clusters, by Paths index.
func (in *install) folders() []string {
	var out []string
	for _, p := range in.search.Paths() {
		out = append(out, p.Raw)
	}
	return out
}

// platform returns the file-name rules the install is searched under.
func (in *install) platform() search.Platform {
	return in.search.Platform().Platform
}

// rulesLabel names the platform rules for report headers.
func (in *install) rulesLabel() string { return rulesLabel(string(in.platform())) }

// rulesLabel turns a platform ("windows") into "Windows rules".
func rulesLabel(p string) string {
	if p == "" {
		return "no platform"
	}
	return strings.ToUpper(p[:1]) + p[1:] + " rules"
}

// gameLabel names the profile for report headers.
func (in *install) gameLabel() string {
	if in.game.Name == "" {
		return fmt.Sprintf("UE%d", in.search.Generation())
	}
	return fmt.Sprintf("%s, UE%d", in.game.Name, in.search.Generation())
}
