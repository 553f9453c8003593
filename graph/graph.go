package graph

import (
	"cmp"
	"context"
	"io"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/internal/fold"
)

// Candidate is a package file the engine can load by name: the one that
// wins for its name through Paths.
type Candidate struct {
	Name      string // base name as on disk
	File      string // absolute path
	Rel       string // path relative to the ini folder, with "/"
	PathIndex int    // Paths entry it was found through (-1: other)
}

// Resolution is the engine's answer for one package name.
type Resolution struct {
	File, Rel    string // "" when the name does not resolve
	PathIndex    int
	CaseMismatch bool   // found only by the case-insensitive pass
	FromCache    bool   // found in the download cache
	Original     string // for a cache file: its original file name (for the kind)
}

// Resolver is the engine's package lookup as the graph needs it; the search
// package provides one for a real install (see FromSearcher).
type Resolver interface {
	// Candidates lists every package file reachable through Paths that the
	// engine would load for its name.
	Candidates() []Candidate
	// Resolve looks a package name up as the engine would. Build calls it
	// from its reading goroutines at once (each resolves the names of the
	// packages it reads), and may ask for a name more than once.
	Resolve(name string) Resolution
}

// Options configure Build.
type Options struct {
	Jobs     int                    // parallel readers (0 or less: one per core)
	Progress func(total int) func() // optional: called once with the file count; the returned func after each file
	// Reuse is a graph of the same install built before: the packages it
	// read are not read again (check --with-cache builds twice).
	Reuse *Graph
	// Roots are the ini lines that make the engine load packages by name;
	// each is looked up like an import, so a missing or case-only name gets
	// its node.
	Roots []Root
	// Overlay holds package files in memory by the File path a Resolver
	// gives them; they are read from here instead of the disk (check
	// --with: a mod's packages as if installed, nothing written).
	Overlay map[string]Held
	// MapExts are extensions of maps beside those KindOf knows, lower
	// case with the dot: the ini's own ([URL] MapExt, ini.File.MapExts).
	MapExts []string
}

// Held is a package file held in memory for Options.Overlay: a
// *bytes.Reader of its bytes, or what holds only the bytes the graph reads
// (its header and tables).
type Held interface {
	io.ReaderAt
	Size() int64
}

// Package is a node of the graph: a resolved package file or a missing name.
type Package struct {
	Name      string // the engine's name for it (file base name, or the import's spelling when missing)
	File, Rel string // "" when missing
	Kind      Kind
	PathIndex int
	Version   uint16
	Licensee  uint16
	GUID      string
	Flags     format.PackageFlags
	Err       error // the reader's error when the file cannot be parsed
	FromCache bool
	Spellings []string // every spelling importers used, sorted
	// CaseSpellings are the spellings that resolve only case-insensitively.
	CaseSpellings []string

	id   int64
	scan *scanned
}

// Missing reports whether no file resolves for the package.
func (p *Package) Missing() bool { return p.File == "" }

// Classes returns the classes a code package exports (nil when unknown).
func (p *Package) Classes() []string {
	if p.scan == nil {
		return nil
	}
	return p.scan.classes
}

// ExportCount is the number of exports, 0 when unknown.
func (p *Package) ExportCount() int {
	if p.scan == nil {
		return 0
	}
	return p.scan.exportCount
}

// ImportedObject is one object an edge's importer uses from its target.
type ImportedObject struct {
	Path         string `json:"path"`  // group path and name below the package
	Class        string `json:"class"` // class name
	ClassPackage string `json:"class_package"`
}

// String returns "Pkg.Path (ClassPackage.Class)" for the object of pkg.
func (o ImportedObject) describe(pkg string) string {
	return pkg + "." + o.Path + " (" + o.ClassPackage + "." + o.Class + ")"
}

// Edge says From imports from To.
type Edge struct {
	From, To *Package
	// Spelling is how From spells To's name.
	Spelling string
	// start and end are where the objects imported are in
	// From.scan.objects, in the importer's import-table order, as indices
	// into From.scan.tab (the table of the worker that read From): 2 bytes
	// each, not an ImportedObject's 48, and nothing for the garbage
	// collector to scan (20,000 packages import 3.2 million); the edge
	// holds 8 bytes for them, not a slice's 24.
	start, end uint32
}

