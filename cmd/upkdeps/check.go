package main

import (
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/graph"
)

func newCheckCmd(a *app) *cobra.Command {
	var all bool
	cmd := &cobra.Command{
		Use:   "check [--ini INI] [--json] [--all]",
		Short: "Report everything broken in an install: missing packages and objects, collisions, cycles, EditPackages order",
		Long: `check scans every package reachable through the ini's Paths, resolves every import as
the engine's linker does, and reports what is broken: a one-screen summary first, then each
finding with the import chain that makes it matter (root -> ... -> problem). Exit 1 when
there are errors (warnings alone exit 0).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			in, err := a.openInstall()
			if err != nil {
				return err
			}
			rep, err := a.check(cmd, in)
			if err != nil {
				return err
			}
			if a.cfg.JSON {
				err = writeJSON(cmd.OutOrStdout(), rep)
			} else {
				err = writeCheckText(cmd.OutOrStdout(), rep, all)
			}
			if err != nil {
				return err
			}
			if rep.Summary.Errors > 0 {
				return errFindings
			}
			return nil
		},
	}
	cmd.Flags().Bool("json", false, "print the report as JSON")
	cmd.Flags().BoolVar(&all, "all", false, "list every object and importer (text output lists the first 10)")
	return cmd
}

// checkReport is the output of `check`; its JSON form is documented in
// README.md.
type checkReport struct {
	SchemaVersion   int             `json:"schema_version"`
	Ini             string          `json:"ini"`
	Game            string          `json:"game"`
	PackagesScanned int             `json:"packages_scanned"`
	MissingPaths    []string        `json:"missing_paths"`
	Summary         checkSummary    `json:"summary"`
	Findings        []graph.Finding `json:"findings"`
}

type checkSummary struct {
	Errors   int            `json:"errors"`
	Warnings int            `json:"warnings"`
	ByKind   map[string]int `json:"by_kind"`
}

func (a *app) check(cmd *cobra.Command, in *install) (*checkReport, error) {
	g, err := a.buildGraph(cmd.Context(), in, graph.FromSearcher(in.search))
	if err != nil {
		return nil, err
	}
	src, err := g.ScanSources(in.search.Root(), in.ini.EditPackages())
	if err != nil {
		return nil, err
	}
	findings := g.Check(graph.CheckOptions{
		ServerPackages: in.ini.ServerPackages(),
		EditPackages:   in.ini.EditPackages(),
		Sources:        src,
	})
	findings = append(findings, graph.SearchFindings(in.search)...)
	graph.SortFindings(findings)
	rep := &checkReport{
		SchemaVersion: 1, Ini: in.iniPath, Game: in.gameLabel(),
		MissingPaths: []string{}, Findings: findings,
		Summary: checkSummary{ByKind: map[string]int{}},
	}
	if rep.Findings == nil {
		rep.Findings = []graph.Finding{}
	}
	for _, p := range g.Packages() {
		if !p.Missing() {
			rep.PackagesScanned++
		}
	}
	for _, p := range in.search.MissingPaths() {
		rep.MissingPaths = append(rep.MissingPaths, p.Raw)
	}
	for _, f := range findings {
		rep.Summary.ByKind[f.Kind]++
		if f.Severity == graph.Error {
			rep.Summary.Errors++
		} else {
			rep.Summary.Warnings++
		}
	}
	return rep, nil
}

// textLimit is how many objects/importers text output lists without --all.
const textLimit = 10

func writeCheckText(w io.Writer, rep *checkReport, all bool) error {
	bw := &errWriter{w: w}
	bw.printf("upkdeps check: %s (%s)\n", rep.Ini, rep.Game)
	bw.printf("%d packages scanned", rep.PackagesScanned)
	if len(rep.MissingPaths) > 0 {
		bw.printf("; Paths folders that do not exist: %s", strings.Join(rep.MissingPaths, ", "))
	}
	bw.printf("\n%d error(s), %d warning(s)\n", rep.Summary.Errors, rep.Summary.Warnings)
	if len(rep.Findings) == 0 {
		bw.printf("\nNo problems found.\n")
		return bw.err
	}
	kinds := make([]string, 0, len(rep.Summary.ByKind))
	for k := range rep.Summary.ByKind {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	bw.printf("\n")
	for _, k := range kinds {
		bw.printf("  %-18s %5d\n", k, rep.Summary.ByKind[k])
	}
	for _, f := range rep.Findings {
		writeFindingText(bw, f, all)
	}
	return bw.err
}

func writeFindingText(bw *errWriter, f graph.Finding, all bool) {
	bw.printf("\n%s %s: %s\n", strings.ToUpper(f.Severity), f.Kind, f.Package)
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
	if f.Kind != graph.Cycle {
		list("packages", f.Packages)
	} else {
		bw.printf("  packages: %s\n", strings.Join(f.Packages, ", "))
	}
	if len(f.Chain) > 0 {
		if f.Kind == graph.Cycle || f.Kind == graph.EditOrder || f.Kind == graph.EditMissing {
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
