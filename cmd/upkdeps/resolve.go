package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/format"
)

func newResolveCmd(a *app) *cobra.Command {
	var guidText string
	var gen int
	cmd := &cobra.Command{
		Use:   "resolve [--ini INI] [--guid GUID [--generation N]] [--json] NAME...",
		Short: "Show which file the engine loads for a package name, and why",
		Long: `resolve looks each package name up exactly as the engine does (appFindPackageFile): the
name as given (relative to System), then each Paths entry in order (folder + name, then
folder + name + the entry's extension), then, with --guid, the download cache, then all of it
again ignoring case. For each name it prints the file chosen, every candidate tried in order,
the other files the choice shadows and warnings (a case mismatch, a UE2 GUID check that
skipped a file, an installed file whose GUID is not the one asked for). Paths are relative to
the game root (the folder above the ini's). Exit 1 when a name does not resolve.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var guid format.GUID
			if guidText != "" {
				g, err := format.ParseGUID(guidText)
				if err != nil {
					return usagef("--guid: %v", err)
				}
				if len(args) != 1 {
					return usagef("--guid looks up one package; %d names given", len(args))
				}
				guid = g
			}
			if gen < 0 {
				return usagef("--generation must be 0 (the highest cached) or more, not %d", gen)
			}
			in, err := a.openInstall()
			if err != nil {
				return err
			}
			rs := in.Search.ResolveAll(args, guid, gen)
			return a.emit(cmd.OutOrStdout(), rs, func(w io.Writer) error { return in.WriteResolveText(w, rs) }, !rs.Resolved())
		},
	}
	cmd.Flags().Bool("json", false, "print the results as JSON, one object per name")
	cmd.Flags().StringVar(&guidText, "guid", "", "the package's GUID (32 hex digits), as a server's package map gives it: also search the download cache, and apply UE2's GUID check")
	cmd.Flags().IntVar(&gen, "generation", 0, "with --guid on UE2: the package generation (cache file GUID-N.uxx); 0 = the highest cached")
	return cmd
}
