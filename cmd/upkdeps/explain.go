package main

import (
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/explain"
)

func newExplainCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "explain LOG [--ini INI] [--index FILE] [--json]",
		Short: "Explain the package lines of a game log: what is wrong, why, and the fix",
		Long: `explain reads a UT99, UT2004 or other Unreal Engine 1/2 log (client or server; ANSI, UTF-8 or
UTF-16; any size, line by line) and answers each package line it recognises: the server's package
map (USES GUID=... PKG=...), Server Package:, Can't find file for package, version mismatch, a
package already loaded in another version, Failed import and Failed to find object. With --ini,
each is looked up in that install (the engine's lookup; the package map lines by GUID) and a
problem line says what makes the install load the package (the ini line or map, then each
import); with
--index, the index's copies of what is missing are named. A line that speaks of a failure in a
form explain does not read is listed as not understood, never guessed. Exit 1 when a line is a
problem or not understood, 0 otherwise.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var opt explain.Options
			if a.cfg.Ini != "" {
				in, g, err := a.openGraph(cmd.Context())
				if err != nil {
					return err
				}
				opt.Install = explain.SearchInstall(in.Search, in.IniPath)
				opt.Chain = explain.GraphChain(g)
			}
			if cmd.Flags().Changed("index") {
				db, err := a.openDB(true)
				if err != nil {
					return err
				}
				defer db.Close()
				opt.Index = explain.DBIndex(db)
			}
			f, err := os.Open(args[0])
			if err != nil {
				return err
			}
			defer f.Close()
			rep, err := explain.Explain(cmd.Context(), f, args[0], opt)
			if err != nil {
				return err
			}
			return a.emit(cmd.OutOrStdout(), rep, func(w io.Writer) error { return rep.WriteText(w) }, rep.Failed())
		},
	}
	addIndexFlag(cmd.Flags(), "name the copies of missing packages found in this package index", false)
	cmd.Flags().Bool("json", false, "print the report as JSON")
	return cmd
}
