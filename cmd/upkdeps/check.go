package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/cache"
	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/index/unrealarchive"
	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/native"
	"github.com/upkdeps/upkdeps/search"
)

func newCheckCmd(a *app) *cobra.Command {
	var all, withCache bool
	var indexDB, withMod string
	cmd := &cobra.Command{
		Use:   "check [--ini INI] [--json] [--all] [--with-cache [--cache DIR]] [--index FILE] [--with ARCHIVE|DIR]",
		Short: "Report everything broken in an install: missing packages and objects, collisions, cycles, EditPackages order",
		Long: `check scans every package reachable through the ini's Paths, resolves every import as
the engine's linker does, and reports what is broken: a one-screen summary first, then each
finding with the import chain that makes it matter (root -> ... -> problem). Exit 1 when
there are errors (warnings alone exit 0). --with-cache also counts the packages of the
download cache (cache.ini), as a client joining a server would have them, and says which
findings that removes. --index FILE looks every missing package and object up in a package
index (see 'upkdeps index'): text shows the best candidate of each, JSON all of them.
--with ARCHIVE|DIR asks "will this mod work here?": the check as if the mod's packages were
installed where its layout (System/Foo.u) or the Paths rule puts them, writing nothing; it
prints where each would go, every installed file it would replace or shadow (GUID and size of
both), and the findings the mod adds, removes and changes (exit 1 when it adds or changes errors).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if withMod != "" && cmd.Flags().Changed("index") {
				return usagef("--with and --index: use one at a time")
			}
			a.notesInReport = true
			in, err := a.openInstall()
			if err != nil {
				return err
			}
			rep, err := a.check(cmd, in, withCache)
			if err != nil {
				return err
			}
			if withMod != "" {
				if err := a.checkWithMod(cmd, in, rep, withMod); err != nil {
					return err
				}
				added := 0
				for _, f := range append(rep.With.FindingsAdded, rep.With.FindingsChanged...) {
					if f.Severity == graph.Error {
						added++
					}
				}
				failed := added > 0 || len(rep.With.Unreadable) > 0
				return a.emit(cmd.OutOrStdout(), rep, func(w io.Writer) error { return writeCheckText(w, rep, all) }, failed)
			}
			if cmd.Flags().Changed("index") {
				if err := a.addCandidates(cmd, in, rep, indexDB); err != nil {
					return err
				}
			}
			return a.emit(cmd.OutOrStdout(), rep, func(w io.Writer) error { return writeCheckText(w, rep, all) }, rep.Summary.Errors > 0)
		},
	}
	cmd.Flags().Bool("json", false, "print the report as JSON")
	cmd.Flags().BoolVar(&all, "all", false, "list every object and importer (text output lists the first 10)")
	cmd.Flags().BoolVar(&withCache, "with-cache", false, "also use the packages in the download cache, as a client would")
	cmd.Flags().String("cache", "", "with --with-cache: the cache folder (default: the ini's CachePath)")
	cmd.Flags().StringVar(&withMod, "with", "", "check as if this mod archive or folder were installed (nothing is written)")
	cmd.Flags().StringVar(&indexDB, "index", "", "list candidates for the missing packages and objects from this package index (\"\" or default: the config key db)")
	return cmd
}

// addCandidates looks the report's findings up in the index (check --index).
func (a *app) addCandidates(cmd *cobra.Command, in *install, rep *checkReport, path string) error {
	if path != "" {
		a.cfg.DB = path
	}
	db, err := a.openDB(true)
	if err != nil {
		return err
	}
	defer db.Close()
	cands, err := indexCandidates(cmd.Context(), db, rep.Findings, a.cachePins(in), unrealarchive.GamesFor(in.game.Name))
	if err != nil {
		return err
	}
	rep.Index = &checkIndex{DB: db.Path(), Candidates: cands}
	return nil
}

// checkReport is the output of `check`; its JSON form is documented in
// README.md.
type checkReport struct {
	SchemaVersion   int    `json:"schema_version"`
	Ini             string `json:"ini"`
	Game            string `json:"game"`
	Platform        string `json:"platform"`
	PlatformReason  string `json:"platform_reason"`
	PackagesScanned int    `json:"packages_scanned"`
	// PackagesReadable are the scanned packages whose header and tables
	// parse; GitLFSPointers the scanned files that are Git LFS pointers.
	PackagesReadable int             `json:"packages_readable"`
	GitLFSPointers   int             `json:"git_lfs_pointers"`
	MissingPaths     []string        `json:"missing_paths"`
	CaseNotes        []caseNote      `json:"case_notes"`
	Summary          checkSummary    `json:"summary"`
	Findings         []graph.Finding `json:"findings"`
	WithCache        *withCacheInfo  `json:"with_cache,omitempty"`
	Index            *checkIndex     `json:"index,omitempty"`
	With             *withInfo       `json:"with,omitempty"`
	// roots maps the findings' root evidence to its ini line, for the
	// text report's order (rankFindings).
	roots map[string]ini.Reference
}

// checkIndex is what check --index adds: the candidates of each finding
// the index can help with, in finding order.
type checkIndex struct {
	DB         string              `json:"db"`
	Candidates []findingCandidates `json:"candidates"`
}

// withCacheInfo says what the download cache changes (check --with-cache).
type withCacheInfo struct {
	Cache             string          `json:"cache"`
	PackagesInCache   int             `json:"packages_in_cache"`
	ResolvedFromCache []cacheUse      `json:"resolved_from_cache"`
	FindingsRemoved   []graph.Finding `json:"findings_removed"`
}

type cacheUse struct {
	Name string `json:"name"`
	File string `json:"file"`
}

type checkSummary struct {
	Errors   int                       `json:"errors"`
	Warnings int                       `json:"warnings"`
	ByKind   map[graph.FindingKind]int `json:"by_kind"`
	// ErrorsByKind and WarningsByKind split ByKind by severity.
	ErrorsByKind   map[graph.FindingKind]int `json:"errors_by_kind"`
	WarningsByKind map[graph.FindingKind]int `json:"warnings_by_kind"`
	// FixFirst are the three most important findings (rankFindings), what
	// the text report leads with.
	FixFirst []fixFirst `json:"fix_first"`
}

// fixFirst names one of the most important findings and why it ranks so.
type fixFirst struct {
	Kind     graph.FindingKind `json:"kind"`
	Severity graph.Severity    `json:"severity"`
	Package  string            `json:"package"`
	Why      string            `json:"why"`
}

func (a *app) check(cmd *cobra.Command, in *install, withCache bool) (*checkReport, error) {
	rep, _, err := a.checkRun(cmd, in, withCache)
	return rep, err
}

// checked is what a check's report was made from: its graph (the one
// with the cache for --with-cache) and the EditPackages sources. report
// draws them beside the same checkReport.
type checked struct {
	g   *graph.Graph
	src *graph.Sources
	nat *native.Set
}

// checkRun makes the report of check and returns the graph and sources
// it was made from.
func (a *app) checkRun(cmd *cobra.Command, in *install, withCache bool) (*checkReport, checked, error) {
	resolver := graph.FromSearcher(in.search)
	findings, c, err := a.checkSources(cmd, in, resolver, nil)
	if err != nil {
		return nil, c, err
	}
	var wc *withCacheInfo
	if withCache {
		cached, dir, err := a.cachedPackages(in)
		if err != nil {
			return nil, c, err
		}
		plain := findings
		findings, c, err = a.checkSources(cmd, in, graph.WithCache(resolver, cached), c.g)
		if err != nil {
			return nil, c, err
		}
		wc = &withCacheInfo{Cache: dir, PackagesInCache: len(cached), ResolvedFromCache: []cacheUse{},
			FindingsRemoved: removedFindings(plain, findings)}
		for _, p := range c.g.Packages() {
			if p.FromCache {
				wc.ResolvedFromCache = append(wc.ResolvedFromCache, cacheUse{p.Name, p.Rel})
			}
		}
	}
	rep := &checkReport{WithCache: wc, roots: rootLoads(c.g.Roots()),
		SchemaVersion: 3, Ini: in.iniPath, Game: in.gameLabel(),
		Platform: string(in.platform()), PlatformReason: in.search.Platform().Reason,
		MissingPaths: []string{}, CaseNotes: caseNotes(in.search), Findings: findings,
		Summary: checkSummary{ByKind: map[graph.FindingKind]int{}, ErrorsByKind: map[graph.FindingKind]int{}, WarningsByKind: map[graph.FindingKind]int{}},
	}
	if rep.Findings == nil {
		rep.Findings = []graph.Finding{}
	}
	for _, p := range c.g.Packages() {
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
	for _, p := range in.search.MissingPaths() {
		rep.MissingPaths = append(rep.MissingPaths, p.Raw)
	}
	rep.Summary.FixFirst = []fixFirst{}
	for _, r := range rankFindings(findings, rep.roots)[:min(3, len(findings))] {
		rep.Summary.FixFirst = append(rep.Summary.FixFirst, fixFirst{r.Kind, r.Severity, r.Package, r.why()})
	}
	for _, f := range findings {
		rep.Summary.ByKind[f.Kind]++
		if f.Severity == graph.Error {
			rep.Summary.Errors++
			rep.Summary.ErrorsByKind[f.Kind]++
		} else {
			rep.Summary.Warnings++
			rep.Summary.WarningsByKind[f.Kind]++
		}
	}
	return rep, c, nil
}

// checkWith builds the graph through r and returns every finding, sorted.
// reuse is an earlier graph whose package reads are reused (or nil).
func (a *app) checkWith(cmd *cobra.Command, in *install, r graph.Resolver, reuse *graph.Graph) ([]graph.Finding, *graph.Graph, error) {
	findings, c, err := a.checkSources(cmd, in, r, reuse)
	return findings, c.g, err
}

// checkSources is checkWith that also returns the EditPackages sources
// the findings were made with.
func (a *app) checkSources(cmd *cobra.Command, in *install, r graph.Resolver, reuse *graph.Graph) ([]graph.Finding, checked, error) {
	g, err := a.buildGraph(cmd.Context(), in, r, reuse)
	if err != nil {
		return nil, checked{}, err
	}
	nat, err := a.loadNatives(in)
	if err != nil {
		return nil, checked{}, err
	}
	src, err := g.ScanSources(in.search.Root(), in.ini.EditPackages(), nat)
	if err != nil {
		return nil, checked{}, err
	}
	findings := g.Check(graph.CheckOptions{
		ServerPackages: in.ini.ServerPackages(),
		EditPackages:   in.ini.EditPackages(),
		Sources:        src,
		Natives:        nat,
		Jobs:           a.cfg.Jobs,
	})
	findings = append(findings, graph.SearchFindings(in.search)...)
	findings = append(findings, graph.IniFindings(in.ini)...)
	graph.AddEditLines(findings, in.ini)
	graph.SortFindings(findings)
	return findings, checked{g, src, nat}, nil
}

// cachedPackages lists the usable packages of the install's download
// cache in cache.ini order.
func (a *app) cachedPackages(in *install) ([]graph.CachedPackage, string, error) {
	dir := in.search.CacheDir()
	if dir == "" {
		return nil, "", usagef("--with-cache: the ini sets no CachePath; give the folder with --cache DIR")
	}
	c, err := cache.Open(dir, cache.Options{Generation: in.search.Generation(), Ext: in.search.CacheExt(), Jobs: a.cfg.Jobs})
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
		out = append(out, graph.CachedPackage{Name: cache.PackageName(e.Name), Original: e.Name, File: e.File, Rel: in.search.Rel(e.File)})
	}
	return out, in.search.Rel(dir), nil
}

// removedFindings returns the findings of before that after no longer has.
func removedFindings(before, after []graph.Finding) []graph.Finding {
	key := func(f graph.Finding) string {
		return string(f.Kind) + "\x00" + f.Package + "\x00" + f.Message + "\x00" + strings.Join(f.Objects, "\x00")
	}
	have := map[string]bool{}
	for _, f := range after {
		have[key(f)] = true
	}
	out := []graph.Finding{}
	for _, f := range before {
		if !have[key(f)] {
			out = append(out, f)
		}
	}
	return out
}

// mostNeeded names the missing packages with the most importers and ini
// lines, most first (ties by name), as "Name (N)".
func mostNeeded(fs []graph.Finding, n int) []string {
	var missing []graph.Finding
	for _, f := range fs {
		if f.Kind == graph.MissingPackage {
			missing = append(missing, f)
		}
	}
	need := func(f graph.Finding) int { return len(f.NeededBy) + len(f.Roots) }
	slices.SortStableFunc(missing, func(a, b graph.Finding) int { return need(b) - need(a) })
	var out []string
	for _, f := range missing[:min(n, len(missing))] {
		out = append(out, fmt.Sprintf("%s (%d)", f.Package, need(f)))
	}
	return out
}

// textLimit is how many objects/importers text output lists without --all.
const textLimit = 10

func writeCheckText(w io.Writer, rep *checkReport, all bool) error {
	bw := &errWriter{w: w}
	bw.printf("upkdeps check: %s (%s; %s)\n", rep.Ini, rep.Game, rulesLabel(rep.Platform))
	bw.printf("%d packages scanned", rep.PackagesScanned)
	if rep.PackagesReadable < rep.PackagesScanned {
		bw.printf(", %d of %d readable", rep.PackagesReadable, rep.PackagesScanned)
		if rep.GitLFSPointers > 0 {
			bw.printf(" (%d Git LFS pointers: fetch the files with git lfs pull)", rep.GitLFSPointers)
		}
	}
	if len(rep.MissingPaths) > 0 {
		bw.printf("; Paths folders that do not exist: %s", strings.Join(rep.MissingPaths, ", "))
	}
	for _, n := range rep.CaseNotes {
		bw.printf("\ncase: %s", n.Message)
	}
	bw.printf("\n%d error(s), %d warning(s)\n", rep.Summary.Errors, rep.Summary.Warnings)
	if wc := rep.WithCache; wc != nil {
		bw.printf("With the download cache (%s, %d usable packages):", wc.Cache, wc.PackagesInCache)
		if len(wc.ResolvedFromCache) == 0 {
			bw.printf(" nothing the install lacks is in it\n")
		} else {
			var names []string
			for _, u := range wc.ResolvedFromCache {
				names = append(names, u.Name+" ("+u.File+")")
			}
			bw.printf(" it provides %s\n", strings.Join(names, ", "))
		}
		bw.printf("%d finding(s) of a plain check disappear with the cache:\n", len(wc.FindingsRemoved))
		for _, f := range wc.FindingsRemoved {
			bw.printf("  - %s %s: %s\n", f.Kind, f.Package, f.Message)
		}
	}
	if rep.With != nil {
		writeWithText(bw, rep.With, all)
		return bw.err
	}
	if len(rep.Findings) == 0 {
		bw.printf("\nNo problems found.\n")
		return bw.err
	}
	writeKindTable(bw, rep.Findings)
	bw.printf("\nFix first:\n")
	for i, r := range rep.Summary.FixFirst {
		bw.printf("  %d. %s %s: %s (%s)\n", i+1, strings.ToUpper(string(r.Severity)), r.Kind, r.Package, r.Why)
	}
	ranked := rankFindings(rep.Findings, rep.roots)
	if top := mostNeeded(rep.Findings, 10); len(top) > 0 {
		bw.printf("\nMost needed missing packages: %s\n", strings.Join(top, ", "))
	}
	for _, r := range ranked {
		writeFindingText(bw, r.Finding, all)
		if rep.Index != nil {
			writeCandidatesText(bw, rep.Index, r.Finding)
		}
	}
	return bw.err
}

// writeKindTable prints how many findings of each kind there are, errors
// and warnings apart (a kind such as missing_package has both).
func writeKindTable(bw *errWriter, fs []graph.Finding) {
	type count struct{ errors, warnings int }
	counts := map[graph.FindingKind]*count{}
	for _, f := range fs {
		c := counts[f.Kind]
		if c == nil {
			c = &count{}
			counts[f.Kind] = c
		}
		if f.Severity == graph.Error {
			c.errors++
		} else {
			c.warnings++
		}
	}
	kinds := make([]graph.FindingKind, 0, len(counts))
	for k := range counts {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	bw.printf("\n  %-18s %6s %8s\n", "kind", "errors", "warnings")
	for _, k := range kinds {
		bw.printf("  %-18s %6d %8d\n", k, counts[k].errors, counts[k].warnings)
	}
}

// writeCandidatesText prints the best indexed candidate of a finding.
func writeCandidatesText(bw *errWriter, ix *checkIndex, f graph.Finding) {
	for _, c := range ix.Candidates {
		if c.Kind != f.Kind || c.Package != f.Package {
			continue
		}
		what := c.Package
		if c.Object != "" {
			what = c.Package + "." + c.Object
		}
		if b := bestOf(c); b == nil {
			bw.printf("  index: no copy of %s\n", what)
		} else {
			note := ""
			if c.GUID != "" && strings.EqualFold(b.GUID, c.GUID) {
				note = ", the GUID the download cache pins"
			}
			bw.printf("  index: %s in %s (GUID %s%s; %d candidate(s))\n", what, b.Where(), guidOr(b.GUID), note, len(c.Candidates))
		}
		if len(c.Archive) > 0 {
			v := c.Archive[0]
			it := v.Items[0]
			dl := it.Download
			if dl == "" {
				dl = "no working download known"
			}
			unfit := ""
			if v.Unfit {
				unfit = " (cannot hold the classes imported: no source)"
			}
			bw.printf("  unreal archive: %s (%d bytes) in %s%s, %d version(s): %s\n", v.File, v.Size, it.Name, unfit, len(c.Archive), dl)
		}
	}
}

func writeFindingText(bw *errWriter, f graph.Finding, all bool) {
	bw.printf("\n%s %s: %s\n", strings.ToUpper(string(f.Severity)), f.Kind, f.Package)
	bw.printf("  %s\n", f.Message)
	list := func(label string, items []string) {
		if len(items) == 0 {
			return
		}
		shown := items
		if !all && len(shown) > textLimit {
			shown = shown[:textLimit]
		}
		bw.printf("  %s (%d):\n", label, len(items))
		for _, it := range shown {
			bw.printf("    %s\n", it)
		}
		if len(shown) < len(items) {
			bw.printf("    ... and %d more (--all or --json lists them)\n", len(items)-len(shown))
		}
	}
	list("objects", f.Objects)
	list("needed by", f.NeededBy)
	list("named in the ini", f.Roots)
	if f.Kind != graph.Cycle {
		list("packages", f.Packages)
	} else {
		bw.printf("  packages: %s\n", strings.Join(f.Packages, ", "))
	}
	if len(f.Chain) > 0 {
		if f.Kind == graph.Cycle || f.Kind == graph.EditOrder || f.Kind == graph.EditMissing || f.Kind == graph.UnknownClass {
			bw.printf("  evidence:\n")
			for _, c := range f.Chain {
				bw.printf("    %s\n", c)
			}
			return
		}
		bw.printf("  chain:\n")
		for i, c := range f.Chain {
			if i == 0 {
				bw.printf("    %s\n", c)
			} else {
				bw.printf("    -> %s\n", c)
			}
		}
	}
}

// caseNote is a search.CaseNote in check --json (README.md).
type caseNote struct {
	Setting string   `json:"setting"`
	Value   string   `json:"value"`
	Kind    string   `json:"kind"`
	Want    string   `json:"want"`
	Have    string   `json:"have"`
	Folder  string   `json:"folder"`
	Files   []string `json:"files"`
	Count   int      `json:"count"`
	Message string   `json:"message"`
}

// caseNotes returns the install's case notes, [] when none.
func caseNotes(s *search.Searcher) []caseNote {
	out := []caseNote{}
	for _, n := range s.CaseNotes() {
		out = append(out, caseNote{Setting: n.Setting, Value: n.Value, Kind: n.Kind, Want: n.Want, Have: n.Have,
			Folder: n.Folder, Files: orEmpty(n.Files), Count: n.Count, Message: n.Message})
	}
	return out
}
