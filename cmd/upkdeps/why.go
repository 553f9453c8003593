package main

import (
	"io"
	"strings"

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

// whyJSON is `why --json` output (docs/json.md): the hops in chain order,
// none when nothing leads to the package or it is a map.
type whyJSON struct {
	SchemaVersion int      `json:"schema_version"`
	Hops          []whyHop `json:"hops"`
}

// whyHop is one hop of why's chain: From is a package name or, for the
// first hop of a chain from a root, the ini line or map that loads To.
type whyHop struct {
	From    string                 `json:"from"`
	To      string                 `json:"to"`
	Objects []graph.ImportedObject `json:"objects"`
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
	var from *graph.Package
	var hops []graph.Hop
	out := []whyHop{}
	if len(args) == 2 {
		if from = g.Package(args[0]); from == nil {
			return noSuchPackage(g, args[0], "")
		}
		hops = g.Why(from, to)
	} else {
		var refs []graph.RootRef
		from, refs, hops = g.WhyRoot(to)
		if from == to && len(refs) == 0 {
			if a.cfg.JSON {
				return writeJSON(cmd.OutOrStdout(), whyJSON{SchemaVersion: 1, Hops: out})
			}
			bw := &errWriter{w: cmd.OutOrStdout()}
			bw.printf("%s is a map: the engine loads it by itself\n", to.Name)
			return bw.err
		}
		if from == nil {
			from = to // nothing leads to it
		}
		if len(refs) > 0 {
			objs := []graph.ImportedObject{}
			if r := refs[0]; r.Object != "" {
				objs = append(objs, graph.ImportedObject{Path: r.Object, Class: "Class", ClassPackage: "Core"})
			}
			out = append(out, whyHop{refs[0].Evidence(), from.Name, objs})
		}
	}
	for _, h := range hops {
		objs := h.Objects
		if objs == nil {
			objs = []graph.ImportedObject{}
		}
		out = append(out, whyHop{h.From.Name, h.To.Name, objs})
	}
	if a.cfg.JSON {
		err = writeJSON(cmd.OutOrStdout(), whyJSON{SchemaVersion: 1, Hops: out})
	} else {
		err = writeWhyText(cmd.OutOrStdout(), out, from, to, len(args) == 1)
	}
	if err == nil && len(out) == 0 {
		return errFindings
	}
	return err
}

// writeWhyText prints the chain, one hop per line with its objects.
func writeWhyText(w io.Writer, out []whyHop, from, to *graph.Package, fromRoots bool) error {
	bw := &errWriter{w: w}
	switch {
	case len(out) == 0 && fromRoots:
		bw.printf("nothing the ini names and no map needs %s\n", to.Name)
	case len(out) == 0:
		bw.printf("%s does not need %s\n", from.Name, to.Name)
	}
	for _, h := range out {
		bw.printf("%s -> %s\n", h.From, h.To)
		for _, o := range h.Objects {
			bw.printf("    %s.%s (%s.%s)\n", h.To, o.Path, o.ClassPackage, o.Class)
		}
		if len(h.Objects) == 0 && !strings.Contains(h.From, ".ini:") {
			bw.printf("    (the package itself)\n")
		}
	}
	return bw.err
}
