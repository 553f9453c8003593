package main

import (
	"github.com/spf13/cobra"
)

func newCacheListCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "list [--ini INI | --cache DIR] [--json]",
		Short: "List the cache entries with their original names, GUIDs, sizes, versions and states",
		Long: `list shows every cache entry (a cache.ini line, a GUID-named file, or both) with its
original file name, GUID, size, package version and state, and the stray download files
(????.tmp) with what they hold. With an ini, each entry is also looked up in the installation
the way the engine does: installed_same means the install has this very package (the cache
copy is redundant), installed_other that the install has another version, which the engine
loads instead. Exit 0.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			v, err := a.openCache(cmd.Context(), "")
			if err != nil {
				return err
			}
			return a.emit(cmd.OutOrStdout(), v.List(), v.WriteList, false)
		},
	}
	cmd.Flags().Bool("json", false, "print the entries as JSON")
	return cmd
}
