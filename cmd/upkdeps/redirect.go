package main

import (
	"context"
	"fmt"
	"io"
	"path"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/check/cifmt"
	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/install"
	"github.com/upkdeps/upkdeps/internal/progress"
	"github.com/upkdeps/upkdeps/redirect"
)

func newRedirectCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "redirect",
		Short: "Build and verify a redirect server's folder of compressed packages",
		Long: `redirect manages the folder an HTTP redirect server (RedirectToURL) publishes: a .uz (UE1)
or .uz2 (UE2) copy of every package a client can be asked to download. The package map is
every map the ini's Paths reach (or those --maps selects) and every ServerPackages entry, with
everything they import, transitively, minus ServerSideOnly packages.`,
	}
	cmd.AddCommand(newRedirectBuildCmd(a), newRedirectVerifyCmd(a))
	return cmd
}

// mapFlags are the package-map flags build and verify share.
type mapFlags struct {
	maps         string
	includeStock bool
	preset       string
}

func (m *mapFlags) add(cmd *cobra.Command) {
	cmd.Flags().StringVar(&m.maps, "maps", "", "only the maps whose name or file name matches GLOB (case-insensitive; default: every map)")
	cmd.Flags().BoolVar(&m.includeStock, "include-stock", false, "publish retail packages too (every client owns them)")
	cmd.Flags().StringVar(&m.preset, "preset", "", `the mapvote preset whose ServerPackages to publish ("Category/Name", or "*" for every preset; default: the ini's)`)
	addServerFlags(cmd.Flags())
}

// packageMap opens the install and computes its package map.
func (a *app) packageMap(ctx context.Context, mf mapFlags) (*install.Install, *redirect.Map, error) {
	if mf.maps != "" {
		if _, err := path.Match(mf.maps, ""); err != nil {
			return nil, nil, usagef("--maps %q: %v", mf.maps, err)
		}
	}
	in, g, err := a.openGraph(ctx)
	if err != nil {
		return nil, nil, err
	}
	sp, err := in.ServerPackagesFor(mf.preset)
	if err != nil {
		return nil, nil, usageError{err}
	}
	m, err := redirect.NewMap(g, redirect.MapOptions{ServerPackages: sp, Maps: mf.maps,
		IncludeStock: mf.includeStock, Generation: in.Search.Generation(), Stock: ini.StockOf(in.Game),
		Server: redirect.Server{Ini: in.IniPath, Game: in.GameLabel(), Platform: string(in.Platform())}})
	if err != nil {
		return nil, nil, err
	}
	return in, m, nil
}

// progressFunc returns a Progress callback drawing one bar per phase.
func (a *app) progressFunc(what string, bar **progress.Bar) func(total int) func() {
	return func(total int) func() {
		(*bar).Done()
		*bar = progress.New(a.stderr, !a.cfg.NoProgress, total, what)
		b := *bar
		return func() { b.Add(1) }
	}
}

