package install

import "github.com/upkdeps/upkdeps/search"

// Place returns the folder a package file named name is installed to: the
// folder of the first Paths entry that takes its extension (the engine's
// rule for a download moved out of its cache, search.PlacementDir), as
// the platform writes it (search.PlacementPaths). ok is false when the
// name has no extension or no entry takes it.
func (in *Install) Place(name string) (dir string, ok bool) {
	dir, i := search.PlacementDir(name, in.Search.PlacementPaths(), in.Search.Dir())
	return dir, i >= 0
}

// PlacementPaths are the Paths a file is placed by (search.PlacementPaths),
// for a lower-level caller that places many (cache.ExtractOptions.Paths).
func (in *Install) PlacementPaths() []string { return in.Search.PlacementPaths() }
