package main

import (
	"github.com/spf13/cobra"
	"io"

	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/redirect"
)

func newUnusedCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "unused [--ini INI] [--url URL] [--mutators PKG.CLASS,...] [--json]",
		Short: "Packages nothing on the server uses, and what each ServerPackages line costs",
		Long: `unused lists the package files nothing reaches: no map, no ini line (ServerPackages,
ServerActors, EditPackages, the game classes...), no native code and no package that is reached
imports them; with each its size and folder and, when other unused packages import it, those
that nothing imports: a map or an ini line naming one of them would reach it. Stock packages are
never listed (the game ships them), only counted. Then, per ServerPackages line: what a new client
downloads for it (as downloads counts it: published packages only), the part of that no other
map or line needs (what removing the line saves), and what needs the package ("nothing on this
server needs it" when nothing does). It deletes nothing. What only the server's command line runs
counts as used only when --url or --mutators names it. Exit 1 when a package is unused or a
line is needed by nothing.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			in, g, err := a.openGraph(cmd.Context())
			if err != nil {
				return err
			}
			nat, err := in.Natives()
			if err != nil {
				return err
			}
			rep, err := redirect.NewUnused(cmd.Context(), g, redirect.UnusedOptions{EditPackages: in.Ini.EditPackages(), Natives: nat,
				Generation: in.Search.Generation(), Stock: ini.StockOf(in.Game)})
			if err != nil {
				return err
			}
			return a.emit(cmd.OutOrStdout(), rep, func(w io.Writer) error { return rep.WriteText(w) }, rep.Findings())
		},
	}
	cmd.Flags().Bool("json", false, "print the report as JSON (docs/json.md)")
	addServerFlags(cmd.Flags())
	return cmd
}