// objs returns the indices of the objects From imports from To.
func (e *Edge) objs() []objIndex {
	if e.start == e.end {
		return nil
	}
	return e.From.scan.objects[e.start:e.end:e.end]
}

// ObjectCount returns the number of objects From imports from To: 0 when
// it imports only the package.
func (e *Edge) ObjectCount() int { return int(e.end - e.start) }

// Object returns object i (0 <= i < ObjectCount) in From's import-table
// order; it panics when i is out of range.
func (e *Edge) Object(i int) ImportedObject { return e.From.scan.tab.at(e.objs()[i]) }

// Objects returns the objects From imports from To, in its import-table
// order, in a new slice (nil when there are none).
func (e *Edge) Objects() []ImportedObject {
	objs := e.objs()
	if len(objs) == 0 {
		return nil
	}
	out := make([]ImportedObject, len(objs))
	for i, id := range objs {
		out[i] = e.From.scan.tab.at(id)
	}
	return out
}

// Graph is the dependency graph of an install.
type Graph struct {
	pkgs   []*Package // sorted by name, case-insensitively
	byName map[string]*Package
	byID   []*Package // by id: a package's id is its place here
	// edgesOf are each package's edges by its id, sorted by target name
	// once the graph is complete.
	edgesOf [][]*Edge
	// out and in are the sorted adjacency lists by node ID, made once the
	// graph is complete so that queries do not sort again.
	out, in  [][]*Package
	byFile   map[string]*Package // made on first use by packageByFile
	edgeSlab []Edge              // memory for the next edges
	listSlab []*Edge             // memory for the next packages' edge lists
	iniRoots []RootRef
	overlay  map[string]Held
}

func lower(s string) string { return strings.ToLower(s) }

// Build scans every candidate of r and resolves every import.
func Build(ctx context.Context, r Resolver, opt Options) (*Graph, error) {
	// The maps are made for about as many names as there are
	// candidates, most of them imported under one spelling: made at
	// once, not grown step by step.
	cands := r.Candidates()
	n := len(cands)
	b := &builder{
		gr:       &Graph{byName: make(map[string]*Package, n), byID: make([]*Package, 0, n), overlay: opt.Overlay},
		r:        r,
		opt:      opt,
		byFile:   make(map[string]*Package, n),
		resolved: make(map[string]*Package, n),
		ahead:    make(map[string]Resolution, n),
	}
	for _, c := range cands {
		if b.gr.byName[lower(c.Name)] == nil {
			b.add(&Package{Name: c.Name, File: c.File, Rel: c.Rel, PathIndex: c.PathIndex, Kind: kindOf(c.File, opt.MapExts)})
		}
	}
	for _, root := range opt.Roots {
		b.gr.iniRoots = append(b.gr.iniRoots, RootRef{Root: root, Package: b.lookup(root.Package)})
	}
	for len(b.queue) > 0 {
		if err := b.scanBatch(ctx); err != nil {
			return nil, err
		}
	}
	// The workers' memory (their tables, indexes, interners and Readers:
	// on a 665-package server about half the heap) is garbage now, and
	// the heap is near the collector's goal, which was set while they
	// lived: collected now, the next goal follows what the graph keeps,
	// not the scan (peak RSS of check on that server 0.97x, its range
	// 33-35 MiB instead of 34-41; CPU the same). A build that read
	// nothing (every package reused) has no workers' memory to free, and
	// a heap under the collector's least goal (the demo's) it would not
	// have collected yet: there a collection only costs (1.27x the
	// demo check's CPU and 1 MiB more, measured).
	b.dropUnasked()
	b.unlink()
	if b.read > 0 && heapInUse() >= minCollect {
		runtime.GC()
	}
	b.gr.finish()
	return b.gr, nil
}

