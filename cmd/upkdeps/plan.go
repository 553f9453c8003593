package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/index/unrealarchive"
)

func newPlanCmd(a *app) *cobra.Command {
	var verify string
	cmd := &cobra.Command{
		Use:   "plan [--index FILE] [--ini INI] [--json] [--verify FOLDER]",
		Short: "The fewest Unreal Archive downloads that bring the install's missing packages",
		Long: `plan takes check's missing packages and proposes the smallest set of Unreal Archive items
(see 'index add --unreal-archive') that provides them: exact while the choice is small,
greedy beyond (the bound is printed), preferring items with a working direct download,
primaries over variations and smaller archives. It closes over what the chosen items' own
files import (the archive's dependency hints) that the install also lacks, and lists the
packages no item provides. Only items of the install's game are used; a package the game
ships is never taken from an item that bundles it, and a missing code package is never
provided by a sound or texture file of the same name.

--verify FOLDER checks the archives downloaded into FOLDER against the catalogue: each file's
SHA-1 and size must be those of an item. Then 'index add FOLDER' and 'fix' install them.
Exit 1 when something stays unprovided (or a downloaded file does not match).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if p, _ := cmd.Flags().GetString("index"); p != "" && p != defaultIndex {
				a.cfg.DB = p
			}
			db, err := a.openDB(true)
			if err != nil {
				return err
			}
			defer db.Close()
			if verify != "" {
				items, err := db.ArchiveItems(cmd.Context())
				if err != nil {
					return err
				}
				rep, err := unrealarchive.Verify(cmd.Context(), verify, items)
				if err != nil {
					return err
				}
				return a.emit(cmd.OutOrStdout(), rep, func(w io.Writer) error { return rep.WriteText(w) }, rep.Mismatches > 0)
			}
			in, err := a.openInstall()
			if err != nil {
				return err
			}
			games := unrealarchive.GamesFor(in.Game.Name)
			if len(games) == 0 {
				return fmt.Errorf("plan: the Unreal Archive has no content for the game %s (give --game)", in.GameLabel())
			}
			findings, g, err := a.checkWith(cmd, in, graph.FromSearcher(in.Search), nil)
			if err != nil {
				return err
			}
			items, err := db.ArchiveItems(cmd.Context(), games...)
			if err != nil {
				return err
			}
			req := unrealarchive.Request(g, findings, games)
			res := unrealarchive.Plan(items, req)
			rep := unrealarchive.NewPlanReport(unrealarchive.Install{Ini: in.IniPath, Game: in.GameLabel(), Platform: string(in.Platform()), Index: db.Path()},
				len(items), req, res)
			return a.emit(cmd.OutOrStdout(), rep, func(w io.Writer) error { return rep.WriteText(w) }, len(rep.Unprovided) > 0)
		},
	}
	addIndexFlag(cmd.Flags(), "the package index database", false)
	cmd.Flags().Bool("json", false, "print the report as JSON")
	cmd.Flags().StringVar(&verify, "verify", "", "check the archives downloaded into this folder against the catalogue")
	return cmd
}
