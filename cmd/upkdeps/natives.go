package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/check"
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
			return a.emit(cmd.OutOrStdout(), rep, func(w io.Writer) error { return rep.WriteText(w) }, false)
		},
	}
	cmd.Flags().Bool("json", false, "print the report as JSON")
	return cmd
}
