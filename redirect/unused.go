package redirect

import (
	"context"
	"os"
	"path"
	"strings"

	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/ini"
)

// UnusedSchemaVersion is the version of Unused's JSON form (docs/json.md,
// "unused").
const UnusedSchemaVersion = 1

// UnusedOptions configure NewUnused.
type UnusedOptions struct {
	// EditPackages and Natives are as in graph.UnusedOptions.
	EditPackages []string
	Natives      graph.Natives
	// Generation and Stock are as in DownloadOptions: Stock's packages are
	// never listed as unused, and are not downloads.
	Generation int
	Stock      *ini.Stock
	// Used is as in graph.UnusedOptions: the packages a mapvote's presets
	// load or send.
	Used []string
}

// Unused is what the server carries that nothing uses, and what each
// ServerPackages line costs (upkdeps unused; docs/json.md#unused).
type Unused struct {
	SchemaVersion int `json:"schema_version"`
	// Packages are the package files nothing reaches, sorted by name.
	Packages []UnusedPackage `json:"unused"`
	// Bytes is their size in all.
	Bytes int64 `json:"unused_bytes"`
	// StockUnused counts the stock packages nothing reaches (not listed).
	StockUnused int `json:"stock_unused"`
	// ServerPackages are the ServerPackages lines, in the ini's order.
	ServerPackages []LineCost `json:"server_packages"`
}

// UnusedPackage is a package file nothing reaches.
type UnusedPackage struct {
	Name   string `json:"name"`
	File   string `json:"file"`   // relative to the game root, "/"-separated
	Folder string `json:"folder"` // the file's folder
	Kind   string `json:"kind"`
	Bytes  int64  `json:"bytes"` // -1 when unknown
	// Through are the unused packages nothing imports that would reach
	// this one if a map or an ini line named them; empty when naming this
	// one is the way.
	Through []string `json:"through"`
}

// LineCost is one ServerPackages line: what a new client downloads for
// it, and what on the server needs it.
type LineCost struct {
	Line    string `json:"line"` // "Server.ini:23 ServerPackages=Mod01"
	Package string `json:"package"`
	Missing bool   `json:"missing"` // no file resolves for it
	// Download is what a client downloads for this line alone: the
	// server_packages root of NewDownloads for an ini with only it.
	Download RootDownload `json:"download"`
	// Only is the part of Download that no other root (map, other line)
	// needs: what removing the line saves a new client.
	Only Sizes `json:"only"`
	// NeededBy are the other ini lines (in the ini's order) and the maps
	// (by name) that need the package; empty when nothing does.
	NeededBy []string `json:"needed_by"`
	// NothingNeedsIt is true when NeededBy is empty.
	NothingNeedsIt bool `json:"nothing_needs_it"`
}

// Findings reports whether u has an unused package or a line nothing needs.
func (u *Unused) Findings() bool {
	for _, sp := range u.ServerPackages {
		if sp.NothingNeedsIt {
			return true
		}
	}
	return len(u.Packages) > 0
}

// NewUnused finds the packages of g's install that nothing reaches
// (graph.Unused) and costs each ServerPackages line of the ini roots g was
// built with. When ctx is done it stops with ctx's error.
func NewUnused(ctx context.Context, g *graph.Graph, opt UnusedOptions) (*Unused, error) {
	res := g.Unused(graph.UnusedOptions{EditPackages: opt.EditPackages, Natives: opt.Natives, IsStock: stockTest(opt.Stock), Used: opt.Used})
	u := &Unused{SchemaVersion: UnusedSchemaVersion, Packages: []UnusedPackage{}, StockUnused: res.Stock, ServerPackages: []LineCost{}}
	for _, r := range res.Packages {
		p := r.Package
		up := UnusedPackage{Name: p.Name, File: path.Clean(p.Rel), Folder: path.Dir(path.Clean(p.Rel)), Kind: string(p.Kind),
			Bytes: -1, Through: []string{}}
		if fi, err := os.Stat(p.File); err == nil {
			up.Bytes = fi.Size()
			u.Bytes += up.Bytes
		}
		for _, t := range r.Through {
			up.Through = append(up.Through, t.Name)
		}
		u.Packages = append(u.Packages, up)
	}
	var err error
	u.ServerPackages, err = lineCosts(ctx, g, opt)
	return u, err
}

// stockTest says which package names are the game's own: its retail
// code, or a retail file of the game's stock list.
func stockTest(s *ini.Stock) func(string) bool {
	return func(name string) bool { return graph.IsStock(name) || s.HasPackage(name) }
}

