package redirect

import (
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
// built with.
func NewUnused(g *graph.Graph, opt UnusedOptions) (*Unused, error) {
	res := g.Unused(graph.UnusedOptions{EditPackages: opt.EditPackages, Natives: opt.Natives, IsStock: stockTest(opt.Stock)})
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
	u.ServerPackages, err = lineCosts(g, opt)
	return u, err
}

// stockTest says which package names are the game's own: its retail
// code, or a retail file of the game's stock list.
func stockTest(s *ini.Stock) func(string) bool {
	return func(name string) bool { return graph.IsStock(name) || s.HasPackage(name) }
}

// lineCosts works out each ServerPackages line's download, the part of it
// no other root needs, and what needs its package.
func lineCosts(g *graph.Graph, opt UnusedOptions) ([]LineCost, error) {
	out := []LineCost{}
	for _, r := range g.Roots() {
		if !strings.EqualFold(r.Key, "ServerPackages") {
			continue
		}
		c := LineCost{Line: r.Evidence(), Package: r.Value, Missing: r.Package == nil || r.Package.Missing(), NeededBy: []string{}}
		d, err := NewDownloads(g, DownloadOptions{ServerPackages: []string{r.Value}, Maps: []string{},
			Generation: opt.Generation, Stock: opt.Stock})
		if err != nil {
			return nil, err
		}
		c.Download = RootDownload{Name: "ServerPackages", Kind: "server_packages", Packages: []string{}, Sizes: Sizes{Compressed: -1}}
		for _, rd := range d.Roots {
			if rd.Kind == "server_packages" {
				c.Download = rd
			}
		}
		// What the other roots reach: the other ini lines, the maps.
		var others []*graph.Package
		for _, o := range g.Roots() {
			if o.Package != nil && !sameLine(o, r) {
				others = append(others, o.Package)
			}
		}
		for _, p := range g.Packages() {
			if p.Kind == graph.KindMap {
				others = append(others, p)
			}
		}
		reached := map[*graph.Package]bool{}
		for _, rr := range g.Reach(others, -1, false) {
			reached[rr.Package] = true
		}
		c.Only = Sizes{Compressed: -1}
		sizes := map[string]PackageDownload{}
		for _, pd := range d.Packages {
			sizes[strings.ToLower(pd.Name)] = pd
		}
		for _, n := range c.Download.Packages {
			if p := g.Package(n); p != nil && !reached[p] {
				c.Only.Count++
				c.Only.Bytes += sizes[strings.ToLower(n)].Bytes
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
func sameLine(a, b graph.RootRef) bool { return a.Ini == b.Ini && a.Line == b.Line && a.Key == b.Key }

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
