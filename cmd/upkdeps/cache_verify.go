package main

import (
	"io"

	"github.com/spf13/cobra"
)

func newCacheVerifyCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "verify [--ini INI | --cache DIR] [--json]",
		Short: "Report the cache's problems; exit 1 if there are any",
		Long: `verify reports what is wrong in the cache. Errors (exit 1): a file that is not a package
(not_a_package), a file whose header GUID is not its name (guid_mismatch), an entry the engine
would never use because the install has another version of the package (installed_other).
Warnings (exit 0): cache.ini lines without their file (missing_file: PurgeCacheDays leaves
these), files without a cache.ini name (orphan_file), [Cache] lines that are not cache keys,
and stray download files (????.tmp; .uz data when the server's redirect compresses).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			v, err := a.openCache(cmd.Context(), "")
			if err != nil {
				return err
			}
			rep := v.Verify()
			return a.emit(cmd.OutOrStdout(), rep, func(w io.Writer) error { return v.WriteVerify(w, rep) }, rep.Summary.Errors > 0)
		},
	}
	cmd.Flags().Bool("json", false, "print the problems as JSON")
	return cmd
}