// dropUnasked lets go of the export hashes of the packages this build
// read that no import asks objects of and no ini line names (a third of
// the hashes of a server, 8 bytes an export): the object check never
// asks them, and exportIndex reads the file again if anything does, as it
// does for a map. The scans of a graph reused (Options.Reuse) keep
// theirs: that graph's checks may have made their sets.
func (b *builder) dropUnasked() {
	asked := make([]bool, len(b.gr.byID))
	for _, es := range b.gr.edgesOf {
		for _, e := range es {
			if e.start != e.end {
				asked[e.To.id] = true
			}
		}
	}
	for _, r := range b.gr.iniRoots {
		if r.Package != nil {
			asked[r.Package.id] = true
		}
	}
	for _, p := range b.gr.byID {
		s := p.scan
		if s == nil || asked[p.id] || s.link == nil || s.link.lt == nil || s.link.lt.b != b || s.exports.set.hashes == nil {
			continue
		}
		s.exports.set = checkedSet{}
		s.exports.file = p.File
		s.exports.top = nil
	}
}

// unlink lets go of what only this build's link used: the workers'
// link tables, which hold the builder (its maps of every spelling and
// file), and the dependencies' interner numbers. Kept, the scans held
// them for as long as the graph lived (on 20,000 packages the builder's
// maps alone are 4.5 MB).
func (b *builder) unlink() {
	for _, p := range b.gr.byID {
		if s := p.scan; s != nil {
			s.link = nil // a reused scan's went with the build that read it
		}
	}
}

// minCollect is the heap size from which Build collects after its scan:
// the Go collector's least goal (4 MB at GOGC=100).
const minCollect = 4 << 20

// heapInUse returns the bytes of the heap's objects, live or not yet
// collected.
func heapInUse() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// builder makes one Graph: Build adds the candidates and the ini roots,
// then scans the queue of resolved packages batch by batch (scanBatch),
// each batch's imports resolving (lookup) to new packages for the next.
type builder struct {
	gr       *Graph
	r        Resolver
	opt      Options
	byFile   map[string]*Package // resolved packages by file
	queue    []*Package          // resolved packages not yet scanned
	read     int                 // packages read (not reused from Options.Reuse)
	resolved map[string]*Package // by spelling
	// ahead holds the Resolutions the reading goroutines made of the
	// names their packages import (see resolveAhead), by spelling.
	aheadMu sync.Mutex
	ahead   map[string]Resolution
}

// resolveAhead resolves, on the worker that read s, the names s imports
// that no package this worker read before imports, so that the serial link
// finds them resolved: resolving a name through a Searcher costs about 20
// microseconds, and was two thirds of the link's time.
func (b *builder) resolveAhead(w *worker, s *scanned) {
	if w.lt == nil {
		w.lt = &linkTable{b: b}
	}
	s.link.lt = w.lt
	// The spellings of the object imports are among the dependencies,
	// unless a name is spelled two ways (or an import is inside an export).
	for k, sp := range s.deps {
		id := s.link.depIDs[k]
		w.aheadDone = growTo(w.aheadDone, int(id)+1)
		if !w.aheadDone[id] {
			w.aheadDone[id] = true
			b.resolveName(sp)
		}
	}
	if s.mixedOrder {
		if w.resolved == nil {
			w.resolved = map[string]bool{}
		}
		for g := range s.spellingCount() {
			if sp := s.spelling(g); !w.resolved[sp] {
				w.resolved[sp] = true
				b.resolveName(sp)
			}
		}
	}
}

// growTo returns s with at least n elements, those added zero.
func growTo[T any](s []T, n int) []T {
	if n <= len(s) {
		return s
	}
	if n > cap(s) {
		t := make([]T, n, max(n, 2*cap(s)))
		copy(t, s)
		return t
	}
	return s[:n] // never shrunk: the elements past len are still zero
}

// resolveName resolves sp into b.ahead unless a worker did.
func (b *builder) resolveName(sp string) {
	b.aheadMu.Lock()
	_, ok := b.ahead[sp]
	b.aheadMu.Unlock()
	if !ok {
		res := b.r.Resolve(sp)
		b.aheadMu.Lock()
		b.ahead[sp] = res
		b.aheadMu.Unlock()
	}
}

// add makes p a node; a resolved package joins the scan queue.
func (b *builder) add(p *Package) *Package {
	gr := b.gr
	p.id = int64(len(gr.byID))
	gr.byID = append(gr.byID, p)
	gr.byName[lower(p.Name)] = p
	if p.File != "" {
		b.byFile[p.File] = p
		b.queue = append(b.queue, p)
	}
	return p
}

