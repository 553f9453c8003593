package main

import (
	"github.com/spf13/cobra"
)

func newLivemapCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "livemap [--ini INI] [--json]",
		Short: "The packages the server sends: ServerPackages, mapvote presets, UT2004 additions, each with its line",
		Long: `livemap shows the server's live package map: the ini's ServerPackages, the packages UT2004 adds
for a class whose section sets bAddToServerPackages=True, and the mapvote configs beside the ini
that own ServerPackages (VoteSys: VoteSys.ini and VoteSysPresets.ini; MVES: MVE_Config.ini), with
the base every preset sends and each preset's own packages, every entry with its file and line.
See docs/livemap.md. Exit 0 (a missing package is check's live_missing finding).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			in, err := a.openInstall()
			if err != nil {
				return err
			}
			m, err := in.LiveMap()
			if err != nil {
				return err
			}
			return a.emit(cmd.OutOrStdout(), m, m.WriteText, false)
		},
	}
	cmd.Flags().Bool("json", false, "print the live map as JSON")
	return cmd
}
