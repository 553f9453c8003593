package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/cache"
	"github.com/upkdeps/upkdeps/internal/textw"
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
			rep := v.c.Verify()
			return a.emit(cmd.OutOrStdout(), rep, func(w io.Writer) error { return v.writeVerify(w, rep) }, rep.Summary.Errors > 0)
		},
	}
	cmd.Flags().Bool("json", false, "print the problems as JSON")
	return cmd
}

func (v *cacheView) writeVerify(w io.Writer, rep cache.VerifyReport) error {
	bw := &textw.Writer{W: w}
	bw.Printf("%s", v.header())
	for _, p := range rep.Problems {
		subject := p.Subject
		if subject == "" && p.File != nil {
			subject = v.rel(*p.File)
		}
		bw.Printf("%-7s  %-15s  %s: %s\n", p.Severity, p.State, subject, p.Message)
	}
	bw.Printf("%d entries: %d errors, %d warnings\n", rep.Summary.Entries, rep.Summary.Errors, rep.Summary.Warnings)
	return bw.Err
}