// lookup resolves a package name as spelled by an importer or the ini,
// once per spelling: an existing node, a new resolved one, or a missing
// one. It records the spelling, and whether it matched only ignoring case.
func (b *builder) lookup(spelling string) *Package {
	if p, ok := b.resolved[spelling]; ok {
		return p
	}
	b.aheadMu.Lock()
	res, ok := b.ahead[spelling]
	b.aheadMu.Unlock()
	if !ok {
		res = b.r.Resolve(spelling)
	}
	var p *Package
	switch {
	case res.File == "":
		p = b.gr.byName[lower(spelling)]
		if p == nil {
			p = b.add(&Package{Name: spelling, Kind: KindMissing, PathIndex: -1})
		}
	case b.byFile[res.File] != nil:
		p = b.byFile[res.File]
	default:
		p = b.add(&Package{Name: spelling, File: res.File, Rel: res.Rel, PathIndex: res.PathIndex,
			Kind: kindOf(res.File, b.opt.MapExts), FromCache: res.FromCache})
		if res.FromCache {
			p.Kind = kindOf(res.Original, b.opt.MapExts)
		}
	}
	b.resolved[spelling] = p
	if res.CaseMismatch && res.File != "" {
		p.CaseSpellings = append(p.CaseSpellings, spelling)
	}
	if !slices.Contains(p.Spellings, spelling) {
		p.Spellings = append(p.Spellings, spelling)
	}
	return p
}

// scanBatch reads the queued packages (reusing the reads of opt.Reuse),
// then links each to what it imports, which may queue more. Each package
// is linked, in batch order, as soon as it and those before it are read,
// so that linking overlaps the reading of the rest.
func (b *builder) scanBatch(ctx context.Context) error {
	batch := b.queue
	b.queue = nil
	var toRead []int // batch positions
	for i, p := range batch {
		if old := b.opt.Reuse.packageByFile(p.File); old != nil {
			p.scan, p.Err = old.scan, old.Err
		} else {
			toRead = append(toRead, i)
		}
	}
	b.read += len(toRead)
	var done func()
	if b.opt.Progress != nil && len(toRead) > 0 {
		done = b.opt.Progress(len(toRead))
	}
	linked := 0
	linkUpTo := func(end int) {
		for ; linked < end; linked++ {
			b.link(batch[linked])
		}
	}
	err := scanOrdered(ctx, len(toRead), max(1, b.opt.Jobs), b.opt.Overlay, b.opt.MapExts,
		func(i int) string { return batch[toRead[i]].File }, b.resolveAhead,
		func(i int, s *scanned, err error) {
			if done != nil {
				done()
			}
			p := batch[toRead[i]]
			p.scan, p.Err = s, err
			linkUpTo(toRead[i] + 1)
		})
	if err != nil {
		return err
	}
	linkUpTo(len(batch))
	return nil
}

// link records what the scan of p found and adds its edges.
func (b *builder) link(p *Package) {
	if p.scan == nil {
		return
	}
	p.Version, p.Licensee = p.scan.version, p.scan.licensee
	p.Flags, p.GUID = p.scan.flags, p.scan.guid.String()
	if n := int(p.id) + 1; len(b.gr.edgesOf) < n {
		b.gr.edgesOf = append(b.gr.edgesOf, make([][]*Edge, n-len(b.gr.edgesOf))...)
	}
	// One edge per dependency, as a rule: room for them at once, carved
	// from a slab shared by many packages (an edge past them, rare, moves
	// the list to an array of its own).
	if n := len(p.scan.deps); len(b.gr.edgesOf[p.id]) == 0 && n > 0 {
		if len(b.gr.listSlab) < n {
			b.gr.listSlab = make([]*Edge, max(n, 4096))
		}
		b.gr.edgesOf[p.id] = b.gr.listSlab[:0:n]
		b.gr.listSlab = b.gr.listSlab[n:]
	}
	// A dependency by its number in the table of the worker that read
	// the package, when it read it for this build; else by its spelling.
	var lt *linkTable
	var ids []uint32
	if l := p.scan.link; l != nil {
		lt, ids = l.lt, l.depIDs
	}
	own := lt != nil && lt.b == b && len(ids) == len(p.scan.deps)
	for k, dep := range p.scan.deps {
		var to *Package
		if own {
			id := ids[k]
			lt.pkgs = growTo(lt.pkgs, int(id)+1)
			if to = lt.pkgs[id]; to == nil {
				to = b.lookup(dep)
				lt.pkgs[id] = to
			}
		} else {
			to = b.lookup(dep)
		}
		b.gr.addEdge(p, to, dep)
	}
	b.gr.addObjects(p, b.lookup)
}

