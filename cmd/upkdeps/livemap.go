package main

import (
	"github.com/spf13/cobra"
)

func newLivemapCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "livemap [--ini INI] [--url URL] [--mutators PKG.CLASS,...] [--json]",
		Short: "The packages the server sends: ServerPackages, mapvote presets, mutators that add themselves, each with its line",
		Long: `livemap shows the server's live package map: the ini's ServerPackages, the packages of the
classes the server runs (its ServerActors and --mutators, the command line's ?Mutator= list) whose
defaults, or their parent classes', set bAddToServerPackages (UT2004) or bAddToPackageMap (UT99
469), and the mapvote configs beside the ini that own ServerPackages (VoteSys: VoteSys.ini and
VoteSysPresets.ini; MVES: MVE_Config.ini), with the base every preset sends and each preset's own
packages, every entry with its file and line, and notes on what was not read. See
docs/livemap.md. Exit 0 (a missing package is check's live_missing finding).`,
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
	addServerFlags(cmd.Flags())
	return cmd
}
