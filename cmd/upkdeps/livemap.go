package main

import (
	"github.com/spf13/cobra"
	"github.com/upkdeps/upkdeps/internal/textw"
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
			bw := &textw.Writer{W: cmd.OutOrStdout()}
			bw.Printf("upkdeps livemap: %s\n", in.IniPath)
			switch {
			case m.Manager == "":
				bw.Printf("no mapvote config beside the ini\n")
			case m.Managed:
				bw.Printf("%s manages ServerPackages (%s)\n", m.Manager, m.Switch)
			default:
				bw.Printf("%s found, its switch off (%s)\n", m.Manager, m.SwitchText())
			}
			bw.Printf("\nbase (%d):\n", len(m.Base))
			for _, e := range m.Base {
				bw.Printf("  %-24s %s\n", e.Package, e.Source)
			}
			for _, p := range m.Presets {
				state := ""
				if p.Disabled {
					state = " (disabled)"
				}
				bw.Printf("\npreset %s%s, %s: %d package(s)\n", p.Name, state, p.Source, len(p.Packages))
				for _, e := range p.Packages {
					bw.Printf("  %-24s %s\n", e.Package, e.Source)
				}
			}
			if len(m.Notes) > 0 {
				bw.Printf("\nnotes:\n")
				for _, n := range m.Notes {
					bw.Printf("  %s\n", n)
				}
			}
			return bw.Err
		},
	}
	cmd.Flags().Bool("json", false, "print the live map as JSON")
	return cmd
}
