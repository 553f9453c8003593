package main

import (
	"errors"
	"io"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/compare"
	"github.com/upkdeps/upkdeps/install"
)

func newCompareCmd(a *app) *cobra.Command {
	var (
		server, client, clientCache string
		opt                         compare.Options
	)
	cmd := &cobra.Command{
		Use:   "compare --server INI --client DIR [--client-cache DIR] [--redirect DIR] [--preset NAME] [--url URL] [--mutators PKG.CLASS,...] [--maps GLOB] [--json]",
		Short: "What each client will hit: the server's packages against a client install and cache",
		Long: `compare takes every package the server sends (its live package map: ServerPackages, or a
mapvote preset's with --preset, and every map with all it imports, retail packages included) and
looks each up in the client install DIR (its ini's Paths, then its download cache by GUID, as its
engine does): the same GUID (and on UE2 at least the server's generations), another GUID, or
nothing; with --redirect DIR, also whether the redirect folder's compressed files decompress to the
server's files. Each difference is a finding with the error the player sees and the fix. Exit 1 when a
finding is an error, 0 otherwise.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if client == "" {
				return usagef("compare: --client DIR is required")
			}
			if server != "" {
				a.cfg.Ini = server
			}
			in, g, err := a.openGraph(cmd.Context())
			if err != nil {
				return unflagged(err)
			}
			cl, err := install.Open(install.Options{Ini: client, Game: in.Game.Name, Platform: a.cfg.Platform, CacheDir: clientCache, Warn: a.warn, Name: flagOf})
			if err != nil {
				return unflagged(err)
			}
			opt.Jobs = a.cfg.Jobs
			rep, err := compare.Compare(cmd.Context(), in, g, cl, opt)
			if err != nil {
				return err
			}
			return a.emit(cmd.OutOrStdout(), rep, func(w io.Writer) error { return rep.WriteText(w) }, rep.Errors > 0)
		},
	}
	f := cmd.Flags()
	f.StringVar(&server, "server", "", "the server's ini (or its folder); default --ini")
	f.StringVar(&client, "client", "", "the client install: its ini, its folder or its System folder (required)")
	f.StringVar(&clientCache, "client-cache", "", "the client's download cache folder (default: its ini's CachePath)")
	f.StringVar(&opt.Preset, "preset", "", `the mapvote preset whose ServerPackages the server sends ("Category/Name", "*" for every preset)`)
	addServerFlags(f)
	f.StringVar(&opt.Redirect, "redirect", "", "also check the server's redirect folder: a compressed file made from another version than the server's")
	f.StringVar(&opt.Maps, "maps", "", "only the server's maps whose name or file name matches GLOB (default: every map)")
	f.Bool("json", false, "print the report as JSON")
	return cmd
}

// unflagged is err with an ini that cannot be found (install.ArgIni) said
// as it is: compare names its installs by --server and --client, not
// --ini.
func unflagged(err error) error {
	var ae install.ArgError
	if errors.As(err, &ae) && ae.Arg == install.ArgIni {
		return ae.Err
	}
	return err
}
