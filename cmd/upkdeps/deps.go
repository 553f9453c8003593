package main

import (
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/graph"
)

// depsJSON is `deps --json` and `rdeps --json` output (docs/json.md).
type depsJSON struct {
	SchemaVersion int        `json:"schema_version"`
	Package       string     `json:"package"` // the package asked about, as the install spells it
	Entries       []depEntry `json:"entries"` // in depth order
}

// depEntry is one row of `deps`/`rdeps` output (docs/json.md).
type depEntry struct {
	Name  string `json:"name"`
	File  string `json:"file"` // "" when missing; the ini for an ini line
	Depth int    `json:"depth"`
	Via   string `json:"via,omitempty"`
	Kind  string `json:"kind"` // the package kind, or "ini" for an ini line (rdeps)
	Line  int    `json:"line,omitempty"`
}

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
				return usagef("%s: no such package in the install (is it reachable through Paths?)", args[0])
			}
			d := depth
			if d == 0 {
				d = -1
			}
			entries := []depEntry{}
			missing := false
			reached := g.Reach([]*graph.Package{p}, d, reverse)
			for _, r := range reached {
				if r.Package == p {
					continue
				}
				e := depEntry{Name: r.Package.Name, File: r.Package.Rel, Depth: r.Depth, Kind: string(r.Package.Kind)}
				if r.Via != nil {
					e.Via = r.Via.Name
				}
				missing = missing || r.Package.Missing()
				entries = append(entries, e)
			}
			if reverse {
				entries = withIniLines(g, reached, d, entries)
			}
			if a.cfg.JSON {
				if err := writeJSON(cmd.OutOrStdout(), depsJSON{SchemaVersion: 1, Package: p.Name, Entries: entries}); err != nil {
					return err
				}
			} else {
				bw := &errWriter{w: cmd.OutOrStdout()}
				w := 7
				for _, e := range entries {
					w = max(w, len(e.Name))
				}
				bw.printf("%-5s  %-*s  %-32s  %s\n", "DEPTH", w, "PACKAGE", "FILE", "VIA")
				for _, e := range entries {
					file := e.File
					if file == "" {
						file = "MISSING"
					}
					bw.printf("%5d  %-*s  %-32s  %s\n", e.Depth, w, e.Name, file, e.Via)
				}
				if bw.err != nil {
					return bw.err
				}
			}
			if missing && !reverse {
				return errFindings
			}
			return nil
		},
	}
	cmd.Flags().Bool("json", false, "print the listing as JSON")
	cmd.Flags().IntVar(&depth, "depth", 0, "at most N hops (0 = no limit)")
	return cmd
}

// withIniLines adds to an rdeps listing the ini lines that name p or a
// package that needs it, one hop further than the package they name, and
// keeps the listing in depth order.
func withIniLines(g *graph.Graph, reached []graph.Reached, maxDepth int, entries []depEntry) []depEntry {
	depth := map[*graph.Package]int{}
	for _, r := range reached {
		depth[r.Package] = r.Depth
	}
	var lines []depEntry
	for _, r := range g.Roots() {
		if d, ok := depth[r.Package]; ok && (maxDepth < 0 || d < maxDepth) {
			lines = append(lines, depEntry{Name: r.Key + "=" + r.Value, File: fmt.Sprintf("%s:%d", r.Ini, r.Line), Depth: d + 1,
				Via: r.Package.Name, Kind: "ini", Line: r.Line})
		}
	}
	out := append(entries, lines...)
	slices.SortStableFunc(out, func(x, y depEntry) int { return x.Depth - y.Depth })
	return out
}
