package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

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
server needs it" when nothing does). It deletes nothing. What a mapvote's presets run or send
counts as used (see livemap); what only the server's command line runs, only when --url or
--mutators names it. Exit 1 when a package is unused or a
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
			var used []string
			if m, err := in.LiveMap(); err != nil {
				a.warn(fmt.Sprintf("warning: %v: the mapvote's presets were not read, so what only they run may be listed", err))
			} else {
				used = m.Used()
			}
			rep, err := redirect.NewUnused(cmd.Context(), g, redirect.UnusedOptions{EditPackages: in.Ini.EditPackages(), Natives: nat,
				Generation: in.Search.Generation(), Stock: ini.StockOf(in.Game), Used: used})
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
