package redirect

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/ini"
)

// DownloadsSchemaVersion is the version of Downloads' JSON form (docs/usage.md,
// "downloads").
const DownloadsSchemaVersion = 1

// DownloadOptions configure NewDownloads.
type DownloadOptions struct {
	// ServerPackages, IncludeStock, Generation and Stock are as in
	// MapOptions: give Stock as redirect build does, or its retail maps,
	// textures and sounds count as downloads.
	ServerPackages []string
	IncludeStock   bool
	Generation     int
	Stock          *ini.Stock
	// Maps names the maps to show (case-insensitive, by name or file
	// name); nil: every map. The ServerPackages root is always shown.
	Maps []string
	// Dir is a redirect folder: a package's compressed size is that of
	// its file there, when present. A Dir that is missing or not a folder
	// is an error; a symbolic link in it is not followed (its package
	// counts as not compressed).
	Dir string
}

// Downloads is what clients download from the redirect, map by map: the
// packages `redirect build` publishes for each root.
type Downloads struct {
	SchemaVersion int `json:"schema_version"`
	// Roots are the maps (and "ServerPackages"), heaviest first.
	Roots []RootDownload `json:"roots"`
	// Packages are the published packages any root needs, those that the
	// most roots share first, then the biggest.
	Packages []PackageDownload `json:"packages"`
	// Total counts every package once (the whole redirect folder).
	Total Sizes `json:"total"`
}

// Sizes sums packages. Compressed sums the compressed files found (-1
// when none is); CompressedCount says how many of Count those are.
type Sizes struct {
	Count           int   `json:"count"`
	Bytes           int64 `json:"bytes"`
	Compressed      int64 `json:"compressed_bytes"`
	CompressedCount int   `json:"compressed_count"`
}

func (s *Sizes) add(p *PackageDownload) {
	s.Count++
	s.Bytes += p.Bytes
	if p.Compressed >= 0 {
		s.Compressed = max(s.Compressed, 0) + p.Compressed
		s.CompressedCount++
	}
}

// RootDownload is what a client downloads for one map (Kind "map") or on
// joining the server at all (Kind "server_packages"): the root itself
// when published, and every published package it needs.
type RootDownload struct {
	Name     string   `json:"name"`
	Kind     string   `json:"kind"`
	Packages []string `json:"packages"` // sorted
	Sizes
}

// PackageDownload is one published package.
type PackageDownload struct {
	Name       string `json:"name"`
	File       string `json:"file"`  // relative to the game root, "/"-separated
	Bytes      int64  `json:"bytes"` // the server's copy
	Compressed int64  `json:"compressed_bytes"`
	// CompressedFile is its name in the redirect folder; Compressed is
	// its size there, -1 when absent (or no folder was given).
	CompressedFile string `json:"compressed_file"`
	// Roots is how many roots need it.
	Roots int `json:"roots"`
}

// NewDownloads computes the downloads of g's install, root by root, from
// the same package map `redirect build` publishes. When ctx is done it
// stops with ctx's error.
func NewDownloads(ctx context.Context, g *graph.Graph, opt DownloadOptions) (*Downloads, error) {
	if opt.Dir != "" {
		st, err := os.Stat(opt.Dir)
		if err != nil {
			return nil, fmt.Errorf("redirect: %w", err)
		}
		if !st.IsDir() {
			return nil, fmt.Errorf("redirect: %s: not a folder", opt.Dir)
		}
	}
	m, err := NewMap(g, MapOptions{ServerPackages: opt.ServerPackages, IncludeStock: opt.IncludeStock, Generation: opt.Generation,
		Stock: opt.Stock})
	if err != nil {
		return nil, err
	}
	pub := publishedDownloads(m, opt.Dir)

	roots, kinds, err := mapRoots(g, opt.Maps)
	if err != nil {
		return nil, err
	}

	d := &Downloads{SchemaVersion: DownloadsSchemaVersion, Roots: []RootDownload{}, Packages: []PackageDownload{}}
	needed := map[*PackageDownload]bool{}
	addRoot := func(name, kind string, start []*graph.Package) {
		d.Roots = append(d.Roots, rootDownload(g, pub, name, kind, start, func(pd *PackageDownload) {
			pd.Roots++
			needed[pd] = true
		}))
	}
	for i, p := range roots {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		addRoot(p.Name, kinds[i], []*graph.Package{p})
	}
	var sp []*graph.Package
	for _, n := range opt.ServerPackages {
		if p := g.Package(n); p != nil {
			sp = append(sp, p)
		}
	}
	if len(sp) > 0 {
		addRoot("ServerPackages", "server_packages", sp)
	}
	for pd := range needed {
		d.Packages = append(d.Packages, *pd)
	}
	d.Total.Compressed = -1
	slices.SortFunc(d.Packages, func(a, b PackageDownload) int {
		return cmp.Or(cmp.Compare(b.Roots, a.Roots), cmp.Compare(b.Bytes, a.Bytes), cmpFold(a.Name, b.Name))
	})
	for i := range d.Packages {
		d.Total.add(&d.Packages[i])
	}
	slices.SortFunc(d.Roots, func(a, b RootDownload) int {
		return cmp.Or(cmp.Compare(b.Bytes, a.Bytes), cmpFold(a.Name, b.Name))
	})
	return d, nil
}

