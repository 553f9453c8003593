package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/check/cifmt"
	"github.com/upkdeps/upkdeps/uscript/header"
)

// headersFlags are the options of `headers`.
type headersFlags struct {
	root    string
	out     string
	check   bool
	dryRun  bool
	force   bool
	fresh   bool
	layout  string
	eol     string
	verbose bool
	format  outputFormat
}

func newHeadersCmd(a *app) *cobra.Command {
	var f headersFlags
	cmd := &cobra.Command{
		Use:   "headers [--ini INI | --root DIR PKG...] [-o DIR] [--check] [--dry-run] [--json]",
		Short: "Generate the C++ headers `ucc make -h` writes (<Pkg>/Inc/<Pkg>Classes.h), or check them for staleness",
		Long: `headers generates, for each package with native classes, the C++ header ucc make -h writes:
<DIR>/<Pkg>/Inc/<Pkg>Classes.h, the C++ mirror of the package's native classes (enums, member
variables in declaration order, DECLARE_FUNCTION per native function, event thunks, names).
Packages come from EditPackages (--ini; PKG arguments pick which headers to write) or, for a
source tree without an ini, from --root DIR and the packages named, in compile order. Every
package is read from <root>/<Pkg>/Classes/*.uc; each sees the packages before it.

--check writes nothing: it compares each header with the one on disk (line endings ignored)
and reports, per class, the members added, removed, retyped or moved, the native functions,
events and enums that differ, with the file:line of the declaration, and next to those the
differences of layout (DECLARE_CLASS, packing marks) and order. Exit 1 when a header is
stale or missing.

The layout, the order of classes, of the AUTOGENERATE lines and the spelling of names the
engine knew before compiling come from the engine binary, not from the sources: they are
taken from the existing header when there is one (--layout overrides the layout, --fresh
ignores the rest). Which classes the native module registers comes from its binary, else
the existing header, else the game's own table. Writing replaces a header atomically;
a file that is not a generated header is only replaced with --force.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.runHeaders(cmd, f, args)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.root, "root", "", "the game root of a source tree without an ini (packages named as arguments)")
	fl.StringVarP(&f.out, "output", "o", "", "the folder to write <Pkg>/Inc/<Pkg>Classes.h under (default: the game root)")
	fl.BoolVar(&f.check, "check", false, "compare with the existing headers instead of writing; exit 1 when one is stale")
	fl.BoolVar(&f.dryRun, "dry-run", false, "say what would be written without writing")
	fl.BoolVar(&f.force, "force", false, "replace a file that is not a generated header")
	fl.BoolVar(&f.fresh, "fresh", false, "ignore the existing headers' class order, name order and spellings")
	fl.StringVar(&f.layout, "layout", "", `the header layout: "ue1", "ue1-early", "undying", "ue2" or "ue2-early" (default: the existing header's, else from the game, else ue1)`)
	fl.StringVar(&f.eol, "eol", "", `line ends of a written header: "crlf" or "lf" (default: the existing header's, else crlf as ucc writes)`)
	fl.BoolVar(&f.verbose, "verbose", false, "list unchanged headers too")
	cmd.Flags().Bool("json", false, "print the report as JSON")
	addFormatFlags(cmd, &f.format)
	return cmd
}

// runHeaders validates the flags, runs header.Sync and renders its report.
func (a *app) runHeaders(cmd *cobra.Command, f headersFlags, args []string) error {
	if f.check && f.dryRun {
		return usagef("--check and --dry-run do not go together (--check never writes)")
	}
	format, err := f.format.resolve(a)
	if err != nil {
		return err
	}
	if format.CI() && !f.check {
		return usagef("--format %s goes with --check", format)
	}
	if f.eol != "" && f.eol != "crlf" && f.eol != "lf" {
		return usagef("--eol must be crlf or lf, not %q", f.eol)
	}
	opt, err := a.headersOptions(f, args)
	if err != nil {
		return err
	}
	rep, err := header.Sync(cmd.Context(), opt)
	if err != nil {
		return err
	}
	headersRemedies(rep)
	for _, d := range rep.Diagnostics {
		fmt.Fprintf(a.stderr, "upkdeps: %s\n", d)
	}
	log := func() *cifmt.Log { return rep.CILog(buildVersion().Version, f.format.root()) }
	return a.emitAs(cmd.OutOrStdout(), format, rep, func(w io.Writer) error { return rep.WriteText(w, f.verbose) }, log, rep.Failed())
}

// headersRemedies words the remedies of a headers report as the flags
// that give them.
func headersRemedies(rep *header.SyncReport) {
	words := map[header.Remedy]string{header.RemedyForce: "; --force replaces it", header.RemedyGame: ": give --game, or the binaries beside the ini"}
	for i := range rep.Packages {
		p := &rep.Packages[i]
		p.Diagnostic += words[p.Remedy]
		for j := range p.Changes {
			p.Changes[j].Want += words[p.Changes[j].Remedy]
		}
	}
}

// headersOptions turns the flags and arguments into header.Sync's options:
// the packages of EditPackages (--ini) or those named (--root), the
// native binaries, the layout named and the mode.
func (a *app) headersOptions(f headersFlags, args []string) (header.SyncOptions, error) {
	opt := header.SyncOptions{Output: f.out, Force: f.force, Fresh: f.fresh, EOL: f.eol, Mode: header.ModeWrite}
	switch {
	case f.check:
		opt.Mode = header.ModeCheck
	case f.dryRun:
		opt.Mode = header.ModeDryRun
	}
	if f.layout != "" {
		l, ok := header.LayoutByName(f.layout)
		if !ok {
			return opt, usagef("unknown --layout %q (ue1, ue1-early, undying, ue2, ue2-early)", f.layout)
		}
		opt.Layout = l
	}
	if f.root == "" {
		in, err := a.openInstall()
		if err != nil {
			return opt, err
		}
		if err = opt.FromInstall(in, args); errors.Is(err, header.ErrNotEditPackage) {
			err = usageError{err}
		}
		return opt, err
	}
	if a.cfg.Ini != "" {
		return opt, usagef("--root and --ini do not go together")
	}
	if len(args) == 0 {
		return opt, usagef("--root needs the packages to generate, in compile order")
	}
	return opt, opt.FromTree(f.root, args, a.cfg.Game, a.warn)
}
