package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/check"
	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/index/unrealarchive"
	"github.com/upkdeps/upkdeps/install"
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
				return a.emit(cmd.OutOrStdout(), rep, func(w io.Writer) error { return rep.WriteText(w, all) }, rep.With.Fails())
			}
			if cmd.Flags().Changed("index") {
				if err := a.addCandidates(cmd, in, rep, indexDB); err != nil {
					return err
				}
			}
			return a.finishCheck(cmd, in, rep, &ci, func(w io.Writer) error { return rep.WriteText(w, all) })
		},
	}
	cmd.Flags().Bool("json", false, "print the report as JSON")
	cmd.Flags().BoolVar(&all, "all", false, "list every object and importer (text output lists the first 10)")
	cmd.Flags().BoolVar(&withCache, "with-cache", false, "also use the packages in the download cache, as a client would")
	cmd.Flags().String("cache", "", "with --with-cache: the cache folder (default: the ini's CachePath)")
	cmd.Flags().StringVar(&withMod, "with", "", "check as if this mod archive or folder were installed (nothing is written)")
	cmd.Flags().StringVar(&a.preset, "preset", "", `check the ServerPackages a mapvote sends while this preset runs ("Category/Name", "*" for every preset)`)
	addServerFlags(cmd.Flags())
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
