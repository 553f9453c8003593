package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

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

// cacheView is an opened cache and, with an ini, the installation it
// belongs to.
type cacheView struct {
	c       *cache.Cache
	in      *install.Install // nil for a bare --cache folder
	root    string           // paths are shown relative to it: the game root, or the cache's parent
	game    string           // for the header
	iniPath string
}

// openCache opens the cache named by --cache or the ini, and classifies its
// entries against the installation when there is one. lock, for a command
// that changes the cache, takes the cache folder's lock in its name (see
// cache.Options.Lock) and makes unsafe ini values errors; the caller closes
// the view's cache. "" is a reader.
func (a *app) openCache(ctx context.Context, lock string) (*cacheView, error) {
	a.settingsAreErrors = lock != ""
	gen := 0
	if a.cfg.Game != "" {
		g, err := ini.ParseGame(a.cfg.Game)
		if err != nil {
			return nil, usageError{err}
		}
		gen = g.Generation
	}
	if a.cfg.Ini == "" && a.cfg.Cache != "" {
		c, err := cache.Open(ctx, a.cfg.Cache, cache.Options{Generation: gen, Jobs: a.cfg.Jobs, Lock: lock})
		if err != nil {
			return nil, err
		}
		return &cacheView{c: c, root: filepath.Dir(c.Dir), game: fmt.Sprintf("UE%d", c.Generation)}, nil
	}
	in, err := a.openInstall()
	if err != nil {
		return nil, err
	}
	dir := in.Search.CacheDir()
	if dir == "" {
		return nil, fmt.Errorf("%s sets no [Core.System] CachePath: give the cache folder with --cache DIR", in.IniPath)
	}
	c, err := cache.Open(ctx, dir, cache.Options{Generation: in.Search.Generation(), Ext: in.Search.CacheExt(), Jobs: a.cfg.Jobs, Lock: lock})
	if err != nil {
		return nil, err
	}
	c.Classify(in.Search)
	return &cacheView{c: c, in: in, root: in.Search.Root(), game: in.GameLabel() + "; " + in.RulesLabel(), iniPath: in.IniPath}, nil
}

// rel shows path relative to the view's root with "/", or as it is when it
// lies outside.
func (v *cacheView) rel(path string) string {
	if path == "" {
		return ""
	}
	r, err := filepath.Rel(v.root, path)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(path)
	}
	return filepath.ToSlash(r)
}

// header is the first line of text output.
func (v *cacheView) header() string {
	files := "GUID" + v.c.Ext
	if v.c.Generation == 2 {
		files = "GUID-Gen" + v.c.Ext
	}
	ini := "no cache.ini"
	if v.c.HasIni() {
		ini = v.rel(v.c.IniPath())
	}
	return fmt.Sprintf("Cache: %s (%s; files %s; %s)\n", v.rel(v.c.Dir), v.game, files, ini)
}
