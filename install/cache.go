package install

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/upkdeps/upkdeps/cache"
)

// CachePins returns the GUIDs the install's download cache gives package
// names (lower case): a client that has a package in its cache pins that
// version. Nil when there is no cache or it cannot be read (or ctx is
// done). jobs bounds the files read at once (0 or less: one per core).
func (in *Install) CachePins(ctx context.Context, jobs int) map[string]string {
	dir := in.Search.CacheDir()
	if dir == "" {
		return nil
	}
	c, err := cache.Open(ctx, dir, in.cacheOptions(cache.Options{Jobs: jobs}))
	if err != nil {
		return nil
	}
	pins := map[string]string{}
	for _, e := range c.Entries() {
		if e.Name != "" && e.GUID != "" {
			pins[strings.ToLower(cache.PackageName(e.Name))] = e.GUID
		}
	}
	return pins
}

// ErrNoCacheDir is OpenCache's error for an install whose ini sets no
// CachePath, when Options.CacheDir named no folder either.
var ErrNoCacheDir = errors.New("the ini sets no [Core.System] CachePath")

// cacheOptions are opt with the cache file names of the install's
// engine: its generation and CacheExt.
func (in *Install) cacheOptions(opt cache.Options) cache.Options {
	opt.Generation, opt.Ext = in.Search.Generation(), in.Search.CacheExt()
	return opt
}

// OpenCache opens the install's download cache (CachePath, or
// Options.CacheDir) with opt (its Generation and Ext are the install's),
// classifies its entries against the install, and returns it as the cache
// commands show it: paths relative to the game root, the game and rules
// in its header. The caller closes the cache.
func (in *Install) OpenCache(ctx context.Context, opt cache.Options) (*cache.View, error) {
	dir := in.Search.CacheDir()
	if dir == "" {
		return nil, fmt.Errorf("%s: %w", in.IniPath, ErrNoCacheDir)
	}
	c, err := cache.Open(ctx, dir, in.cacheOptions(opt))
	if err != nil {
		return nil, err
	}
	c.Classify(in.Search)
	return &cache.View{Cache: c, Root: in.Search.Root(), Game: in.GameLabel() + "; " + in.RulesLabel(), Search: in.Search}, nil
}
