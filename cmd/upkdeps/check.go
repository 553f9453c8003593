package main

import (
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/check"
	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/index/unrealarchive"
	"github.com/upkdeps/upkdeps/install"
	"github.com/upkdeps/upkdeps/internal/textw"
)

func newCheckCmd(a *app) *cobra.Command {
	var all, withCache bool
	var indexDB, withMod string
	var ci checkCI
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
				opt, done := a.checkOptions(false)
				w, err := check.RunWith(cmd.Context(), in, rep.Findings, withMod, check.WithOptions{Options: opt})
				done()
				if err != nil {
					return err
				}
				rep.With = w
				return a.emit(cmd.OutOrStdout(), rep, func(w io.Writer) error { return writeCheckText(w, rep, all) }, rep.With.Fails())
			}
			if cmd.Flags().Changed("index") {
				if err := a.addCandidates(cmd, in, rep, indexDB); err != nil {
					return err
				}
			}
			return a.finishCheck(cmd, in, rep, &ci, func(w io.Writer) error { return writeCheckText(w, rep, all) })
		},
	}
	cmd.Flags().Bool("json", false, "print the report as JSON")
	cmd.Flags().BoolVar(&all, "all", false, "list every object and importer (text output lists the first 10)")
	cmd.Flags().BoolVar(&withCache, "with-cache", false, "also use the packages in the download cache, as a client would")
	cmd.Flags().String("cache", "", "with --with-cache: the cache folder (default: the ini's CachePath)")
	cmd.Flags().StringVar(&withMod, "with", "", "check as if this mod archive or folder were installed (nothing is written)")
	cmd.Flags().StringVar(&a.preset, "preset", "", `check the ServerPackages a mapvote sends while this preset runs ("Category/Name", "*" for every preset)`)
	cmd.Flags().StringVar(&indexDB, "index", "", "list candidates for the missing packages and objects from this package index"+indexFlagHelp)
	addCheckCIFlags(cmd, &ci)
	return cmd
}

// addCandidates looks the report's findings up in the index (check --index).
func (a *app) addCandidates(cmd *cobra.Command, in *install.Install, rep *check.Report, path string) error {
	if path != "" && path != defaultIndex {
		a.cfg.DB = path
	}
	db, err := a.openDB(true)
	if err != nil {
		return err
	}
	defer db.Close()
	rep.Index, err = check.Candidates(cmd.Context(), db, rep.Findings, in.CachePins(cmd.Context(), a.cfg.Jobs), unrealarchive.GamesFor(in.Game.Name))
	return err
}

func (a *app) check(cmd *cobra.Command, in *install.Install, withCache bool) (*check.Report, error) {
	rep, _, err := a.checkRun(cmd, in, withCache)
	return rep, err
}

// checkRun makes the report of check and returns the graph and sources
// it was made from.
func (a *app) checkRun(cmd *cobra.Command, in *install.Install, withCache bool) (*check.Report, check.Checked, error) {
	opt, done := a.checkOptions(withCache)
	defer done()
	return check.Run(cmd.Context(), in, opt)
}

// checkWith builds the graph through r and returns every finding, sorted.
// reuse is an earlier graph whose package reads are reused (or nil).
func (a *app) checkWith(cmd *cobra.Command, in *install.Install, r graph.Resolver, reuse *graph.Graph) ([]graph.Finding, *graph.Graph, error) {
	opt, done := a.checkOptions(false)
	defer done()
	findings, c, err := check.Findings(cmd.Context(), in, r, reuse, opt)
	return findings, c.Graph, err
}

// textLimit is how many objects/importers text output lists without --all.
const textLimit = 10