// finish sorts the nodes and makes the sorted adjacency lists, once the
// graph is complete, so that queries do not sort again.
func (gr *Graph) finish() {
	gr.pkgs = make([]*Package, 0, len(gr.byID))
	for _, p := range gr.byID {
		gr.pkgs = append(gr.pkgs, p)
		slices.Sort(p.Spellings)
		slices.Sort(p.CaseSpellings)
	}
	// The nodes sort on a goroutine of their own while the edges are
	// sorted here: the two touch nothing of each other's.
	var sorted sync.WaitGroup
	sorted.Go(func() { slices.SortFunc(gr.pkgs, func(a, b *Package) int { return cmpName(a.Name, b.Name) }) })
	// Edge objects stay in import-table order: deterministic, and sorting
	// millions of them costs more than every use of them needs.
	n := len(gr.byID)
	gr.edgesOf = append(gr.edgesOf, make([][]*Edge, n-len(gr.edgesOf))...)
	// Every adjacency list is a piece of one array: out's in edge order,
	// in's counted first (ins[id] edges to id).
	total := 0
	ins := make([]int, n)
	for _, es := range gr.edgesOf {
		slices.SortFunc(es, func(a, b *Edge) int { return cmpName(a.To.Name, b.To.Name) })
		total += len(es)
		for _, e := range es {
			ins[e.To.id]++
		}
	}
	gr.out, gr.in = make([][]*Package, n), make([][]*Package, n)
	outs, in := make([]*Package, total), make([]*Package, total)
	for id, es := range gr.edgesOf {
		gr.out[id], outs = outs[:len(es):len(es)], outs[len(es):]
		for i, e := range es {
			gr.out[id][i] = e.To
		}
		gr.in[id], in = in[:0:ins[id]], in[ins[id]:]
	}
	// The importers, taken in name order, fill each in list sorted.
	sorted.Wait()
	for _, p := range gr.pkgs {
		for _, e := range gr.edgesOf[p.id] {
			gr.in[e.To.id] = append(gr.in[e.To.id], p)
		}
	}
}

