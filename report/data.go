package report

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path"
	"slices"
	"strconv"

	"github.com/upkdeps/upkdeps/check"
	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/redirect"
)

// SchemaVersion is the version of Data's JSON form (docs/report.md).
const SchemaVersion = 2

// DefaultMaxObjects is how many imported object names a page embeds at
// most when Options.MaxObjects is 0: a 20,000-package install imports
// more than a million, which would make the page too big to open quickly;
// 200,000 gives each of its 150,000 imports at least one.
const DefaultMaxObjects = 200_000

// Data is everything the page shows. Its JSON form is documented in
// docs/report.md.
type Data struct {
	SchemaVersion int    `json:"schema_version"`
	Generator     string `json:"generator"`
	// Check is the value `check --json` prints for the same install.
	Check *check.Report      `json:"check"`
	Graph Graph              `json:"graph"`
	Order *graph.OrderResult `json:"order"` // nil: the ini has no EditPackages
	// Downloads is what clients download per map (nil: not computed).
	Downloads *Downloads `json:"downloads"`
	// Overview is the whole server by group, as `graph --overview` draws
	// it (absent from pages of older versions).
	Overview *Overview `json:"overview,omitempty"`
	// Unused is what `unused --json` prints (absent from pages of older
	// versions).
	Unused *redirect.Unused `json:"unused,omitempty"`
}

// Overview is `graph --overview`'s drawing: one node per group of
// packages (graph.Groups), edges between groups after the same reduction.
type Overview struct {
	Groups []OverviewGroup `json:"groups"`
	// Edges are [from, to, package imports, objects] by group index.
	Edges [][4]int `json:"edges"`
}

// OverviewGroup is one group: its packages and the missing packages it
// holds, by package index; Base when most others import it (its incoming
// edges are not drawn), with how many do.
type OverviewGroup struct {
	Name       string `json:"name"`
	Kind       string `json:"kind"`
	Members    []int  `json:"members"`
	Missing    []int  `json:"missing"`
	Base       bool   `json:"base,omitempty"`
	ImportedBy int    `json:"imported_by"`
}

// Downloads is redirect.Downloads without each root's package list (a
// large install's maps list millions of names): the totals per root and
// per package, as `downloads --json` prints them.
type Downloads struct {
	Roots []DownloadRoot `json:"roots"`
	// Packages are the MaxDownloadPackages most shared of PackageCount.
	Packages     []redirect.PackageDownload `json:"packages"`
	PackageCount int                        `json:"package_count"`
	Total        redirect.Sizes             `json:"total"`
}

// MaxDownloadPackages is how many of the most shared packages the page's
// Downloads view lists: 20,000 packages would add 4 MB to the page.
const MaxDownloadPackages = 1000

// DownloadRoot is a map or the ServerPackages with its sums.
type DownloadRoot struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
	redirect.Sizes
}

// Graph is the install's dependency graph as the page needs it: packages
// by index, imports between indexes. Its JSON form is graphJSON's.
type Graph struct {
	Packages []Package `json:"packages"`
	Imports  []Import  `json:"imports"`
	Roots    []Root    `json:"roots"`
	Cycles   [][]int   `json:"cycles"`
	// ObjectsPerImport is how many object names each import lists at most;
	// -1 when every import lists all of its objects.
	ObjectsPerImport int `json:"objects_per_import"`
}

// Package is one node: a package file or a missing name.
type Package struct {
	Name      string     `json:"name"`
	File      string     `json:"file"` // relative to the ini's folder, "/"-separated; "" when missing
	Kind      graph.Kind `json:"kind"`
	Version   uint16     `json:"version"`
	Licensee  uint16     `json:"licensee"`
	GUID      string     `json:"guid"`
	Flags     []string   `json:"flags"`
	Size      int64      `json:"size"` // bytes; -1 when unknown
	FromCache bool       `json:"from_cache,omitempty"`
	Error     string     `json:"error,omitempty"` // why the file could not be read
}

// Import is an edge: From imports Count objects of To, Objects being the
// first of them (all of them unless Graph.ObjectsPerImport caps it), as
// "Path (ClassPackage.Class)".
type Import struct {
	From, To int
	Count    int
	Objects  []string
}

