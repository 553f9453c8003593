package install

import (
	"context"
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
	c, err := cache.Open(ctx, dir, cache.Options{Generation: in.Search.Generation(), Ext: in.Search.CacheExt(), Jobs: jobs})
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
