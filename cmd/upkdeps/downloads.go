package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/redirect"
)

func newDownloadsCmd(a *app) *cobra.Command {
	var (
		dir          string
		includeStock bool
		top          int
		preset       string
	)
	cmd := &cobra.Command{
		Use:   "downloads [MAP]... [--redirect DIR] [--include-stock] [--top N] [--preset NAME] [--url URL] [--mutators PKG.CLASS,...] [--json]",
		Short: "What clients download from the redirect, map by map, with sizes",
		Long: `downloads shows, for every map (or the MAPs named) and for the ServerPackages, the packages a
client must download: what redirect build publishes for it (not stock, not ServerSideOnly, with
AllowDownload), with their sizes, heaviest first; then the packages that most of them share, and
the total of every package once. Sizes are the server's copies; with --redirect DIR, also the
compressed files found in that redirect folder (a DIR that is missing or not a folder is an
error; a symbolic link in it is not followed: its package counts as not compressed). --preset
NAME takes the ServerPackages a mapvote (VoteSys, MVES, xVoting) sends while that preset runs ("*": every
preset), from the live package map.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			in, g, err := a.openGraph(cmd.Context())
			if err != nil {
				return err
			}
			sp, err := in.ServerPackagesFor(preset)
			if err != nil {
				return usageError{err}
			}
			opt := redirect.DownloadOptions{ServerPackages: sp, IncludeStock: includeStock,
				Generation: in.Search.Generation(), Stock: ini.StockOf(in.Game), Dir: dir}
			if len(args) > 0 {
				opt.Maps = args
			}
			d, err := redirect.NewDownloads(cmd.Context(), g, opt)
			if err != nil {
				return usageError{err}
			}
			return a.emit(cmd.OutOrStdout(), d, func(w io.Writer) error { return d.WriteText(w, top) }, false)
		},
	}
	f := cmd.Flags()
	f.StringVar(&dir, "redirect", "", "a redirect folder: show the sizes of its compressed files too")
	f.BoolVar(&includeStock, "include-stock", false, "count retail packages too (every client owns them)")
	f.IntVar(&top, "top", 10, "how many of the most shared packages to list")
	f.StringVar(&preset, "preset", "", `the mapvote preset whose ServerPackages to count ("Category/Name", or "*" for every preset)`)
	addServerFlags(f)
	f.Bool("json", false, "print the report as JSON")
	return cmd
}
