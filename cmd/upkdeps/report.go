package main

import (
	"bytes"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/internal/fsutil"
	"github.com/upkdeps/upkdeps/report"
)

// defaultReportFile is where report writes without -o.
const defaultReportFile = "upkdeps-report.html"

// reportFlags are report's flags.
type reportFlags struct {
	out              string
	withCache, force bool
	dryRun           bool
	maxObjects       int
	indexDB          string
	redirectDir      string
}

func newReportCmd(a *app) *cobra.Command {
	var rf reportFlags
	cmd := &cobra.Command{
		Use:   "report [--ini INI] [-o FILE] [--with-cache [--cache DIR]] [--index FILE] [--redirect DIR] [--force] [--dry-run]",
		Short: "Write one self-contained HTML page to look through an install: findings, packages, neighbourhoods, cycles, EditPackages order",
		Long: `report checks the install as check does and writes one HTML file (default
upkdeps-report.html) that opens from disk anywhere, with no network: its script, style and
data are inline. The data is the report check --json prints plus the dependency graph
(packages with file, version, GUID, flags and size; imports with their object counts). The
page shows a summary, a filterable findings table, a package search with each package's
details and neighbourhood diagram, the cycles and the EditPackages order (current and
suggested). --index FILE adds, as check --index does, the copies of each missing package
and object that a package index knows; each finding shows them. An existing file with other content is not replaced without --force; -o -
writes to stdout. Exit 1 when the report has errors, as check.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return a.runReport(cmd, rf) },
	}
	f := cmd.Flags()
	f.StringVarP(&rf.out, "output", "o", defaultReportFile, "the HTML file to write (atomically); - for stdout")
	f.BoolVar(&rf.withCache, "with-cache", false, "also use the packages in the download cache, as a client would")
	f.String("cache", "", "with --with-cache: the cache folder (default: the ini's CachePath)")
	f.StringVar(&rf.indexDB, "index", "", "list candidates for the missing packages and objects from this package index"+indexFlagHelp)
	f.BoolVar(&rf.force, "force", false, "overwrite an existing file that differs")
	f.BoolVar(&rf.dryRun, "dry-run", false, "make the page and say what would be written, without writing")
	f.StringVar(&rf.redirectDir, "redirect", "", "a redirect folder: the Downloads view can show the sizes of its compressed files too")
	f.IntVar(&rf.maxObjects, "max-objects", 0, fmt.Sprintf("imported object names embedded at most (0: %d; -1: all); counts stay exact", report.DefaultMaxObjects))
	return cmd
}

// runReport checks the install, makes the page and writes it (or says
// what it would write).
func (a *app) runReport(cmd *cobra.Command, rf reportFlags) error {
	in, err := a.openInstall()
	if err != nil {
		return err
	}
	rep, c, err := a.checkRun(cmd, in, rf.withCache)
	if err != nil {
		return err
	}
	if cmd.Flags().Changed("index") {
		if err := a.addCandidates(cmd, in, rep, rf.indexDB); err != nil {
			return err
		}
	}
	opt, err := report.FromInstall(cmd.Context(), in, c, rf.redirectDir)
	if err != nil {
		return err
	}
	opt.Generator, opt.MaxObjects = "upkdeps "+version, rf.maxObjects
	var page bytes.Buffer
	if err := report.Write(&page, report.Build(rep, c.Graph, opt), in.IniPath); err != nil {
		return err
	}
	if rf.out == "-" {
		if _, err := cmd.OutOrStdout().Write(page.Bytes()); err != nil {
			return err
		}
	} else {
		if err := checkOutput(rf.out, page.Bytes(), rf.force); err != nil {
			return err
		}
		verb := "wrote"
		if rf.dryRun {
			verb = "would write"
		} else if err := fsutil.WriteFileAtomic(rf.out, page.Bytes(), 0o644); err != nil {
			return err
		}
		fmt.Fprintln(cmd.OutOrStdout(), verb, report.Summary(rf.out, page.Len(), len(c.Graph.Packages()), rep.Summary))
	}
	if rep.Summary.Errors > 0 {
		return errFindings
	}
	return nil
}
