package redirect

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/uz"
)

// MapOptions configure NewMap.
type MapOptions struct {
	// ServerPackages is the ini's ServerPackages list.
	ServerPackages []string
	// Maps is a glob (path.Match syntax, case-insensitive) selecting maps by
	// name or file name; "" selects every map the install's Paths reach.
	Maps string
	// IncludeStock publishes retail packages too; by default they are
	// reported and left out, as every client owns them.
	IncludeStock bool
	// Generation is the game's engine generation (1 or 2): it decides the
	// format of a package whose version is unknown.
	Generation int
	// Stock is the game's retail file list (ini.StockOf); nil: only the
	// retail code packages of every game (graph.IsStock) are stock.
	Stock *ini.Stock
	// Server names the install, for the reports of Build and Verify.
	Server Server
}

// isStock reports whether p is a retail file of the game: its file name is
// in opt.Stock, or it is a retail code package.
func (opt MapOptions) isStock(p *graph.Package) bool {
	if opt.Stock.HasFile(p.Rel) {
		return true
	}
	return p.Kind == graph.KindCode && graph.IsStock(p.Name)
}

// Entry is a package of the map.
type Entry struct {
	Name    string // package name
	File    string // the server's copy, absolute
	Rel     string // File relative to the game root, with "/"
	Base    string // File's base name: the name clients ask the redirect for, plus Kind.Ext()
	Version uint16
	GUID    string
	Size    int64   // bytes of the server's copy
	Kind    uz.Kind // the compressed format its clients read
	// Compressed is the file name in the redirect folder: Base + Kind.Ext().
	Compressed string
	// Publish is false for a retail package (unless IncludeStock) and for
	// one without AllowDownload: Build skips it, Verify checks its file
	// only when present.
	Publish bool
	Stock   bool
	// Via is the package it is first reached from ("" for a map or a
	// ServerPackages entry).
	Via string
}

// Map is the package map a client can be asked to download.
type Map struct {
	Maps           []string // the selected maps, sorted
	ServerPackages []string // the ServerPackages entries as listed
	Entries        []Entry  // sorted by name
	// Findings are the problems of the map itself (all warnings): missing,
	// unreadable, ServerSideOnly and not downloadable packages, and the
	// retail packages left out.
	Findings []Finding
	Server   Server // MapOptions.Server
}

// Published returns the entries Build writes.
func (m *Map) Published() []Entry {
	var out []Entry
	for _, e := range m.Entries {
		if e.Publish {
			out = append(out, e)
		}
	}
	return out
}

// NewMap computes the package map of the install whose graph is g: every
// selected map and ServerPackages entry and everything they import,
// transitively, minus ServerSideOnly packages (which are never sent, so
// their own imports do not count either). The slices of the returned Map
// are the caller's.
func NewMap(g *graph.Graph, opt MapOptions) (*Map, error) {
	if opt.Maps != "" {
		if _, err := path.Match(opt.Maps, ""); err != nil {
			return nil, fmt.Errorf("redirect: map pattern %q: %w", opt.Maps, err)
		}
	}
	m := &Map{ServerPackages: append([]string{}, opt.ServerPackages...), Server: opt.Server}
	var roots []*graph.Package
	allMaps := 0
	for _, p := range g.Packages() {
		if p.Kind != graph.KindMap {
			continue
		}
		allMaps++
		if opt.Maps == "" || matchFold(opt.Maps, p.Name) || matchFold(opt.Maps, filepath.Base(p.File)) {
			roots = append(roots, p)
			m.Maps = append(m.Maps, p.Name)
		}
	}
	if opt.Maps != "" && len(m.Maps) == 0 {
		return nil, fmt.Errorf("redirect: map pattern %q matches none of the install's %d maps", opt.Maps, allMaps)
	}
	for _, n := range opt.ServerPackages {
		p := g.Package(n)
		if p == nil {
			m.Findings = append(m.Findings, Finding{Kind: MissingPackage, Severity: Warning, Package: n,
				Message: fmt.Sprintf("%s is listed in ServerPackages but no file resolves through Paths: clients cannot download it", n)})
			continue
		}
		roots = append(roots, p)
	}

	// What clients download, with the first importer of each (via) and all.
	via := map[*graph.Package]*graph.Package{}
	importers := map[*graph.Package][]string{}
	order := closure(g, roots, func(p, q *graph.Package, first bool) {
		importers[q] = append(importers[q], p.Name)
		if first {
			via[q] = p
		}
	})
	inServerPackages := map[string]bool{}
	for _, n := range opt.ServerPackages {
		inServerPackages[strings.ToLower(n)] = true
	}
	for _, p := range order {
		m.add(p, via[p], importers[p], inServerPackages[strings.ToLower(p.Name)], opt)
	}
	slices.SortFunc(m.Entries, func(a, b Entry) int { return cmpFold(a.Name, b.Name) })
	slices.SortFunc(m.Maps, cmpFold)
	sortFindings(m.Findings)
	return m, nil
}

