package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/check"
	"github.com/upkdeps/upkdeps/check/cifmt"
	"github.com/upkdeps/upkdeps/install"
	"github.com/upkdeps/upkdeps/internal/textw"
)

func newOrderCmd(a *app) *cobra.Command {
	var explain, clean bool
	var of outputFormat
	cmd := &cobra.Command{
		Use:   "order [--ini INI] [--json] [--explain] [--clean]",
		Short: "Validate the EditPackages build order before `ucc make` and suggest a corrected one",
		Long: `order checks [Editor.EditorEngine] EditPackages: ucc make builds the listed packages whose
.u is missing in list order, and each may only use packages built before it. It prints the
problems and a corrected order that keeps yours wherever it is already valid, or the cycle
that makes every order impossible. --explain lists, for every constraint, the compiled import
or source line that imposes it. Sources (<GameRoot>/<Package>/Classes/*.uc, GameRoot being the
folder above the ini's) are used whenever they exist, since the moment this check matters is
when the .u files are gone. ucc make rebuilds only the entries whose .u is missing: a problem
among entries that all have their .u is a warning (a clean rebuild fails there), an error when
an entry involved will be rebuilt; --clean treats every entry as rebuilt. Entries with neither
sources nor a compiled package cannot be checked: they are listed (edit_unchecked), and
"valid" speaks only of the others. A name the sources use that such an entry (or native code
no binary or table of the game lists) could declare is no unknown_class: one note counts them.
Exit 1 when the order is not valid.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			format, err := of.resolve(a)
			if err != nil {
				return err
			}
			in, g, err := a.openGraph(cmd.Context())
			if err != nil {
				return err
			}
			rep, err := in.ReportOrder(cmd.Context(), g, clean)
			if err != nil {
				return err
			}
			res := rep.OrderResult
			log := func() *cifmt.Log { return check.FindingsLog(in, res.Findings, buildVersion().Version, of.root()) }
			return a.emitAs(cmd.OutOrStdout(), format, rep, func(w io.Writer) error { return writeOrderText(w, rep, explain) }, log, !res.Valid)
		},
	}
	cmd.Flags().Bool("json", false, "print the result as JSON")
	cmd.Flags().BoolVar(&explain, "explain", false, "list every constraint with the import that imposes it")
	cmd.Flags().BoolVar(&clean, "clean", false, "treat every entry as rebuilt (a build from sources with no .u yet)")
	addFormatFlags(cmd, &of)
	return cmd
}

func writeOrderText(w interface{ Write([]byte) (int, error) }, rep install.OrderReport, explain bool) error {
	bw := &textw.Writer{W: w}
	res := rep.OrderResult
	bw.Printf("upkdeps order: %s\n", rep.Ini)
	bw.Printf("EditPackages (%d): %s\n", len(res.EditPackages), strings.Join(res.EditPackages, " "))
	if len(rep.Sources) > 0 {
		bw.Printf("Read from sources (Classes/*.uc): %s\n", strings.Join(rep.Sources, " "))
	} else {
		bw.Printf("No sources found\n")
	}
	if len(rep.Compiled) > 0 {
		bw.Printf("Read from the compiled .u: %s\n", strings.Join(rep.Compiled, " "))
	}
	checked := fmt.Sprintf("Checked %d of %d entries", res.Checked, res.Checked+len(res.Unchecked))
	if len(res.Rebuilt) > 0 {
		checked += fmt.Sprintf("; ucc make rebuilds %d: %s", len(res.Rebuilt), strings.Join(res.Rebuilt, " "))
	}
	bw.Printf("%s\n", checked)
	for _, u := range res.Unchecked {
		bw.Printf("  unchecked: %s: %s\n", u.Package, u.Reason)
	}
	bw.Printf("%s\n", res.Verdict)
	if u := res.UncheckedNames; u != nil {
		bw.Printf("Note: %s\n", u.Message)
	}
	for _, f := range res.Findings {
		bw.Do(func(w io.Writer) error { return f.WriteText(w, true) })
	}
	switch {
	case res.Suggested == nil:
		bw.Printf("\nNo order can work until the cycle above is broken.\n")
	case !res.Valid && !slices.Equal(res.Suggested, res.EditPackages):
		bw.Printf("\nSuggested order (paste into [Editor.EditorEngine]):\n")
		for _, n := range res.Suggested {
			bw.Printf("EditPackages=%s\n", n)
		}
	}
	if explain {
		bw.Printf("\nConstraints (%d):\n", len(res.Constraints))
		for _, c := range res.Constraints {
			bw.Printf("  %s needs %s: %s\n", c.Package, c.On, c.Evidence)
		}
	}
	return bw.Err
}
