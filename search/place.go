package search

import (
	"path/filepath"
	"strings"
)

// The placement rule: where a package file goes when it is installed (a
// download moved out of the cache by the engine's MoveCacheEntry, a cache
// entry extracted, a fix copied in, a mod's package checked as installed).
// It is the one rule every caller uses.

// PlacementIndex returns the index of the Paths entry (as written) that
// places a package file named name: the first entry that ends with the
// name's extension (from its last dot), ignoring case. It returns -1 when
// the name has no extension or no entry takes it.
func PlacementIndex(name string, paths []string) int {
	dot := strings.LastIndexByte(name, '.')
	if dot < 0 {
		return -1
	}
	ext := name[dot:]
	for i, p := range paths {
		if len(p) >= len(ext) && strings.EqualFold(p[len(p)-len(ext):], ext) {
			return i
		}
	}
	return -1
}

// PlacementDir returns the folder the placing entry (PlacementIndex) puts
// name in: the entry up to and including its last "/", "\" or ":",
// relative to systemDir (the folder of the ini), and the entry's index. It
// returns "" and -1 when no entry takes the name.
func PlacementDir(name string, paths []string, systemDir string) (dir string, index int) {
	i := PlacementIndex(name, paths)
	if i < 0 {
		return "", -1
	}
	p := paths[i]
	part := slashes(p[:strings.LastIndexAny(p, `/\:`)+1])
	if filepath.IsAbs(part) {
		return filepath.Clean(part), i
	}
	return filepath.Join(systemDir, filepath.FromSlash(part)), i
}

// PlacementPaths returns the Paths entries to place files by
// (PlacementDir): as written, but under Windows rules an entry whose
// folder the disk spells in another case names that folder, as Windows
// would write into it. The caller owns the slice.
func (s *Searcher) PlacementPaths() []string {
	paths := make([]string, len(s.entries))
	for i, e := range s.entries {
		paths[i] = e.Raw
	}
	if s.platform.Platform != Windows {
		return paths
	}
	for _, n := range s.notes {
		if n.Kind != CaseFolder || n.Index < 0 || n.Index >= len(paths) {
			continue
		}
		e := s.entries[n.Index]
		paths[n.Index] = filepath.Join(e.Dir, e.Prefix+"*"+e.Ext)
	}
	return paths
}
