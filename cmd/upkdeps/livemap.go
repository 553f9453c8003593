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
			if a.cfg.JSON {
				return writeJSON(cmd.OutOrStdout(), m)
			}
			bw := &errWriter{w: cmd.OutOrStdout()}
			bw.printf("upkdeps livemap: %s\n", in.IniPath)
			switch {
			case m.Manager == "":
				bw.printf("no mapvote config beside the ini\n")
			case m.Managed:
				bw.printf("%s manages ServerPackages (%s)\n", m.Manager, m.Switch)
			default:
				bw.printf("%s found, its switch off (%s)\n", m.Manager, m.SwitchText())
			}
			bw.printf("\nbase (%d):\n", len(m.Base))
			for _, e := range m.Base {
				bw.printf("  %-24s %s\n", e.Package, e.Source)
			}
			for _, p := range m.Presets {
				state := ""
				if p.Disabled {
					state = " (disabled)"
				}
				bw.printf("\npreset %s%s, %s: %d package(s)\n", p.Name, state, p.Source, len(p.Packages))
				for _, e := range p.Packages {
					bw.printf("  %-24s %s\n", e.Package, e.Source)
				}
			}
			if len(m.Notes) > 0 {
				bw.printf("\nnotes:\n")
				for _, n := range m.Notes {
					bw.printf("  %s\n", n)
				}
			}
			return bw.err
		},
	}
	cmd.Flags().Bool("json", false, "print the live map as JSON")
	return cmd
}