// cmpName orders names case-insensitively, then by spelling.
func cmpName(a, b string) int {
	if c := fold.Compare(a, b); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

// addObjects adds the edges of p's object imports, with their objects, as
// if each import were added in import-table order: an edge's objects stay
// in table order. An edge's objects are one run of p.scan.objects; an edge
// that two spellings reach (only a hand-made file has them) gets its
// objects copied to the end of p.scan.objects as one run (the runs
// before keep their places, so edges of an earlier graph of the same
// scan stay as they were).
func (gr *Graph) addObjects(p *Package, lookup func(string) *Package) {
	sc := p.scan
	if sc.mixedOrder {
		var order []*Edge
		byEdge := map[*Edge][]objIndex{}
		for i, g := range sc.spellingOf { // not the runs an earlier graph appended
			o, sp := sc.objects[i], sc.spelling(int(g))
			if strings.EqualFold(sp, p.Name) {
				continue // a package's imports of its own name are native
			}
			if e := gr.addEdge(p, lookup(sp), sp); e != nil {
				if byEdge[e] == nil {
					order = append(order, e)
				}
				byEdge[e] = append(byEdge[e], o)
			}
		}
		for _, e := range order {
			e.start, e.end = sc.appendRun(byEdge[e])
		}
		return
	}
	start := uint32(0)
	for g := range sc.spellingCount() {
		sp, end := sc.spelling(g), uint32(sc.ends[g])
		from := start
		start = end
		if strings.EqualFold(sp, p.Name) {
			continue
		}
		e := gr.edgeSpelled(p, sp)
		if e == nil {
			e = gr.addEdge(p, lookup(sp), sp)
		}
		switch {
		case e == nil:
		case e.start == e.end:
			e.start, e.end = from, end
		case e.end == from:
			e.end = end
		default:
			objs := append(slices.Clip(e.objs()), sc.objects[from:end]...)
			e.start, e.end = sc.appendRun(objs)
		}
	}
}

// edgeSpelled returns p's edge made for the spelling sp, or nil: the
// edge lookup(sp) leads to, found without a map lookup, since a package's
// object imports spell the names of its dependencies, whose edges link
// made first.
func (gr *Graph) edgeSpelled(p *Package, sp string) *Edge {
	for _, e := range gr.edgesOf[p.id] {
		if e.Spelling == sp {
			return e
		}
	}
	return nil
}

// appendRun appends objs to s.objects (in a new array: the slab it was
// carved from is shared) and returns where they are.
func (s *scanned) appendRun(objs []objIndex) (start, end uint32) {
	start = uint32(len(s.objects))
	s.objects = append(s.objects[:len(s.objects):len(s.objects)], objs...)
	return start, uint32(len(s.objects))
}

func (gr *Graph) addEdge(from, to *Package, spelling string) *Edge {
	if from == to {
		return nil
	}
	if n := int(from.id) + 1; len(gr.edgesOf) < n {
		gr.edgesOf = append(gr.edgesOf, make([][]*Edge, n-len(gr.edgesOf))...)
	}
	// A package imports from a few dozen packages: a scan of its edges
	// costs less than a map of every edge of the install.
	for _, e := range gr.edgesOf[from.id] {
		if e.To == to {
			return e
		}
	}
	if len(gr.edgeSlab) == 0 {
		gr.edgeSlab = make([]Edge, 1024) // edges in chunks, not one allocation each
	}
	e := &gr.edgeSlab[0]
	gr.edgeSlab = gr.edgeSlab[1:]
	*e = Edge{From: from, To: to, Spelling: spelling}
	gr.edgesOf[from.id] = append(gr.edgesOf[from.id], e)
	return e
}

// packageByFile returns the node read from file, or nil (also for a nil
// graph).
func (gr *Graph) packageByFile(file string) *Package {
	if gr == nil {
		return nil
	}
	if gr.byFile == nil {
		gr.byFile = map[string]*Package{}
		for _, p := range gr.pkgs {
			if p.File != "" {
				gr.byFile[p.File] = p
			}
		}
	}
	return gr.byFile[file]
}

// Packages returns every node, sorted by name.
func (gr *Graph) Packages() []*Package { return gr.pkgs }

// Package returns the node for a name (case-insensitive), or nil.
func (gr *Graph) Package(name string) *Package { return gr.byName[lower(name)] }

// Edge returns the edge from → to, or nil.
func (gr *Graph) Edge(from, to *Package) *Edge {
	if from == nil || to == nil || from.id < 0 || int(from.id) >= len(gr.edgesOf) {
		return nil
	}
	es := gr.edgesOf[from.id] // sorted by target name
	i, _ := slices.BinarySearchFunc(es, to, func(e *Edge, to *Package) int { return cmpName(e.To.Name, to.Name) })
	for ; i < len(es) && es[i].To.Name == to.Name; i++ { // two nodes may share a name
		if es[i].To == to {
			return es[i]
		}
	}
	return nil
}

// Imports returns the packages p imports from, sorted.
// The caller must not modify the slice.
func (gr *Graph) Imports(p *Package) []*Package { return gr.out[p.id] }

// ImportedBy returns the packages that import from p, sorted.
// The caller must not modify the slice.
func (gr *Graph) ImportedBy(p *Package) []*Package { return gr.in[p.id] }

// Edges returns every edge sorted by importer, then target.
func (gr *Graph) Edges() []*Edge {
	var out []*Edge
	for _, es := range gr.edgesOf {
		out = append(out, es...)
	}
	slices.SortFunc(out, func(a, b *Edge) int {
		return cmp.Or(cmpName(a.From.Name, b.From.Name), cmpName(a.To.Name, b.To.Name))
	})
	return out
}
