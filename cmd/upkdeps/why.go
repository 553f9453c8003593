package main

import (
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/internal/textw"
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
	return a.emit(cmd.OutOrStdout(), c, func(w io.Writer) error { return writeWhyText(w, c) }, len(c.Hops) == 0 && !c.Map)
}

// writeWhyText prints the chain, one hop per line with its objects.
func writeWhyText(w io.Writer, c graph.Chain) error {
	bw := &textw.Writer{W: w}
	switch {
	case c.Map:
		bw.Printf("%s is a map: the engine loads it by itself\n", c.To)
	case len(c.Hops) == 0 && c.FromRoots:
		bw.Printf("nothing the ini names and no map needs %s\n", c.To)
	case len(c.Hops) == 0:
		bw.Printf("%s does not need %s\n", c.From, c.To)
	}
	for _, h := range c.Hops {
		bw.Printf("%s -> %s\n", h.From, h.To)
		for _, o := range h.Objects {
			bw.Printf("    %s.%s (%s.%s)\n", h.To, o.Path, o.ClassPackage, o.Class)
		}
		if len(h.Objects) == 0 && !strings.Contains(h.From, ".ini:") {
			bw.Printf("    (the package itself)\n")
		}
	}
	return bw.Err
}