// add records package p, reached from via (nil for a root) and imported by
// importers.
func (m *Map) add(p, via *graph.Package, importers []string, listed bool, opt MapOptions) {
	slices.SortFunc(importers, cmpFold)
	needed := "needed by clients"
	switch {
	case len(importers) > 0:
		needed = "imported by " + strings.Join(importers, ", ")
	case listed:
		needed = "listed in ServerPackages"
	case p.Kind == graph.KindMap:
		needed = "a map"
	}
	warn := func(kind FindingKind, file, format string, args ...any) {
		m.Findings = append(m.Findings, Finding{Kind: kind, Severity: Warning, Package: p.Name, File: file,
			Message: fmt.Sprintf(format, args...)})
	}
	switch {
	case p.Missing():
		warn(MissingPackage, "", "%s is %s but no file resolves through Paths: clients cannot download it", p.Name, needed)
		return
	case p.Err != nil:
		err := p.Err
		var pe *format.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the message names the file already
		}
		warn(Unreadable, p.Rel, "%s (%s) is %s but cannot be read (%v): not published", p.Name, p.Rel, needed, err)
		return
	case p.Flags&format.FlagServerSideOnly != 0:
		if opt.isStock(p) {
			return // a retail package every client owns (UT99's UWindow)
		}
		warn(ServerSideOnly, p.Rel, "%s (%s) is ServerSideOnly, so clients are never sent it, yet it is %s", p.Name, p.Rel, needed)
		return
	}
	st, err := os.Stat(p.File)
	if err != nil {
		warn(Unreadable, p.Rel, "%s (%s) cannot be read (%v): not published", p.Name, p.Rel, err)
		return
	}
	kind := uz.KindFor(p.Version)
	if p.Version == 0 && opt.Generation != 0 {
		kind = uz.KindForGeneration(opt.Generation)
	}
	e := Entry{Name: p.Name, File: p.File, Rel: p.Rel, Base: filepath.Base(p.File), Version: p.Version,
		GUID: p.GUID, Size: st.Size(), Kind: kind, Stock: opt.isStock(p), Publish: true}
	e.Compressed = uz.CompressedName(e.Base, kind)
	if via != nil {
		e.Via = via.Name
	}
	switch {
	case e.Stock && !opt.IncludeStock:
		e.Publish = false
		warn(Stock, p.Rel, "%s is a retail package every client owns: not published", p.Name)
	case p.Flags&format.FlagAllowDownload == 0:
		e.Publish = false
		warn(NotDownloadable, p.Rel, "%s (%s) lacks the AllowDownload flag: the server never sends it, clients must already own it; not published", p.Name, p.Rel)
	}
	m.Entries = append(m.Entries, e)
}

// matchFold reports whether name matches the glob pattern, ignoring case.
func matchFold(pattern, name string) bool {
	ok, _ := path.Match(strings.ToLower(pattern), strings.ToLower(name))
	return ok
}
