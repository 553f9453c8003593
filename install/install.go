package check

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
	"github.com/upkdeps/upkdeps/internal/termsafe"
	"github.com/upkdeps/upkdeps/native"
	"github.com/upkdeps/upkdeps/search"
)

// Install is a game installation as the commands see it: its ini, the game
// profile and the engine's package lookup.
type Install struct {
	IniPath string
	Ini     *ini.File
	Game    ini.Game
	Search  *search.Searcher
	// Natives are the native classes of the install's binaries and the
	// game's built-in tables, once LoadNatives has read them.
	Natives *native.Set
	// Overlay holds packages that are not on disk, by the path they would
	// have (RunWith sets it for the duration of its check).
	Overlay map[string]graph.Held
}

// OpenOptions say how to open an install.
type OpenOptions struct {
	// Ini is the ini file, or a game folder or its System folder to find
	// it in (ini.Locate); "" finds the game's ini in . and ./System.
	Ini string
	// Game names the profile (ini.ParseGame); "" guesses it from the ini.
	Game string
	// Platform names the file-name rules (search.ParsePlatform); "" guesses.
	Platform string
	// CacheDir overrides the ini's CachePath.
	CacheDir string
	// NotesInReport leaves the install's case notes (search.CaseNotes) to
	// the report instead of a warning each.
	NotesInReport bool
	// SettingsAreErrors makes an unsafe ini value (search.SettingErrors)
	// an error instead of a warning.
	SettingsAreErrors bool
	// Warn receives each warning and note, one line without a newline;
	// nil drops them.
	Warn func(msg string)
}

// UsageError is an error in what the caller asked for (an unknown game or
// platform, --with-cache without a cache folder), not in the install.
type UsageError struct{ Err error }

func (e UsageError) Error() string { return e.Err.Error() }
func (e UsageError) Unwrap() error { return e.Err }

func warnf(warn func(string), format string, args ...any) {
	if warn != nil {
		warn(fmt.Sprintf(format, args...))
	}
}

// Open loads the ini, the game profile (given, else guessed) and a
// Searcher.
func Open(opt OpenOptions) (*Install, error) {
	path, err := ini.Locate(opt.Ini)
	if err != nil {
		if opt.Ini == "" {
			return nil, fmt.Errorf("no --ini given and %w", err)
		}
		return nil, err
	}
	f, err := ini.Load(path)
	if err != nil {
		return nil, err
	}
	in := &Install{IniPath: path, Ini: f, Game: ini.GuessGame(f)}
	if opt.Game != "" {
		g, err := ini.ParseGame(opt.Game)
		if err != nil {
			return nil, UsageError{err}
		}
		in.Game = g
	}
	// A licensee's ini syntax ("Paths+=" in SWRC) is read as its engine reads it.
	in.Ini = f.ForGame(in.Game)
	f = in.Ini
	if p := in.Game.Profile(); p == nil || !p.AppendSyntax() {
		if lines := f.AppendLines(); len(lines) > 0 {
			l := lines[0]
			warnf(opt.Warn, "warning: %s:%d: [%s] %s=%s and %d more Key+= line(s): this engine reads %q as a key of its own, not as an append (only swrc's does: give --game swrc if this is its ini)",
				path, l.Line, l.Section, l.Key, l.Value, len(lines)-1, l.Key)
		}
	}
	platform, err := search.ParsePlatform(opt.Platform)
	if err != nil {
		return nil, UsageError{err}
	}
	gen := in.Game.Generation
	if opt.Game == "" && in.Game.Generic() {
		gen = 0 // only a map extension said it: let Core's version decide
	}
	s, err := search.New(f, search.Options{Game: in.Game, Generation: gen, CacheDir: opt.CacheDir, Platform: platform})
	if err != nil {
		return nil, err
	}
	if p := s.Platform(); p.Ambiguous() {
		warnf(opt.Warn, "note: %s: %s (give --platform to choose)", path, p.Reason)
	}
	if !opt.NotesInReport {
		for _, n := range s.CaseNotes() {
			warnf(opt.Warn, "warning: %s: %s", path, n.Message)
		}
	}
	for _, err := range s.SettingErrors() {
		if opt.SettingsAreErrors {
			return nil, fmt.Errorf("%s: %w: not changing anything", path, err)
		}
		warnf(opt.Warn, "warning: %s", termsafe.String(fmt.Sprintf("%s: %v", path, err)))
	}
	in.Search = s
	if in.Game.Generic() && s.Generation() != in.Game.Generation {
		// A map extension guessed the engine; the packages' versions
		// (Core's) tell it better.
		in.Game = map[int]ini.Game{1: ini.UE1, 2: ini.UE2}[s.Generation()]
	}
	return in, nil
}

