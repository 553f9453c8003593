package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/graph"
)

func newWhyCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "why [FROM] TO [--json]",
		Short: "Show the shortest import chain from one package (or, without FROM, from the ini or a map) to another, object by object",
		Long: `why prints the shortest import chain FROM -> ... -> TO, with the objects each hop imports.
Without FROM, the chain starts at what makes the engine load anything at all: the nearest ini
line (ServerPackages, ServerActors, DefaultGame, ...) or map that leads to TO.`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.runWhy(cmd, args)
		},
	}
	cmd.Flags().Bool("json", false, "print the chain as JSON")
	return cmd
}

// runWhy finds the chain and prints it (exit 1 when there is none).
func (a *app) runWhy(cmd *cobra.Command, args []string) error {
	_, g, err := a.openGraph(cmd.Context())
	if err != nil {
		return err
	}
	to := g.Package(args[len(args)-1])
	if to == nil {
		return noSuchPackage(g, args[len(args)-1], "")
	}
	var c graph.Chain
	if len(args) == 2 {
		from := g.Package(args[0])
		if from == nil {
			return noSuchPackage(g, args[0], "")
		}
		c = g.ChainOf(from, to)
	} else {
		c = g.RootChain(to)
	}
	return a.emit(cmd.OutOrStdout(), c, func(w io.Writer) error { return c.WriteText(w) }, len(c.Hops) == 0 && !c.Map)
}