func newRedirectBuildCmd(a *app) *cobra.Command {
	var (
		mf  mapFlags
		opt redirect.BuildOptions
	)
	cmd := &cobra.Command{
		Use:   "build [--ini INI] -o DIR [--maps GLOB] [--preset NAME] [--lowercase] [--include-stock] [--allow-bigger] [--dry-run] [--force] [--json]",
		Short: "Write the compressed file of every package clients may download, and manifest.json",
		Long: `build computes the package map and writes into DIR the compressed copy of each package that
is missing or outdated there (.uz signature 1234 for UE1 packages, .uz2 for UE2), atomically,
then manifest.json. A file is current when the manifest of the previous build lists it with
the server's GUID and size and the file still has the size, header and SHA-256 recorded
there; other files are decompressed and compared with the server's copy. --dry-run prints the
actions a real run performs and writes nothing. --force rewrites every file. --lowercase also
writes a lower-case-named copy of each file for case-sensitive web servers. Retail packages
(every file of the game profile's stock list: maps, textures, sounds, music, meshes and code;
for a game without a list, the retail code packages) are left out unless
--include-stock; packages without AllowDownload are never published.
Warnings report what clients cannot get from the redirect. Exit 1 when a file could not be
written (a .uz larger than its package is refused unless --allow-bigger).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opt.Out == "" && !opt.DryRun {
				return usagef("-o DIR (--output) is required (without it, --dry-run shows what a new folder would get)")
			}
			_, m, err := a.packageMap(cmd.Context(), mf)
			if err != nil {
				return err
			}
			var bar *progress.Bar
			opt.Jobs = a.cfg.Jobs
			opt.Progress = a.progressFunc("building", &bar)
			rep, err := redirect.Build(cmd.Context(), m, opt)
			bar.Done()
			if err != nil {
				return err
			}
			for _, tmp := range rep.Removed {
				fmt.Fprintf(a.stderr, "removed %s (left by an interrupted upkdeps write)\n", tmp)
			}
			return a.emit(cmd.OutOrStdout(), rep, func(w io.Writer) error { return rep.WriteText(w) }, rep.Summary.Errors > 0)
		},
	}
	mf.add(cmd)
	f := cmd.Flags()
	addOutputFlag(f, &opt.Out, "the redirect folder to fill (created when missing; optional with --dry-run: a new folder)")
	f.BoolVar(&opt.Lowercase, "lowercase", false, "also write a lower-case-named copy of each file")
	f.BoolVar(&opt.AllowBigger, "allow-bigger", false, "publish a .uz even when it is larger than its package (crashes clients before v469)")
	f.BoolVar(&opt.DryRun, "dry-run", false, "print the actions a real run performs; write nothing")
	f.BoolVar(&opt.Force, "force", false, "rewrite every file, even those that are current")
	f.Bool("json", false, "print the report as JSON")
	return cmd
}

func newRedirectVerifyCmd(a *app) *cobra.Command {
	var mf mapFlags
	var out string
	var of outputFormat
	cmd := &cobra.Command{
		Use:   "verify [--ini INI] -o DIR [--maps GLOB] [--preset NAME] [--json]",
		Short: "Check a redirect folder against the server's packages",
		Long: `verify checks the redirect folder DIR (-o, the folder build writes) against the package
map: for each package its file must be there under its exact name (a case-sensitive web
server finds nothing else), in the format its clients read, and decompress cleanly to exactly
the server's copy; a file that decompresses to something else holds an older version (another
GUID or size) or is corrupt. Files of retail packages and lower-case copies are checked when
present; files no package needs are reported as extra. Exit 1 when there is at least one
error. The old spelling 'verify DIR' still works, with a deprecation note on stderr.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch {
			case len(args) == 1 && out != "":
				return usagef("the redirect folder given twice: -o %s and %s", out, args[0])
			case len(args) == 1:
				// The old spelling, verify DIR, before verify and build
				// both took -o DIR.
				fmt.Fprintln(cmd.ErrOrStderr(), "upkdeps: redirect verify DIR is deprecated: use -o DIR")
				out = args[0]
			case out == "":
				return usagef("-o DIR (--output) is required")
			}
			format, err := of.resolve(a)
			if err != nil {
				return err
			}
			in, m, err := a.packageMap(cmd.Context(), mf)
			if err != nil {
				return err
			}
			var bar *progress.Bar
			rep, err := redirect.Verify(cmd.Context(), m, redirect.VerifyOptions{Dir: out, Jobs: a.cfg.Jobs,
				Progress: a.progressFunc("verifying", &bar)})
			bar.Done()
			if err != nil {
				return err
			}
			log := func() *cifmt.Log { return rep.CILog(in.IniPath, in.Search.Root(), buildVersion().Version, of.root()) }
			return a.emitAs(cmd.OutOrStdout(), format, rep, func(w io.Writer) error { return rep.WriteText(w) }, log, rep.Summary.Errors > 0)
		},
	}
	mf.add(cmd)
	addOutputFlag(cmd.Flags(), &out, "the redirect folder to check (the one build writes)")
	cmd.Flags().Bool("json", false, "print the report as JSON")
	addFormatFlags(cmd, &of)
	return cmd
}
