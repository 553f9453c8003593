package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/upkdeps/upkdeps/check"
	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/internal/progress"
	"github.com/upkdeps/upkdeps/native"
)

// install is a game installation as the commands see it (check.Install).
type install = check.Install

// rulesLabel turns a platform ("windows") into "Windows rules".
var rulesLabel = check.RulesLabel

// openInstall opens the install the flags name (--ini, else the ini found
// in . and ./System; --game, else guessed; --platform; --cache), its
// warnings on stderr: every command's one way in.
func (a *app) openInstall() (*install, error) {
	in, err := check.Open(check.OpenOptions{Ini: a.cfg.Ini, Game: a.cfg.Game, Platform: a.cfg.Platform, CacheDir: a.cfg.Cache,
		NotesInReport: a.notesInReport, SettingsAreErrors: a.settingsAreErrors, Warn: a.warn})
	var ue check.UsageError
	if errors.As(err, &ue) {
		return nil, usageError{err}
	}
	return in, err
}

// warn prints a library's warning line on stderr.
func (a *app) warn(msg string) { fmt.Fprintln(a.stderr, msg) }

// progress returns the progress callback of a scan: a bar on a terminal
// (none with --no-progress), and the function that ends it.
func (a *app) progress() (func(total int) func(), func()) {
	var bar *progress.Bar
	return func(total int) func() {
		bar.Done()
		bar = progress.New(a.stderr, !a.cfg.NoProgress, total, "scanning packages")
		return func() { bar.Add(1) }
	}, func() { bar.Done() }
}

// checkOptions are the check.Options of the flags.
func (a *app) checkOptions(withCache bool) (check.Options, func()) {
	p, done := a.progress()
	return check.Options{WithCache: withCache, Jobs: a.cfg.Jobs, Progress: p, Warn: a.warn, Preset: a.preset}, done
}

// buildGraph scans the install, with a progress bar on a terminal.
// reuse, when not nil, is an earlier graph of the install whose packages
// are not read again.
func (a *app) buildGraph(ctx context.Context, in *install, r graph.Resolver, reuse *graph.Graph) (*graph.Graph, error) {
	p, done := a.progress()
	defer done()
	return in.BuildGraph(ctx, r, check.GraphOptions{Jobs: a.cfg.Jobs, Reuse: reuse, Progress: p})
}

// openGraph opens the install and builds its graph through the engine's
// lookup: the start of every graph command.
func (a *app) openGraph(ctx context.Context) (*install, *graph.Graph, error) {
	in, err := a.openInstall()
	if err != nil {
		return nil, nil, err
	}
	g, err := a.buildGraph(ctx, in, graph.FromSearcher(in.Search), nil)
	if err != nil {
		return nil, nil, err
	}
	return in, g, nil
}

// loadNatives reads the install's binaries once (check.Install.LoadNatives),
// its warnings on stderr.
func (a *app) loadNatives(in *install) (*native.Set, error) { return in.LoadNatives(a.warn) }
