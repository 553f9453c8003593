package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/check"
	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/install"
	"github.com/upkdeps/upkdeps/internal/progress"
)

// openInstall opens the install the flags name (--ini, else the ini found
// in . and ./System; --game, else guessed; --platform; --cache), its
// warnings on stderr: every command's one way in.
func (a *app) openInstall() (*install.Install, error) {
	return install.Open(install.Options{Ini: a.cfg.Ini, Game: a.cfg.Game, Platform: a.cfg.Platform, CacheDir: a.cfg.Cache,
		Mutators: a.cfg.Mutators, URL: a.cfg.URL, NotesInReport: a.notesInReport, SettingsAreErrors: a.settingsAreErrors, Warn: a.warn, Name: flagOf})
}

// argFlags are the flags of the options an install.ArgError names.
var argFlags = map[string]string{
	install.ArgIni: "--ini", install.ArgGame: "--game", install.ArgPlatform: "--platform", install.ArgCacheDir: "--cache",
	install.ArgWithCache: "--with-cache", install.ArgWith: "--with", install.ArgPreset: "--preset", install.ArgMutators: "--mutators", install.ArgURL: "--url",
}

// flagOf names a library option (install.ArgGame) by its flag.
func flagOf(arg string) string {
	if f, ok := argFlags[arg]; ok {
		return f
	}
	return arg
}

// argError turns a library's install.ArgError into a usage error (exit 2)
// in the command line's words; other errors are returned as they are.
func (a *app) argError(err error) error {
	var ae install.ArgError
	if !errors.As(err, &ae) {
		return err
	}
	switch {
	case errors.Is(err, check.ErrNoCachePath):
		return usagef("%s: the ini sets no CachePath; give the folder with --cache DIR", flagOf(ae.Arg))
	case ae.Arg == install.ArgIni && a.cfg.Ini == "":
		return usagef("no --ini given and %w", ae.Err)
	case ae.Arg == install.ArgIni || ae.Arg == install.ArgWith:
		return usagef("%s %w", flagOf(ae.Arg), ae.Err)
	case ae.Arg == install.ArgMutators || ae.Arg == install.ArgURL:
		return usagef("%s: %w", flagOf(ae.Arg), ae.Err)
	}
	// A game, platform or preset the library does not know: its message
	// names the kind of value.
	return usageError{ae.Err}
}

// mapArgErrors makes every command below cmd return a library's ArgError
// as argError does.
func mapArgErrors(a *app, cmd *cobra.Command) {
	if run := cmd.RunE; run != nil {
		cmd.RunE = func(c *cobra.Command, args []string) error { return a.argError(run(c, args)) }
	}
	for _, sub := range cmd.Commands() {
		mapArgErrors(a, sub)
	}
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

// openGraph opens the install and builds its graph through the engine's
// lookup, with a progress bar on a terminal: the start of every graph
// command.
func (a *app) openGraph(ctx context.Context) (*install.Install, *graph.Graph, error) {
	in, err := a.openInstall()
	if err != nil {
		return nil, nil, err
	}
	g, err := a.buildGraph(ctx, in)
	if err != nil {
		return nil, nil, err
	}
	return in, g, nil
}

// buildGraph builds in's graph with the command's jobs and progress.
func (a *app) buildGraph(ctx context.Context, in *install.Install) (*graph.Graph, error) {
	p, done := a.progress()
	defer done()
	return in.Graph(ctx, install.GraphOptions{Jobs: a.cfg.Jobs, Progress: p})
}
