package main

import (
	"context"
	"fmt"

	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/internal/progress"
	"github.com/upkdeps/upkdeps/search"
)

// install is a game installation as the commands see it: its ini, the game
// profile and the engine's package lookup.
type install struct {
	iniPath string
	ini     *ini.File
	game    ini.Game
	search  *search.Searcher
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
	s, err := search.New(f, search.Options{Generation: in.game.Generation, CacheDir: a.cfg.Cache})
	if err != nil {
		return nil, err
	}
	for _, err := range s.SettingErrors() {
		if a.settingsAreErrors {
			return nil, fmt.Errorf("%s: %w: not changing anything", path, err)
		}
		fmt.Fprintf(a.stderr, "warning: %s: %v\n", path, err)
	}
	in.search = s
	return in, nil
}

// buildGraph scans the install, with a progress bar on a terminal.
// reuse, when not nil, is an earlier graph of the install whose packages
// are not read again.
func (a *app) buildGraph(ctx context.Context, in *install, r graph.Resolver, reuse *graph.Graph) (*graph.Graph, error) {
	var bar *progress.Bar
	opt := graph.Options{Jobs: a.cfg.Jobs, Reuse: reuse, Progress: func(total int) func() {
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

// folders returns the Paths folders for DOT clusters, by Paths index.
func (in *install) folders() []string {
	var out []string
	for _, p := range in.search.Paths() {
		out = append(out, p.Raw)
	}
	return out
}

// gameLabel names the profile for report headers.
func (in *install) gameLabel() string {
	if in.game.Name == "" {
		return fmt.Sprintf("UE%d", in.search.Generation())
	}
	return fmt.Sprintf("%s, UE%d", in.game.Name, in.search.Generation())
}
