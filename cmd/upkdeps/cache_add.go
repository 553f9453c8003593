package main

import (
	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/cache"
)

func newCacheAddCmd(a *app) *cobra.Command {
	var dryRun, force bool
	cmd := &cobra.Command{
		Use:   "add [--ini INI | --cache DIR] [--dry-run] [--force] FILE...",
		Short: "Put packages into the cache, as if downloaded, so a client has them before joining",
		Long: `add copies each package into the cache under the name the engine gives a download (UE1:
GUID + CacheExt; UE2: GUID-Generations.uxx, with the header's generation count) and adds or
updates its cache.ini line (key=original file name). The GUID is read from the package
header. A file that is not a package, is of the other engine generation, or whose name is not
a plain file name is refused, and so is replacing a cache file with other bytes unless
--force. --dry-run prints exactly the lines a real run prints. Exit 1 when a file was refused.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			v, err := a.openCache(cmd.Context(), writerLock(dryRun, "upkdeps cache add"))
			if err != nil {
				return err
			}
			defer v.Close()
			return a.runPlan(cmd, v, v.PlanAdd(args, cache.AddOptions{Force: force}), dryRun)
		},
	}
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print what would be done, change nothing")
	cmd.Flags().BoolVar(&force, "force", false, "replace a cache file that has other bytes")
	return cmd
}
