package main

import (
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/check"
	"github.com/upkdeps/upkdeps/install"
	"github.com/upkdeps/upkdeps/internal/textw"
	"github.com/upkdeps/upkdeps/native"
)

func newNativesCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "natives [--ini INI] [--json]",
		Short: "List the native classes of each package: from the install's .dll/.so files, else the game's built-in table",
		Long: `natives lists, per package, the classes its native code registers (IMPLEMENT_CLASS leaves
an autoclass symbol in Core.dll, Engine.so, a mod's Foo.dll), where that list came from (a
binary of the install, in the ini's folder or a folder of .u Paths, or the built-in table of
the game's binaries when the install has none), and which of those classes the package's
file also exports; the others are native-only, as check and order treat them.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			in, g, err := a.openGraph(cmd.Context())
			if err != nil {
				return err
			}
			nat, err := in.Natives()
			if err != nil {
				return err
			}
			rep := check.NativesOf(in, g, nat)
			return a.emit(cmd.OutOrStdout(), rep, func(w io.Writer) error { return writeNativesText(w, rep) }, false)
		},
	}
	cmd.Flags().Bool("json", false, "print the report as JSON")
	return cmd
}

func writeNativesText(w io.Writer, rep check.Natives) error {
	bw := &textw.Writer{W: w}
	bw.Printf("upkdeps natives: %s (%s; %s)\n", rep.Ini, rep.Game, install.RulesLabel(rep.Platform))
	bw.Printf("%d package(s) with native code, %d from the install's binaries\n", len(rep.Packages), rep.BinariesRead)
	for _, p := range rep.Packages {
		from := "built-in table " + p.Source.Table
		if p.Source.Kind == native.SourceBinary {
			from = p.Source.Path
		}
		file := "no package file"
		if p.File != "" {
			file = p.File
		}
		bw.Printf("\n%s: %d class(es) from %s; %s\n", p.Package, len(p.Classes), from, file)
		if len(p.NativeOnly) > 0 {
			bw.Printf("  native only (%d): %s\n", len(p.NativeOnly), strings.Join(p.NativeOnly, " "))
		}
		if len(p.Scripted) > 0 {
			bw.Printf("  also exported (%d): %s\n", len(p.Scripted), strings.Join(p.Scripted, " "))
		}
	}
	for i, s := range rep.Ignored {
		bw.Printf("\nignored: %s (the package's classes come from %s, found first)\n", s, rep.IgnoredFor[i])
	}
	return bw.Err
}
