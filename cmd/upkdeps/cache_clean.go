package main

import (
	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/cache"
)

func newCacheCleanCmd(a *app) *cobra.Command {
	var dryRun bool
	var opt cache.CleanOptions
	cmd := &cobra.Command{
		Use:   "clean [--ini INI | --cache DIR] [--dry-run] [--orphans] [--tmp] [--installed]",
		Short: "Remove what is provably redundant from the cache",
		Long: `clean removes, listing each removal, only what is provably redundant:
  --installed  entries whose package is installed with the same bytes (installed_same); the
               file goes and its cache.ini value is emptied, as after the engine's own move
  --orphans    files without a cache.ini name that are not packages, or whose bytes exist in
               another file of the cache or the install
  --tmp        stray download files that cannot be used (cut short, not decompressing, not a
               package) or whose (decompressed) content exists in another file
With none of the three, all three. A file that may be the only copy of a package is kept,
with a line saying so. Temporary files left by an interrupted upkdeps write always go. --dry-run prints exactly the lines a real run prints. Exit 0.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			v, err := a.openCache(cmd.Context(), writerLock(dryRun, "upkdeps cache clean"))
			if err != nil {
				return err
			}
			defer v.Close()
			return a.runPlan(cmd, v, v.PlanClean(opt), dryRun)
		},
	}
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print what would be removed, change nothing")
	cmd.Flags().BoolVar(&opt.Orphans, "orphans", false, "remove redundant files that cache.ini does not name")
	cmd.Flags().BoolVar(&opt.Tmp, "tmp", false, "remove redundant or unusable stray download files")
	cmd.Flags().BoolVar(&opt.Installed, "installed", false, "remove entries installed with the same bytes")
	return cmd
}
