package main

import (
	"github.com/spf13/cobra"
)

func newDepsCmd(a *app, reverse bool) *cobra.Command {
	use, short := "deps PKG", "List what a package needs, transitively, with files and depth"
	if reverse {
		use, short = "rdeps PKG", "List what needs a package, transitively, with files and depth"
	}
	var depth int
	cmd := &cobra.Command{
		Use:   use + " [--depth N] [--json]",
		Short: short,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			_, g, err := a.openGraph(cmd.Context())
			if err != nil {
				return err
			}
			p := g.Package(args[0])
			if p == nil {
				return noSuchPackage(g, args[0], " (is it reachable through Paths?)")
			}
			d := depth
			if d == 0 {
				d = -1
			}
			deps := g.DepsOf(p, d, reverse)
			return a.emit(cmd.OutOrStdout(), deps, deps.WriteText, deps.Missing && !reverse)
		},
	}
	cmd.Flags().Bool("json", false, "print the listing as JSON")
	cmd.Flags().IntVar(&depth, "depth", 0, "at most N hops (0 = no limit)")
	return cmd
}