// rootDownload is what a client joining through the packages start
// downloads: the published packages (pub, by lower-cased name) of their
// closure, each also given to each (nil: none).
func rootDownload(g *graph.Graph, pub map[string]*PackageDownload, name, kind string, start []*graph.Package, each func(*PackageDownload)) RootDownload {
	r := RootDownload{Name: name, Kind: kind, Packages: []string{}}
	for _, p := range closure(g, start, nil) {
		if pd := pub[strings.ToLower(p.Name)]; pd != nil {
			r.Packages = append(r.Packages, pd.Name)
			r.add(pd)
			if each != nil {
				each(pd)
			}
		}
	}
	slices.SortFunc(r.Packages, cmpFold)
	if r.CompressedCount == 0 {
		r.Compressed = -1
	}
	return r
}

// publishedDownloads returns the downloads of m's published packages by lower-cased
// name, with their compressed sizes in dir ("": not measured).
func publishedDownloads(m *Map, dir string) map[string]*PackageDownload {
	pub := map[string]*PackageDownload{}
	for _, e := range m.Published() {
		pd := &PackageDownload{Name: e.Name, File: e.Rel, Bytes: e.Size, Compressed: -1, CompressedFile: e.Compressed}
		if dir != "" {
			// Lstat: a link is not measured through (a link to a system
			// file would size that file).
			if st, err := os.Lstat(filepath.Join(dir, e.Compressed)); err == nil && st.Mode().IsRegular() {
				pd.Compressed = st.Size()
			}
		}
		pub[strings.ToLower(e.Name)] = pd
	}
	return pub
}

// mapRoots returns the maps of g that are roots (maps: those named, nil:
// every map), each with its kind, "map"; a name no map has is an error.
func mapRoots(g *graph.Graph, maps []string) ([]*graph.Package, []string, error) {
	var roots []*graph.Package
	var kinds []string
	want := map[string]bool{}
	for _, n := range maps {
		want[strings.ToLower(n)] = true
	}
	found := map[string]bool{}
	for _, p := range g.Packages() {
		if p.Kind != graph.KindMap {
			continue
		}
		base := strings.ToLower(baseName(p.File))
		if maps != nil && !want[strings.ToLower(p.Name)] && !want[base] {
			continue
		}
		found[strings.ToLower(p.Name)], found[base] = true, true
		roots, kinds = append(roots, p), append(kinds, "map")
	}
	for _, n := range maps {
		if !found[strings.ToLower(n)] {
			return nil, nil, fmt.Errorf("redirect: %s: no such map in the install", n)
		}
	}
	return roots, kinds, nil
}

// closure returns the start packages and everything they import,
// transitively and breadth first, without entering ServerSideOnly packages:
// what clients download. edge, when not nil, is told of every import
// followed, and whether it reached its package first.
func closure(g *graph.Graph, start []*graph.Package, edge func(from, to *graph.Package, first bool)) []*graph.Package {
	seen := map[*graph.Package]bool{}
	var order []*graph.Package
	for _, p := range start {
		if !seen[p] {
			seen[p] = true
			order = append(order, p)
		}
	}
	for i := 0; i < len(order); i++ {
		p := order[i]
		if p.Flags&format.FlagServerSideOnly != 0 {
			continue
		}
		for _, q := range g.Imports(p) {
			first := !seen[q]
			if edge != nil {
				edge(p, q, first)
			}
			if first {
				seen[q] = true
				order = append(order, q)
			}
		}
	}
	return order
}

func baseName(file string) string {
	if i := strings.LastIndexAny(file, `/\`); i >= 0 {
		return file[i+1:]
	}
	return file
}