// GraphOptions say how BuildGraph scans.
type GraphOptions struct {
	Jobs int // parallel readers (0 or less: one per core)
	// Reuse is an earlier graph of the install whose packages are not
	// read again (or nil).
	Reuse *graph.Graph
	// Progress is graph.Options.Progress (nil: none).
	Progress func(total int) func()
}

// BuildGraph scans the install's packages through r (the overlay
// included). An install with no package to read and no sources is an
// error (NothingToScan).
func (in *Install) BuildGraph(ctx context.Context, r graph.Resolver, opt GraphOptions) (*graph.Graph, error) {
	if len(r.Candidates()) == 0 && !in.HasSources() {
		return nil, in.NothingToScan()
	}
	return graph.Build(ctx, r, graph.Options{Jobs: opt.Jobs, Reuse: opt.Reuse, Roots: graph.RootsOf(in.Ini, in.Search.Generation()),
		Overlay: in.Overlay, Progress: opt.Progress, MapExts: in.Ini.MapExts(in.Game)})
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
// Saying "no problems found" there would hide a wrong --ini.
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

// PlacementPaths are the Paths a file is placed by (search.PlacementPaths).
func (in *Install) PlacementPaths() []string { return in.Search.PlacementPaths() }

// BinaryDirs are the folders whose .dll and .so files are the packages'
// native code: the ini's own folder (the game's System folder, where the
// engine loads its modules from) and the folders of the code packages in
// Paths (a Linux user ini outside the game names the game's System there).
func (in *Install) BinaryDirs() []string {
	dirs := []string{in.Ini.Dir()}
	for _, p := range in.Search.Paths() {
		if strings.EqualFold(p.Ext, ".u") && p.Exists {
			dirs = append(dirs, p.Dir)
		}
	}
	return dirs
}

// LoadNatives reads the install's binaries and adds the game's built-in
// table for the packages without one, once (in.Natives). A binary that
// cannot be read is reported to warn and left out: its package falls back
// on the table.
func (in *Install) LoadNatives(warn func(string)) (*native.Set, error) {
	if in.Natives != nil {
		return in.Natives, nil
	}
	s, err := ReadBinaries(in.BinaryDirs(), warn)
	if err != nil {
		return nil, err
	}
	for _, t := range native.TablesFor(in.Game.Name, in.Search.Generation(), in.Build()) {
		s.AddTable(t)
	}
	s.Game = in.Game.Name
	in.Natives = s
	return s, nil
}

// ReadBinaries reads the native classes of every binary in dirs
// (native.FindBinaries) into a new set. A binary that cannot be read is
// left out with a warning through warn (nil: none), and Git LFS pointers
// in one warning for all; only a folder that cannot be listed is an error.
func ReadBinaries(dirs []string, warn func(string)) (*native.Set, error) {
	files, err := native.FindBinaries(dirs)
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
			warnf(warn, "upkdeps: warning: %s (its native classes are not used)", termsafe.String(err.Error()))
		default:
			s.AddBinary(b)
		}
	}
	if len(lfs) > 0 {
		warnf(warn, "upkdeps: warning: %d binaries are Git LFS pointers, not the files (%s): their native classes are not used; fetch them with git lfs pull",
			len(lfs), strings.Join(lfs, ", "))
	}
	return s, nil
}

// Build is the game's build from the Manifest.ini beside the ini (0 when
// unknown): a UT99 436 or 451 install gets that era's native table.
func (in *Install) Build() int { return ini.GameBuild(in.Ini.Dir()) }

// Folders returns the Paths folders for DOT clusters, by Paths index.
func (in *Install) Folders() []string {
	var out []string
	for _, p := range in.Search.Paths() {
		out = append(out, p.Raw)
	}
	return out
}

// Platform returns the file-name rules the install is searched under.
func (in *Install) Platform() search.Platform {
	return in.Search.Platform().Platform
}

// RulesLabel names the platform rules for report headers.
func (in *Install) RulesLabel() string { return RulesLabel(string(in.Platform())) }

// RulesLabel turns a platform ("windows") into "Windows rules".
func RulesLabel(p string) string {
	if p == "" {
		return "no platform"
	}
	return strings.ToUpper(p[:1]) + p[1:] + " rules"
}

// GameLabel names the profile for report headers.
func (in *Install) GameLabel() string {
	if in.Game.Name == "" {
		return fmt.Sprintf("UE%d", in.Search.Generation())
	}
	return fmt.Sprintf("%s, UE%d", in.Game.Name, in.Search.Generation())
}
