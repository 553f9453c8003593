package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/check"
	"github.com/upkdeps/upkdeps/check/cifmt"
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
			return a.emitAs(cmd.OutOrStdout(), format, rep, func(w io.Writer) error { return rep.WriteText(w, explain) }, log, !res.Valid)
		},
	}
	cmd.Flags().Bool("json", false, "print the result as JSON")
	cmd.Flags().BoolVar(&explain, "explain", false, "list every constraint with the import that imposes it")
	cmd.Flags().BoolVar(&clean, "clean", false, "treat every entry as rebuilt (a build from sources with no .u yet)")
	addFormatFlags(cmd, &of)
	return cmd
}
