package main

import (
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/cache"
)

func newCacheExtractCmd(a *app) *cobra.Command {
	var dryRun, force, keep bool
	var to string
	cmd := &cobra.Command{
		Use:   "extract [--ini INI] [--cache DIR] [--dry-run] [--force] [--keep] [--to DIR] [NAME|GUID ...]",
		Short: "Move cache entries into the install under their original names, as the engine does",
		Long: `extract moves cache entries (all of them, or those named by original file name, package
name, GUID or GUID-Gen) into the installation the way the engine's own MoveCacheEntry does:
into the folder of the first Paths entry whose pattern ends with the file's extension (or
--to DIR), under the original name; the cache file is removed and its cache.ini line keeps
its key with an empty value, as the engine writes it. --keep copies without touching the
cache.

Nothing is overwritten: an installed file with other content is refused unless --force, and
so is an entry whose package another installed version would still hide. Original names
that are not plain file names (separators, "..", drive letters, device names, control
characters) are refused: a hostile cache.ini cannot write outside the install. Every file is
written atomically, cache.ini is rewritten atomically keeping its other lines, and an
interrupted run is completed by running it again. --dry-run prints exactly the lines a real
run prints. Exit 1 when something was refused.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			v, err := a.openCache(cmd.Context(), writerLock(dryRun, "upkdeps cache extract"))
			if err != nil {
				return err
			}
			defer v.Close()
			if v.Search == nil && to == "" {
				return usagef("extract needs the install's Paths: give --ini, or --to DIR")
			}
			opt := cache.ExtractOptions{Force: force, Keep: keep}
			if to != "" {
				if opt.To, err = filepath.Abs(to); err != nil {
					return err
				}
			}
			if len(args) > 0 {
				if opt.Keys, err = v.Select(args); err != nil {
					return usageError{err}
				}
			}
			return a.runPlan(cmd, v, v.PlanExtract(opt), dryRun)
		},
	}
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print what would be done, change nothing")
	cmd.Flags().BoolVar(&force, "force", false, "replace installed files that have other content")
	cmd.Flags().BoolVar(&keep, "keep", false, "copy only: leave the cache file and its cache.ini line")
	cmd.Flags().StringVar(&to, "to", "", "put every file in this folder instead of the one Paths gives")
	return cmd
}
