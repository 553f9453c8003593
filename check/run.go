package check

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/upkdeps/upkdeps/cache"
	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/install"
	"github.com/upkdeps/upkdeps/native"
)

// Options say how Run checks.
type Options struct {
	// WithCache also counts the packages of the download cache
	// (cache.ini), as a client joining a server would have them, and says
	// which findings that removes (Report.WithCache).
	WithCache bool
	// Jobs is the number of goroutines that read packages (0 or less: one
	// per core).
	Jobs int
	// Progress is graph.Options.Progress: told the number of packages to
	// read, it returns what to call after each one (nil: nothing).
	Progress func(total int) func()
	// Warn receives warnings about files left out (a localisation file
	// or a mapvote config that cannot be read), one line each; nil drops
	// them. The install's own (an unreadable binary) go to its
	// install.Options.Warn.
	Warn func(msg string)
	// Preset checks the ServerPackages a mapvote sends while that preset
	// runs (install.Install.ServerPackagesFor; livemap.AllPresets for every one).
	Preset string
}

// Checked is what a report was made from: the graph (the one with the
// download cache under WithCache), the EditPackages sources and the
// natives. The HTML report draws them beside the Report.
type Checked struct {
	Graph   *graph.Graph
	Sources *graph.Sources
	Natives *native.Set
}

// Run checks the install and returns its report and what it was made of.
// It stops with ctx's error when ctx is done.
func Run(ctx context.Context, in *install.Install, opt Options) (*Report, Checked, error) {
	resolver := graph.FromSearcher(in.Search)
	findings, c, err := Findings(ctx, in, resolver, nil, opt)
	if err != nil {
		return nil, c, err
	}
	var wc *WithCache
	if opt.WithCache {
		cached, dir, err := cachedPackages(ctx, in, opt.Jobs)
		if err != nil {
			return nil, c, err
		}
		plain := findings
		findings, c, err = Findings(ctx, in, graph.WithCache(resolver, cached), c.Graph, opt)
		if err != nil {
			return nil, c, err
		}
		_, removed, _ := Diff(plain, findings, Exact)
		wc = &WithCache{Cache: dir, PackagesInCache: len(cached), ResolvedFromCache: []CacheUse{}, FindingsRemoved: removed}
		for _, p := range c.Graph.Packages() {
			if p.FromCache {
				wc.ResolvedFromCache = append(wc.ResolvedFromCache, CacheUse{p.Name, p.Rel})
			}
		}
	}
	addHints(in, findings)
	rep := &Report{WithCache: wc, roots: rootLoads(c.Graph.Roots()),
		SchemaVersion: SchemaVersion, Ini: in.IniPath, Game: in.GameLabel(),
		Platform: string(in.Platform()), PlatformReason: in.Search.Platform().Reason,
		MissingPaths: []string{}, CaseNotes: caseNotes(in.Search), Findings: findings,
	}
	if rep.Findings == nil {
		rep.Findings = []graph.Finding{}
	}
	for _, p := range c.Graph.Packages() {
		var lfs *format.LFSPointerError
		switch {
		case p.Missing():
			continue
		case p.Err == nil:
			rep.PackagesReadable++
		case errors.As(p.Err, &lfs):
			rep.GitLFSPointers++
		}
		rep.PackagesScanned++
	}
	for _, p := range in.Search.MissingPaths() {
		rep.MissingPaths = append(rep.MissingPaths, p.Raw)
	}
	rep.summarize()
	return rep, c, nil
}

// Findings builds the install's graph through r and returns every
// finding, sorted, and what they were made of. reuse is an earlier graph
// whose package reads are reused (or nil). Only opt's Jobs, Progress,
// Warn and Preset are used.
func Findings(ctx context.Context, in *install.Install, r graph.Resolver, reuse *graph.Graph, opt Options) ([]graph.Finding, Checked, error) {
	return findings(ctx, in, install.GraphOptions{Resolver: r, Reuse: reuse}, opt)
}

