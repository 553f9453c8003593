package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/cache"
	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/install"
)

func newCacheCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "cache",
		Short: "List, verify, extract, clean and fill the download cache",
		Long: `cache manages the download cache: the folder where a client keeps the packages it
downloaded from servers under their GUIDs, with cache.ini naming them.

Every cache command takes the game's ini (--ini, else one found in . or ./System: CachePath,
CacheExt and Paths come from it) or --cache DIR alone, a bare cache folder whose engine
generation is read from its file names. With both, --cache replaces the ini's CachePath.`,
	}
	cmd.PersistentFlags().String("cache", "", "the cache folder: replaces the ini's CachePath; without --ini, a bare cache folder")
	cmd.AddCommand(
		newCacheListCmd(a),
		newCacheVerifyCmd(a),
		newCacheExtractCmd(a),
		newCacheCleanCmd(a),
		newCacheAddCmd(a),
	)
	return cmd
}

// openCache opens the cache named by --cache or the ini, and classifies its
// entries against the installation when there is one. lock, for a command
// that changes the cache, takes the cache folder's lock in its name (see
// cache.Options.Lock) and makes unsafe ini values errors; the caller closes
// the view's cache. "" is a reader.
func (a *app) openCache(ctx context.Context, lock string) (*cache.View, error) {
	a.settingsAreErrors = lock != ""
	opt := cache.Options{Jobs: a.cfg.Jobs, Lock: lock}
	if a.cfg.Ini == "" && a.cfg.Cache != "" {
		if a.cfg.Game != "" {
			g, err := ini.ParseGame(a.cfg.Game)
			if err != nil {
				return nil, usageError{err}
			}
			opt.Generation = g.Generation
		}
		return cache.OpenView(ctx, a.cfg.Cache, opt)
	}
	in, err := a.openInstall()
	if err != nil {
		return nil, err
	}
	v, err := in.OpenCache(ctx, opt)
	if errors.Is(err, install.ErrNoCacheDir) {
		return nil, fmt.Errorf("%s sets no [Core.System] CachePath: give the cache folder with --cache DIR", in.IniPath)
	}
	return v, err
}