func writeCheckText(w io.Writer, rep *check.Report, all bool) error {
	bw := &textw.Writer{W: w}
	bw.Printf("upkdeps check: %s (%s; %s)\n", rep.Ini, rep.Game, install.RulesLabel(rep.Platform))
	bw.Printf("%d packages scanned", rep.PackagesScanned)
	if rep.PackagesReadable < rep.PackagesScanned {
		bw.Printf(", %d of %d readable", rep.PackagesReadable, rep.PackagesScanned)
		if rep.GitLFSPointers > 0 {
			bw.Printf(" (%d Git LFS pointers: fetch the files with git lfs pull)", rep.GitLFSPointers)
		}
	}
	if len(rep.MissingPaths) > 0 {
		bw.Printf("; Paths folders that do not exist: %s", strings.Join(rep.MissingPaths, ", "))
	}
	for _, n := range rep.CaseNotes {
		bw.Printf("\ncase: %s", n.Message)
	}
	bw.Printf("\n%d error(s), %d warning(s)\n", rep.Summary.Errors, rep.Summary.Warnings)
	if wc := rep.WithCache; wc != nil {
		bw.Printf("With the download cache (%s, %d usable packages):", wc.Cache, wc.PackagesInCache)
		if len(wc.ResolvedFromCache) == 0 {
			bw.Printf(" nothing the install lacks is in it\n")
		} else {
			var names []string
			for _, u := range wc.ResolvedFromCache {
				names = append(names, u.Name+" ("+u.File+")")
			}
			bw.Printf(" it provides %s\n", strings.Join(names, ", "))
		}
		bw.Printf("%d finding(s) of a plain check disappear with the cache:\n", len(wc.FindingsRemoved))
		for _, f := range wc.FindingsRemoved {
			bw.Printf("  - %s %s: %s\n", f.Kind, f.Package, f.Message)
		}
	}
	if rep.With != nil {
		writeWithText(bw, rep.With, all)
		return bw.Err
	}
	if len(rep.Findings) == 0 {
		bw.Printf("\nNo problems found.\n")
		return bw.Err
	}
	writeKindTable(bw, rep.Summary)
	bw.Printf("\nFix first:\n")
	for i, r := range rep.Summary.FixFirst {
		bw.Printf("  %d. %s %s: %s (%s)\n", i+1, strings.ToUpper(string(r.Severity)), r.Kind, r.Package, r.Why)
	}
	if top := rep.MostNeeded(10); len(top) > 0 {
		label := "Most needed missing packages"
		if rep.Summary.ByKind[graph.StockMissing] > 0 {
			label += " (not the game's own)"
		}
		bw.Printf("\n%s: %s", label, top[0])
		for _, n := range top[1:] {
			bw.Printf(", %s", n)
		}
		bw.Printf("\n")
	}
	for _, f := range rep.Ranked() {
		writeFindingText(bw, f, all)
		if rep.Index != nil {
			writeCandidatesText(bw, rep.Index, f)
		}
	}
	return bw.Err
}

// writeKindTable prints the summary's count of each kind, errors and
// warnings apart (a kind such as missing_package has both).
func writeKindTable(bw *textw.Writer, sum check.Summary) {
	kinds := slices.Sorted(maps.Keys(sum.ByKind))
	bw.Printf("\n  %-18s %6s %8s\n", "kind", "errors", "warnings")
	for _, k := range kinds {
		bw.Printf("  %-18s %6d %8d\n", k, sum.ErrorsByKind[k], sum.WarningsByKind[k])
	}
}

// writeCandidatesText prints the best indexed candidate of a finding.
func writeCandidatesText(bw *textw.Writer, ix *check.Index, f graph.Finding) {
	for _, c := range ix.Candidates {
		if c.Kind != f.Kind || c.Package != f.Package {
			continue
		}
		what := c.Package
		if c.Object != "" {
			what = c.Package + "." + c.Object
		}
		if b := c.Best(); b == nil {
			bw.Printf("  index: no copy of %s\n", what)
		} else {
			note := ""
			if c.GUID != "" && strings.EqualFold(b.GUID, c.GUID) {
				note = ", the GUID the download cache pins"
			}
			bw.Printf("  index: %s in %s (GUID %s%s; %d candidate(s))\n", what, b.Where(), guidOr(b.GUID), note, len(c.Candidates))
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
			bw.Printf("  unreal archive: %s (%d bytes) in %s%s, %d version(s): %s\n", v.File, v.Size, it.Name, unfit, len(c.Archive), dl)
		}
	}
}

func writeFindingText(bw *textw.Writer, f graph.Finding, all bool) {
	bw.Printf("\n%s %s: %s\n", strings.ToUpper(string(f.Severity)), f.Kind, f.Package)
	bw.Printf("  %s\n", f.Message)
	list := func(label string, items []string) {
		if len(items) == 0 {
			return
		}
		shown := items
		if !all && len(shown) > textLimit {
			shown = shown[:textLimit]
		}
		bw.Printf("  %s (%d):\n", label, len(items))
		for _, it := range shown {
			bw.Printf("    %s\n", it)
		}
		if len(shown) < len(items) {
			bw.Printf("    ... and %d more (--all or --json lists them)\n", len(items)-len(shown))
		}
	}
	list("objects", graph.ObjectStrings(f.Objects))
	list("needed by", f.NeededBy)
	list("named in the ini", f.Roots)
	if f.Kind != graph.Cycle {
		list("packages", f.Packages)
	} else {
		bw.Printf("  packages: %s\n", strings.Join(f.Packages, ", "))
	}
	if len(f.Chain) > 0 {
		if f.Kind == graph.Cycle || f.Kind == graph.EditOrder || f.Kind == graph.EditMissing || f.Kind == graph.UnknownClass {
			bw.Printf("  evidence:\n")
			for _, c := range f.Chain {
				bw.Printf("    %s\n", c)
			}
			return
		}
		bw.Printf("  chain:\n")
		for i, c := range f.Chain {
			if i == 0 {
				bw.Printf("    %s\n", c)
			} else {
				bw.Printf("    -> %s\n", c)
			}
		}
	}
}