// findings is Findings with the graph's resolver, reuse and overlay in
// gopt (its Jobs and Progress are opt's).
func findings(ctx context.Context, in *install.Install, gopt install.GraphOptions, opt Options) ([]graph.Finding, Checked, error) {
	gopt.Jobs, gopt.Progress = opt.Jobs, opt.Progress
	// The binaries' natives are read while the graph is built: the
	// sources' scan below needs them, and they need nothing of it.
	defer in.StartNatives()()
	g, err := in.Graph(ctx, gopt)
	if err != nil {
		return nil, Checked{}, err
	}
	// The localisation files are checked beside the sources and the
	// graph's checks: they read the install's ini and searcher (shared
	// read-only) and packages of their own. Their warnings are passed on
	// where a check in turn would give them.
	type intResult struct {
		findings []graph.Finding
		warnings []string
	}
	intDone := make(chan intResult, 1)
	go func() {
		var r intResult
		r.findings = IntFindings(in, opt.Jobs, func(msg string) { r.warnings = append(r.warnings, msg) })
		intDone <- r
	}()
	intWait := sync.OnceValue(func() intResult { return <-intDone })
	defer intWait() // an early return still waits for it
	src, nat, err := in.Sources(ctx, g)
	if err != nil {
		return nil, Checked{}, err
	}
	sp, err := in.ServerPackagesFor(opt.Preset)
	if err != nil {
		return nil, Checked{}, err
	}
	findings, err := g.Check(ctx, graph.CheckOptions{
		ServerPackages: sp,
		EditPackages:   in.Ini.EditPackages(),
		Sources:        src,
		Natives:        nat,
		Stock:          ini.OwnStockOf(in.Game),
		Jobs:           opt.Jobs,
	})
	if err != nil {
		return nil, Checked{}, err
	}
	findings = append(findings, graph.SearchFindings(in.Search)...)
	findings = append(findings, graph.IniFindings(in.Ini)...)
	ints := intWait()
	for _, w := range ints.warnings {
		warnf(opt.Warn, "%s", w)
	}
	findings = append(findings, ints.findings...)
	findings = append(findings, LiveFindings(in, opt.Warn)...)
	in.EditLines(findings)
	noteOutsidePaths(findings, in.Search.Root())
	if f, ok := StockMissing(findings, ini.OwnStockOf(in.Game), in.Game); ok {
		findings = append(findings, f)
	}
	graph.SortFindings(findings)
	return findings, Checked{g, src, nat}, nil
}

// ErrNoCachePath is the error of a check with the download cache
// (Options.WithCache) when the ini sets no CachePath and the install was
// opened with no cache folder (install.Options.CacheDir).
var ErrNoCachePath = install.ArgError{Arg: install.ArgWithCache, Err: errors.New("the ini sets no CachePath and no cache folder was given")}

// cachedPackages lists the usable packages of the install's download
// cache in cache.ini order, and the cache folder relative to the root.
func cachedPackages(ctx context.Context, in *install.Install, jobs int) ([]graph.CachedPackage, string, error) {
	dir := in.Search.CacheDir()
	if dir == "" {
		return nil, "", ErrNoCachePath
	}
	c, err := cache.Open(ctx, dir, cache.Options{Generation: in.Search.Generation(), Ext: in.Search.CacheExt(), Jobs: jobs})
	if err != nil {
		return nil, "", err
	}
	entries := c.Entries()
	slices.SortStableFunc(entries, func(x, y cache.Entry) int { return x.Line - y.Line })
	var out []graph.CachedPackage
	for _, e := range entries {
		if e.File == "" || e.Name == "" || e.Version == 0 || e.State == cache.StateGUIDMismatch {
			continue
		}
		out = append(out, graph.CachedPackage{Name: cache.PackageName(e.Name), Original: e.Name, File: e.File, Rel: in.Search.Rel(e.File)})
	}
	return out, in.Search.Rel(dir), nil
}

func warnf(warn func(string), format string, args ...any) {
	if warn != nil {
		warn(fmt.Sprintf(format, args...))
	}
}
