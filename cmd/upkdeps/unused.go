package main

import (
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/internal/textw"
	"github.com/upkdeps/upkdeps/redirect"
)

func newUnusedCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "unused [--ini INI] [--json]",
		Short: "Packages nothing on the server uses, and what each ServerPackages line costs",
		Long: `unused lists the package files nothing reaches: no map, no ini line (ServerPackages,
ServerActors, EditPackages, the game classes...), no native code and no package that is reached
imports them; with each its size and folder and, when other unused packages import it, those
that nothing imports: a map or an ini line naming one of them would reach it. Stock packages are
never listed (the game ships them), only counted. Then, per ServerPackages line: what a new client
downloads for it (as downloads counts it: published packages only), the part of that no other
map or line needs (what removing the line saves), and what needs the package ("nothing on this
server needs it" when nothing does). It deletes nothing. Exit 1 when a package is unused or a
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
			if a.cfg.JSON {
				if err := writeJSON(cmd.OutOrStdout(), rep); err != nil {
					return err
				}
			} else if err := writeUnused(cmd, rep); err != nil {
				return err
			}
			if rep.Findings() {
				return errFindings
			}
			return nil
		},
	}
	cmd.Flags().Bool("json", false, "print the report as JSON (docs/json.md)")
	return cmd
}

// writeUnused prints the report as text.
func writeUnused(cmd *cobra.Command, rep *redirect.Unused) error {
	bw := &textw.Writer{W: cmd.OutOrStdout()}
	if len(rep.Packages) == 0 {
		bw.Printf("Every package is used: a map, an ini line, native code or a used package reaches each one.\n")
	} else {
		bw.Printf("%d package(s) nothing uses (no map, ini line, native code or used package reaches them), %s:\n", len(rep.Packages), byteSize(rep.Bytes))
		width := 0
		for _, u := range rep.Packages {
			width = max(width, len(u.File))
		}
		for _, u := range rep.Packages {
			size := "?"
			if u.Bytes >= 0 {
				size = byteSize(u.Bytes)
			}
			bw.Printf("  %-*s %10s  %s\n", width, u.File, size, throughText(u))
		}
	}
	if rep.StockUnused > 0 {
		bw.Printf("(%d stock package(s) nothing uses are not listed: the game ships them.)\n", rep.StockUnused)
	}
	if len(rep.ServerPackages) > 0 {
		bw.Printf("\nServerPackages lines (what a new client downloads for each):\n")
	}
	for _, sp := range rep.ServerPackages {
		bw.Printf("  %s\n", sp.Line)
		switch {
		case sp.Missing:
			bw.Printf("    the package is missing: clients cannot download it\n")
		default:
			bw.Printf("    downloads %d package(s), %s; %d of them, %s, for this line alone\n", sp.Download.Count, byteSize(sp.Download.Bytes), sp.Only.Count, byteSize(sp.Only.Bytes))
		}
		if sp.NothingNeedsIt {
			bw.Printf("    nothing on this server needs it\n")
		} else {
			shown := sp.NeededBy
			more := ""
			if len(shown) > 5 {
				more = ", and " + strconv.Itoa(len(shown)-5) + " more"
				shown = shown[:5]
			}
			bw.Printf("    needed by %s%s\n", strings.Join(shown, ", "), more)
		}
	}
	return bw.Err
}

// throughText says what would reach an unused package.
func throughText(u redirect.UnusedPackage) string {
	if len(u.Through) == 0 {
		return u.Kind + ", nothing imports it"
	}
	return u.Kind + ", imported only by unused packages: naming " + strings.Join(u.Through, " or ") + " would reach it"
}
