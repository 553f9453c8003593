package main

import (
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/install"
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
			rep := resolveNames(in, args, guid, gen)
			if a.cfg.JSON {
				err = writeJSON(cmd.OutOrStdout(), search.Resolutions{SchemaVersion: search.ResolveSchemaVersion, Results: rep.Results})
			} else {
				err = writeResolveText(cmd.OutOrStdout(), rep)
			}
			if err != nil {
				return err
			}
			for _, r := range rep.Results {
				if r.File == nil {
					return errFindings
				}
			}
			return nil
		},
	}
	cmd.Flags().Bool("json", false, "print the results as JSON, one object per name")
	cmd.Flags().StringVar(&guidText, "guid", "", "the package's GUID (32 hex digits), as a server's package map gives it: also search the download cache, and apply UE2's GUID check")
	cmd.Flags().IntVar(&gen, "generation", 0, "with --guid on UE2: the package generation (cache file GUID-N.uxx); 0 = the highest cached")
	return cmd
}

// resolveReport is the output of `resolve`.
type resolveReport struct {
	Ini          string
	Game         string
	Platform     string
	MissingPaths []string
	Results      []search.Resolution
}

func resolveNames(in *install.Install, names []string, guid format.GUID, gen int) resolveReport {
	rep := resolveReport{Ini: in.IniPath, Game: in.GameLabel(), Platform: string(in.Platform())}
	for _, p := range in.Search.MissingPaths() {
		rep.MissingPaths = append(rep.MissingPaths, p.Raw)
	}
	for _, name := range names {
		rep.Results = append(rep.Results, in.Search.Resolve(name, guid, gen))
	}
	return rep
}

func writeResolveText(w io.Writer, rep resolveReport) error {
	bw := &errWriter{w: w}
	bw.printf("upkdeps resolve: %s (%s; %s)\n", rep.Ini, rep.Game, install.RulesLabel(rep.Platform))
	if len(rep.MissingPaths) > 0 {
		bw.printf("Paths folders that do not exist: %s\n", strings.Join(rep.MissingPaths, ", "))
	}
	for _, r := range rep.Results {
		if r.File == nil {
			bw.printf("\n%s: NOT FOUND\n", r.Name)
		} else {
			bw.printf("\n%s: %s (%s)\n", r.Name, *r.File, r.Via)
		}
		for _, warn := range r.Warnings {
			bw.printf("  warning: %s\n", warn)
		}
		bw.printf("  tried (%d):\n", len(r.Tried))
		for _, t := range r.Tried {
			bw.printf("    %s\n", t)
		}
		if len(r.Shadowed) > 0 {
			bw.printf("  shadows (never loaded under this name):\n")
			for _, s := range r.Shadowed {
				bw.printf("    %s\n", s)
			}
		}
	}
	return bw.err
}