// lineCosts works out each ServerPackages line's download, the part of it
// no other root needs, and what needs its package.
func lineCosts(ctx context.Context, g *graph.Graph, opt UnusedOptions) ([]LineCost, error) {
	// What each package costs a client does not depend on the line that
	// brings it: one map of every line's packages (and the maps') gives
	// all the lines their sizes; a map for each line, as the line's own
	// downloads made it, cost a server of many lines a walk of every map
	// per line.
	var lines []graph.RootRef
	var names []string
	for _, r := range g.Roots() {
		if strings.EqualFold(r.Key, "ServerPackages") {
			lines, names = append(lines, r), append(names, r.Value)
		}
	}
	m, err := NewMap(g, MapOptions{ServerPackages: names, Generation: opt.Generation, Stock: opt.Stock})
	if err != nil {
		return nil, err
	}
	pub := publishedDownloads(m, "")
	who := reachers(g)
	out := []LineCost{}
	for _, r := range lines {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c := LineCost{Line: r.Evidence(), Package: r.Value, Missing: r.Package == nil || r.Package.Missing(), NeededBy: []string{}}
		c.Download = RootDownload{Name: "ServerPackages", Kind: "server_packages", Packages: []string{}, Sizes: Sizes{Compressed: -1}}
		if p := g.Package(r.Value); p != nil {
			c.Download = rootDownload(g, pub, "ServerPackages", "server_packages", []*graph.Package{p}, nil)
		}
		c.Only = Sizes{Compressed: -1}
		for _, n := range c.Download.Packages {
			if p := g.Package(n); p != nil && !who.byOthers(p, r) {
				c.Only.Count++
				c.Only.Bytes += pub[strings.ToLower(n)].Bytes
			}
		}
		if r.Package != nil {
			c.NeededBy = neededBy(g, r.Package, r)
		}
		c.NothingNeedsIt = len(c.NeededBy) == 0
		out = append(out, c)
	}
	return out, nil
}

// sameLine reports whether two roots are one ini line.
func sameLine(a, b graph.RootRef) bool { return lineKey(a) == lineKey(b) }

// lineOf names the ini line of a root: its file, line and key.
type lineOf struct {
	ini  string
	line int
	key  string
}

func lineKey(r graph.RootRef) lineOf { return lineOf{r.Ini, r.Line, r.Key} }

// reach is who reaches each package: the maps, and each ini line's root.
type reach struct {
	maps   map[*graph.Package]bool
	owner  map[*graph.Package]lineOf // the one line whose root reaches it (and no map)
	shared map[*graph.Package]bool   // reached by the roots of two lines or more (and no map)
}

// reachers works out who reaches each package, each root walked once: a
// line's others (every root of another line, and the maps) reach what the
// maps reach and what any other line's root reaches. A root the maps reach
// adds nothing they do not.
func reachers(g *graph.Graph) reach {
	w := reach{maps: map[*graph.Package]bool{}, owner: map[*graph.Package]lineOf{}, shared: map[*graph.Package]bool{}}
	var maps []*graph.Package
	for _, p := range g.Packages() {
		if p.Kind == graph.KindMap {
			maps = append(maps, p)
		}
	}
	for _, rr := range g.Reach(maps, -1, false) {
		w.maps[rr.Package] = true
	}
	for _, o := range g.Roots() {
		if o.Package == nil || w.maps[o.Package] {
			continue
		}
		k := lineKey(o)
		for _, rr := range g.Reach([]*graph.Package{o.Package}, -1, false) {
			p := rr.Package
			if w.maps[p] || w.shared[p] {
				continue
			}
			if prev, ok := w.owner[p]; !ok {
				w.owner[p] = k
			} else if prev != k {
				w.shared[p] = true
			}
		}
	}
	return w
}

// byOthers reports whether p is reached from outside r's line: by a map
// or by the root of another line.
func (w reach) byOthers(p *graph.Package, r graph.RootRef) bool {
	if w.maps[p] || w.shared[p] {
		return true
	}
	k, ok := w.owner[p]
	return ok && k != lineKey(r)
}

// neededBy lists the ini lines (other than own) and the maps from which p
// is reached: ini lines first, in the ini's order, then maps by name.
func neededBy(g *graph.Graph, p *graph.Package, own graph.RootRef) []string {
	needs := map[*graph.Package]bool{}
	for _, r := range g.Reach([]*graph.Package{p}, -1, true) {
		needs[r.Package] = true
	}
	out := []string{}
	for _, r := range g.Roots() {
		if r.Package != nil && needs[r.Package] && !sameLine(r, own) {
			out = append(out, r.Evidence())
		}
	}
	for _, q := range g.Packages() {
		if q.Kind == graph.KindMap && needs[q] && q != p {
			out = append(out, q.Name)
		}
	}
	return out
}
