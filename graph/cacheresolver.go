package graph

import (
	"path/filepath"
	"strings"
)

// CachedPackage is a package file in the download cache.
type CachedPackage struct {
	Name     string // package name (the original file name without extension)
	Original string // original file name, e.g. "CityTex.utx"
	File     string // the cache file, absolute
	Rel      string // File for display
}

// WithCache returns a Resolver that answers like r, and for a name r cannot
// resolve, with a package of that name from the download cache — what a
// client joining a server would have. Of several cached packages with one
// name, the last in the list wins (pass them in cache.ini order: the newest
// download last).
func WithCache(r Resolver, cached []CachedPackage) Resolver {
	byName := map[string]CachedPackage{}
	for _, c := range cached {
		byName[strings.ToLower(c.Name)] = c
	}
	return cacheResolver{r, byName}
}

type cacheResolver struct {
	Resolver
	cached map[string]CachedPackage
}

func (r cacheResolver) Resolve(name string) Resolution {
	res := r.Resolver.Resolve(name)
	if res.File != "" {
		return res
	}
	if c, ok := r.cached[strings.ToLower(name)]; ok {
		rel := c.Rel
		if rel == "" {
			rel = filepath.ToSlash(c.File)
		}
		return Resolution{File: c.File, Rel: rel, PathIndex: -1, FromCache: true, Original: c.Original}
	}
	return res
}
