package main

import (
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/install"
	"github.com/upkdeps/upkdeps/internal/textw"
	"github.com/upkdeps/upkdeps/search"
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
			return a.emit(cmd.OutOrStdout(), rs, func(w io.Writer) error { return writeResolveText(w, in, rs) }, !rs.Resolved())
		},
	}
	cmd.Flags().Bool("json", false, "print the results as JSON, one object per name")
	cmd.Flags().StringVar(&guidText, "guid", "", "the package's GUID (32 hex digits), as a server's package map gives it: also search the download cache, and apply UE2's GUID check")
	cmd.Flags().IntVar(&gen, "generation", 0, "with --guid on UE2: the package generation (cache file GUID-N.uxx); 0 = the highest cached")
	return cmd
}

func writeResolveText(w io.Writer, in *install.Install, rs search.Resolutions) error {
	bw := &textw.Writer{W: w}
	bw.Printf("upkdeps resolve: %s (%s; %s)\n", in.IniPath, in.GameLabel(), in.RulesLabel())
	if missing := in.Search.MissingPaths(); len(missing) > 0 {
		raw := make([]string, len(missing))
		for i, p := range missing {
			raw[i] = p.Raw
		}
		bw.Printf("Paths folders that do not exist: %s\n", strings.Join(raw, ", "))
	}
	for _, r := range rs.Results {
		if r.File == nil {
			bw.Printf("\n%s: NOT FOUND\n", r.Name)
		} else {
			bw.Printf("\n%s: %s (%s)\n", r.Name, *r.File, r.Via)
		}
		for _, warn := range r.Warnings {
			bw.Printf("  warning: %s\n", warn)
		}
		bw.Printf("  tried (%d):\n", len(r.Tried))
		for _, t := range r.Tried {
			bw.Printf("    %s\n", t)
		}
		if len(r.Shadowed) > 0 {
			bw.Printf("  shadows (never loaded under this name):\n")
			for _, s := range r.Shadowed {
				bw.Printf("    %s\n", s)
			}
		}
	}
	return bw.Err
}