// graphJSON is Graph's JSON form: every object name once, in
// object_names, and each import an array [from, to, count, [name
// indexes...]]. Most names are imported by many packages (a class of
// Engine by every map): on the generated 665-package install 101,577
// listed objects are 5,656 names, and the page is 3.5 MB with the names
// written per import, 1.0 MB with indexes.
type graphJSON struct {
	Packages         []Package         `json:"packages"`
	ObjectNames      []string          `json:"object_names"`
	Imports          []json.RawMessage `json:"imports"`
	Roots            []Root            `json:"roots"`
	Cycles           [][]int           `json:"cycles"`
	ObjectsPerImport int               `json:"objects_per_import"`
}

// MarshalJSON writes the graph with each object name once (graphJSON).
func (g Graph) MarshalJSON() ([]byte, error) {
	index := make(map[string]int)
	for _, im := range g.Imports {
		for _, o := range im.Objects {
			index[o] = 0
		}
	}
	names := slices.Sorted(maps.Keys(index))
	for i, n := range names {
		index[n] = i
	}
	j := graphJSON{Packages: g.Packages, ObjectNames: names, Imports: make([]json.RawMessage, len(g.Imports)),
		Roots: g.Roots, Cycles: g.Cycles, ObjectsPerImport: g.ObjectsPerImport}
	var buf []byte
	for i, im := range g.Imports {
		start := len(buf)
		buf = append(buf, '[')
		buf = strconv.AppendInt(buf, int64(im.From), 10)
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, int64(im.To), 10)
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, int64(im.Count), 10)
		buf = append(buf, ",["...)
		for k, o := range im.Objects {
			if k > 0 {
				buf = append(buf, ',')
			}
			buf = strconv.AppendInt(buf, int64(index[o]), 10)
		}
		buf = append(buf, "]]"...)
		j.Imports[i] = buf[start:len(buf):len(buf)]
	}
	if j.Packages == nil {
		j.Packages = []Package{}
	}
	if j.Roots == nil {
		j.Roots = []Root{}
	}
	if j.Cycles == nil {
		j.Cycles = [][]int{}
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads graphJSON, resolving the name indexes.
func (g *Graph) UnmarshalJSON(b []byte) error {
	var j graphJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*g = Graph{Packages: j.Packages, Imports: make([]Import, len(j.Imports)), Roots: j.Roots, Cycles: j.Cycles,
		ObjectsPerImport: j.ObjectsPerImport}
	for i, raw := range j.Imports {
		var a struct {
			From, To, Count int
			Objects         []int
		}
		var arr []json.RawMessage
		if err := json.Unmarshal(raw, &arr); err != nil {
			return err
		}
		if len(arr) != 4 {
			return fmt.Errorf("report: import %d is an array of %d, not 4", i, len(arr))
		}
		for k, dst := range []any{&a.From, &a.To, &a.Count, &a.Objects} {
			if err := json.Unmarshal(arr[k], dst); err != nil {
				return fmt.Errorf("report: import %d: %w", i, err)
			}
		}
		im := Import{From: a.From, To: a.To, Count: a.Count, Objects: make([]string, len(a.Objects))}
		for k, n := range a.Objects {
			if n < 0 || n >= len(j.ObjectNames) {
				return fmt.Errorf("report: import %d names object %d of %d", i, n, len(j.ObjectNames))
			}
			im.Objects[k] = j.ObjectNames[n]
		}
		g.Imports[i] = im
	}
	return nil
}

// Root is an ini line that makes the engine load a package.
type Root struct {
	Evidence string `json:"evidence"` // "Demo.ini:20 ServerPackages=Foo"
	Package  int    `json:"package"`
}

// Options configure Build.
type Options struct {
	Generator string // the program and version that wrote the page
	// MaxObjects caps the object names embedded (0: DefaultMaxObjects;
	// negative: no cap). Counts are always exact.
	MaxObjects int
	Order      *graph.OrderResult
	Downloads  *redirect.Downloads
	// Folders are the Paths entries by index (the overview's folder
	// groups); nil: no overview.
	Folders []string
	// Unused goes to the page's Unused view (nil: none).
	Unused *redirect.Unused
}

// Build makes the page's data from a check report (what `check --json`
// prints) and the graph it was made from (check.Checked.Graph). It stats each
// package file for its size.
func Build(rep *check.Report, g *graph.Graph, opt Options) *Data {
	d := &Data{SchemaVersion: SchemaVersion, Generator: opt.Generator, Check: rep, Order: opt.Order}
	if dl := opt.Downloads; dl != nil {
		d.Downloads = &Downloads{Roots: make([]DownloadRoot, len(dl.Roots)), Total: dl.Total,
			Packages: dl.Packages[:min(len(dl.Packages), MaxDownloadPackages)], PackageCount: len(dl.Packages)}
		for i, r := range dl.Roots {
			d.Downloads.Roots[i] = DownloadRoot{Name: r.Name, Kind: r.Kind, Sizes: r.Sizes}
		}
	}
	pkgs := g.Packages()
	index := make(map[*graph.Package]int, len(pkgs))
	d.Graph.Packages = make([]Package, len(pkgs))
	for i, p := range pkgs {
		index[p] = i
		dp := Package{Name: p.Name, File: path.Clean(p.Rel), Kind: p.Kind, Version: p.Version, Licensee: p.Licensee,
			GUID: p.GUID, Flags: p.Flags.Names(), Size: -1, FromCache: p.FromCache}
		if p.Missing() {
			dp.File, dp.GUID, dp.Flags = "", "", []string{}
		} else if fi, err := os.Stat(p.File); err == nil {
			dp.Size = fi.Size()
		}
		if p.Err != nil {
			dp.Error = p.Err.Error()
		}
		d.Graph.Packages[i] = dp
	}
	if opt.Folders != nil {
		d.Overview = buildOverview(g, opt.Folders, index)
	}
	d.Unused = opt.Unused
	edges := g.Edges()
	counts := make([]int, len(edges))
	for i, e := range edges {
		counts[i] = e.ObjectCount()
	}
	limit := objectCap(counts, opt.MaxObjects)
	// What the cap leaves of the budget goes, one name each, to the
	// first imports that have more than limit objects.
	spare := 0
	if limit >= 0 {
		spare = cmp.Or(opt.MaxObjects, DefaultMaxObjects)
		for _, c := range counts {
			spare -= min(c, limit)
		}
	}
	d.Graph.ObjectsPerImport = limit
	d.Graph.Imports = make([]Import, len(edges))
	for i, e := range edges {
		im := Import{From: index[e.From], To: index[e.To], Count: e.ObjectCount()}
		objs := e.ObjectCount()
		if limit >= 0 && objs > limit {
			n := limit
			if spare > 0 {
				n++
				spare--
				d.Graph.ObjectsPerImport = limit + 1
			}
			objs = n
		}
		im.Objects = make([]string, objs)
		for j := range objs {
			o := e.Object(j)
			im.Objects[j] = o.Path + " (" + o.ClassPackage + "." + o.Class + ")"
		}
		d.Graph.Imports[i] = im
	}
	d.Graph.Roots = []Root{}
	for _, r := range g.Roots() {
		d.Graph.Roots = append(d.Graph.Roots, Root{Evidence: r.Evidence(), Package: index[r.Package]})
	}
	d.Graph.Cycles = [][]int{}
	for _, c := range g.Cycles() {
		ids := make([]int, len(c))
		for i, p := range c {
			ids[i] = index[p]
		}
		d.Graph.Cycles = append(d.Graph.Cycles, ids)
	}
	return d
}

// objectCap returns the largest per-import count of object names that keeps
// the total within max (-1: no cap needed), for imports of counts objects
// (sorted in place).
func objectCap(counts []int, max int) int {
	if max == 0 {
		max = DefaultMaxObjects
	}
	if max < 0 {
		return -1
	}
	total := 0
	for _, c := range counts {
		total += c
	}
	if total <= max {
		return -1
	}
	// Total of min(count, k) grows with k: take the largest k that fits.
	slices.Sort(counts)
	sum := 0
	for i, c := range counts {
		// With k = c every import from i on lists c names.
		if sum+c*(len(counts)-i) > max {
			return (max - sum) / (len(counts) - i)
		}
		sum += c
	}
	return -1
}

// buildOverview is the overview drawing of g with package indexes.
func buildOverview(g *graph.Graph, folders []string, index map[*graph.Package]int) *Overview {
	dr := g.Draw(graph.DOTOptions{Folders: folders, Overview: true})
	o := &Overview{Groups: make([]OverviewGroup, len(dr.Nodes)), Edges: make([][4]int, len(dr.Edges))}
	idx := func(ps []*graph.Package) []int {
		out := make([]int, len(ps))
		for i, p := range ps {
			out[i] = index[p]
		}
		return out
	}
	for i, n := range dr.Nodes {
		o.Groups[i] = OverviewGroup{Name: n.Group.Name, Kind: string(n.Group.Kind), Members: idx(n.Group.Members),
			Missing: idx(n.Group.Missing), Base: n.Base, ImportedBy: n.ImportedBy}
	}
	for i, e := range dr.Edges {
		o.Edges[i] = [4]int{e.From, e.To, e.Imports, e.Objects}
	}
	return o
}
