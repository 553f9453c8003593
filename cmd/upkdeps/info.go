package main

import (
	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/format"
)

func newInfoCmd(a *app) *cobra.Command {
	var names, imports, exports bool
	cmd := &cobra.Command{
		Use:   "info [--json] [--names] [--imports] [--exports] FILE...",
		Short: "Show a package's header, dependencies and tables (a readelf for packages)",
		Long: `info reads each package's header and tables (never its object data) and prints the
version and licensee with the game they suggest, the flags, GUID, generations, table counts
and the packages it imports from. --names, --imports and --exports add the tables to the
text output; --json always includes them in full. Exit 1 when a file cannot be read.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			failed, err := format.WriteInfos(cmd.OutOrStdout(), args, format.InfoOptions{JSON: a.cfg.JSON,
				Names: names, Imports: imports, Exports: exports, Jobs: a.cfg.Jobs})
			if err == nil && failed {
				err = errFindings
			}
			return err
		},
	}
	cmd.Flags().Bool("json", false, "print JSON, one object per file")
	cmd.Flags().BoolVar(&names, "names", false, "list the name table")
	cmd.Flags().BoolVar(&imports, "imports", false, "list the import table")
	cmd.Flags().BoolVar(&exports, "exports", false, "list the export table")
	return cmd
}
