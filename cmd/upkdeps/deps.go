package main

import (
	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/graph"
)

// depEntry is one row of `deps`/`rdeps` output (README.md).
type depEntry struct {
	Name  string `json:"name"`
	File  string `json:"file"` // "" when missing
	Depth int    `json:"depth"`
	Via   string `json:"via,omitempty"`
	Kind  string `json:"kind"`
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
			for _, r := range g.Reach([]*graph.Package{p}, d, reverse) {
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
			if a.cfg.JSON {
				if err := writeJSON(cmd.OutOrStdout(), entries); err != nil {
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
	cmd.Flags().Bool("json", false, "print a JSON array")
	cmd.Flags().IntVar(&depth, "depth", 0, "at most N hops (0 = no limit)")
	return cmd
}

func newWhyCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "why FROM TO [--json]",
		Short: "Show the shortest import chain from one package to another, object by object",
		Args:  cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			_, g, err := a.openGraph(cmd.Context())
			if err != nil {
				return err
			}
			from, to := g.Package(args[0]), g.Package(args[1])
			for i, p := range []*graph.Package{from, to} {
				if p == nil {
					return usagef("%s: no such package in the install", args[i])
				}
			}
			hops := g.Why(from, to)
			type hopJSON struct {
				From    string                 `json:"from"`
				To      string                 `json:"to"`
				Objects []graph.ImportedObject `json:"objects"`
			}
			out := []hopJSON{}
			for _, h := range hops {
				objs := h.Objects
				if objs == nil {
					objs = []graph.ImportedObject{}
				}
				out = append(out, hopJSON{h.From.Name, h.To.Name, objs})
			}
			if a.cfg.JSON {
				if err := writeJSON(cmd.OutOrStdout(), out); err != nil {
					return err
				}
			} else {
				bw := &errWriter{w: cmd.OutOrStdout()}
				if len(hops) == 0 {
					bw.printf("%s does not need %s\n", from.Name, to.Name)
				}
				for _, h := range out {
					bw.printf("%s -> %s\n", h.From, h.To)
					for _, o := range h.Objects {
						bw.printf("    %s.%s (%s.%s)\n", h.To, o.Path, o.ClassPackage, o.Class)
					}
					if len(h.Objects) == 0 {
						bw.printf("    (the package itself)\n")
					}
				}
				if bw.err != nil {
					return bw.err
				}
			}
			if len(hops) == 0 {
				return errFindings
			}
			return nil
		},
	}
	cmd.Flags().Bool("json", false, "print a JSON array of hops")
	return cmd
}
