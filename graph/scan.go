package graph

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/internal/fold"
	"github.com/upkdeps/upkdeps/internal/par"
)

// Kind classifies a package by its file extension.
type Kind string

// Package kinds: those of the game profiles (ini.KindOf), and missing.
const (
	KindCode         = Kind(ini.KindCode)
	KindTexture      = Kind(ini.KindTexture)
	KindSound        = Kind(ini.KindSound)
	KindMusic        = Kind(ini.KindMusic)
	KindMap          = Kind(ini.KindMap)
	KindMesh         = Kind(ini.KindMesh)
	KindOther        = Kind(ini.KindOther)
	KindMissing Kind = "missing"
)

// KindOf returns the kind of a package file from its extension, as the
// game profiles tell it (ini.KindOf): every profile's map extension is a map.
func KindOf(file string) Kind { return Kind(ini.KindOf(file)) }

// kindOf is KindOf with the install's own map extensions (mapExts, lower
// case with the dot: [URL] MapExt, ini.File.MapExts) as maps too.
func kindOf(file string, mapExts []string) Kind {
	if len(mapExts) > 0 && slices.Contains(mapExts, strings.ToLower(filepath.Ext(file))) {
		return KindMap
	}
	return KindOf(file)
}

// scanned is what the graph keeps of one package file.
type scanned struct {
	version, licensee uint16
	flags             format.PackageFlags
	guid              format.GUID
	deps              []string // top-level packages imported from
	// link is what the link of the build that read the package uses, let
	// go of once it is done (builder.unlink).
	link *scanLink
	// spellings are the package names the object imports use, in the order
	// of first use; objects holds the objects imported, spelling by
	// spelling (ends[i] ends spelling i's), each spelling's in
	// import-table order: Build hands each run to its edge as it is. When
	// every spelling is one of deps (as a rule), spellIdx holds their
	// places in deps instead, 2 bytes each, not a string's 16 (see
	// spelling).
	spellings []string
	spellIdx  []uint16
	ends      []int32
	objects   []objIndex // indices into tab
	tab       *objTable
	// mixedOrder is set when two spellings differ only in case (the same
	// package spelled twice): objects are then in import-table order and
	// spellingOf gives each one's spelling, so that an edge that both
	// reach keeps the table order.
	mixedOrder  bool
	spellingOf  []int32
	exports     exportIndex
	classes     []string // exported classes (code packages)
	exportCount int
	// groups are a map's top-level groups (exports of class Package):
	// one named like a package of the install may be an embedded copy.
	groups []string
	// hasNative is set when a class export has the native flag: the
	// package has a C++ module, which may register classes it does not
	// export.
	hasNative bool
}

// worker is what one scanning goroutine reuses from file to file.
type worker struct {
	in  *interner
	tab *objTable
	nm  *objNames // the strings of tab's objects, and of the tables before it
	// objIdx finds tab's objects by their path text's number and their
	// class pair's (see classOf); byChain the same by a hash of the
	// object's outer chain, name and class (see object), which the usual
	// import finds without interning its name or making its own chain.
	objIdx  idIndex
	byChain tagIndex
	// classes numbers the (class, class package) pairs of the imports
	// (interner numbers, packed); nm.pairs are their names by number.
	classes map[uint64]uint32
	// The group paths below a package that imports name: chains of names
	// are numbered (0 is the empty chain; chainKey holds each one's outer
	// chain<<32 | name, childIdx finds it by them), and each chain's text
	// ("A.B") by textOf, nm.paths and pathIdx (text 0 is ""), so that two
	// chains spelling one text (A.B as one name or two) are one object, as
	// they were when the key was the text.
	chainKey []uint64
	textOf   []uint32 // per chain: its text's number
	childIdx idIndex
	pathIdx  idIndex
	// named finds a chain by a hash of its outer chain and its last
	// name's bytes, checked against both (see childNamed).
	named    nameTable
	pkgNames nameTable // interner numbers of the package names (packageName)
	// names is what the scan has learnt of each name of the current file,
	// valid where its gen is gen (so nothing is reset between files).
	names    []nameMemo
	gen      uint32
	impPath  []uint32 // per import of the current file: its chain + 1 (0 not yet)
	rd       format.Reader
	dirs     map[string]*format.Dir // the folders of the packages read, held open
	overlay  map[string]Held
	mapExts  []string    // Options.MapExts
	top      []int32     // per import: its package's import (-1 not yet)
	group    []int32     // per import: its spelling's index (-1: not an object import)
	hs       hashScratch // exportHashes' memory
	topPaths []uint64    // exportHashes' list of top-level paths' hashes
	slab     []objIndex  // memory for the next files' objects
	deps     []dep
	// spellings, counts, spellDeps, next, expClasses and expGroups are
	// scanFile's memory for what it gathers per file; the scan keeps
	// exact-size copies (an append-grown slice kept per package is up to
	// half spare). spellDeps are the spellings' places in deps (-1: none).
	spellings, expClasses, expGroups []string
	counts, next, spellDeps          []int32
	// foldDup is set by dependencies when two package names differ only
	// in case.
	foldDup bool
	// resolved are the names the worker's packages import that it has
	// resolved ahead of the link (builder.resolveAhead).
	resolved map[string]bool
	// aheadDone is resolved by interner number, for the dependencies;
	// lt is the link's table of the packages they resolve to.
	aheadDone []bool
	lt        *linkTable
}

func newWorker(overlay map[string]Held) *worker {
	nm := &objNames{paths: []string{""}}
	return &worker{in: newInterner(), tab: &objTable{nm: nm}, nm: nm, classes: map[uint64]uint32{}, overlay: overlay,
		chainKey: []uint64{0}, textOf: []uint32{0}}
}

type dep struct {
	name string
	pos  int
	key  uint64 // foldKey(name)
	id   uint32 // name's interner number
}

// foldKey is the first 8 bytes of s lower-cased, big-endian, zero-padded:
// two keys that differ, neither 0, order their names as fold.Compare does;
// 0 means "compare the names" (s leaves ASCII in its first 8 bytes, or is
// empty).
func foldKey(s string) uint64 {
	var k uint64
	for i := range 8 {
		var c byte
		if i < len(s) {
			c = s[i]
		}
		if c >= 0x80 {
			return 0
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		k = k<<8 | uint64(c)
	}
	return k
}

// cmpDep orders dependencies as fold.Compare orders their names, then by
// table position.
func cmpDep(a, b dep) int { return cmp.Or(cmpDepName(a, b), a.pos-b.pos) }

// cmpDepName is fold.Compare of the names, by their keys when they tell.
func cmpDepName(a, b dep) int {
	if a.key != b.key && a.key != 0 && b.key != 0 {
		if a.key < b.key {
			return -1
		}
		return 1
	}
	return fold.Compare(a.name, b.name)
}

// dependencies returns what File.Dependencies returns (the packages f
// imports from, sorted case-insensitively, each once with its first
// spelling, f's own name left out), interned, without its allocations,
// and beside them their interner numbers.
func (w *worker) dependencies(f *format.View) ([]string, []uint32) {
	w.deps = w.deps[:0]
	w.foldDup = false
	for i, im := range f.Imports() {
		if !im.Outer.IsNull() {
			continue
		}
		ni := im.ObjectName
		if ni >= 0 && int(ni) < f.NameCount() {
			if m := w.memo(ni); m.seen {
				continue
			} else {
				m.seen = true
			}
		}
		id := w.packageName(f, ni)
		n := w.in.strs[id]
		if strings.EqualFold(n, f.PackageName()) {
			continue
		}
		w.deps = append(w.deps, dep{n, i, foldKey(n), id})
	}
	slices.SortFunc(w.deps, cmpDep)
	out := make([]string, 0, len(w.deps))
	ids := make([]uint32, 0, len(w.deps))
	imports := f.Imports()
	for i, d := range w.deps {
		if i > 0 && cmpDepName(w.deps[i-1], d) == 0 {
			w.foldDup = true
			continue // a later spelling of the same name
		}
		if ni := imports[d.pos].ObjectName; ni >= 0 && int(ni) < f.NameCount() {
			w.memo(ni).dep = int32(len(out) + 1)
		}
		out, ids = append(out, d.name), append(ids, d.id)
	}
	return out, ids
}

// scanLink is what a scan keeps for the link of the build that read it.
type scanLink struct {
	// depIDs are the deps' numbers in the interner of the worker that read
	// the package, by which the link (lt) finds the packages they resolved
	// to before (linkTable).
	depIDs []uint32
	lt     *linkTable
}

// spellingCount returns the number of s's spellings.
func (s *scanned) spellingCount() int {
	if s.spellIdx != nil {
		return len(s.spellIdx)
	}
	return len(s.spellings)
}

// spelling returns spelling g (0 <= g < spellingCount).
func (s *scanned) spelling(g int) string {
	if s.spellIdx != nil {
		return s.deps[s.spellIdx[g]]
	}
	return s.spellings[g]
}

// linkTable is the packages the names one worker interned resolve to, by
// their interner numbers: what the link (builder.link, on one goroutine)
// finds a dependency in, by its number instead of its spelling. It belongs
// to the build b; only its link reads and writes pkgs.
type linkTable struct {
	b    *builder
	pkgs []*Package
}

// open reads a package from the overlay or the disk.
func (w *worker) open(path string) (*format.View, error) {
	if h, ok := w.overlay[path]; ok {
		return w.rd.ViewAt(h, h.Size(), path)
	}
	// By its folder, held open (format.Dir): the kernel looks up one
	// name a package, not its whole path.
	i := strings.LastIndexByte(path, filepath.Separator)
	if i <= 0 {
		return w.rd.View(path)
	}
	dir := path[:i]
	d := w.dirs[dir]
	if d == nil {
		if len(w.dirs) >= maxOpenDirs {
			return w.rd.View(path)
		}
		if w.dirs == nil {
			w.dirs = map[string]*format.Dir{}
		}
		d = format.OpenDir(dir)
		w.dirs[dir] = d
	}
	return w.rd.ViewIn(d, path)
}

// maxOpenDirs is the most folders a worker holds open; the packages of
// further folders are read by path.
const maxOpenDirs = 64

// closeDirs lets the worker's folders go.
func (w *worker) closeDirs() {
	for _, d := range w.dirs {
		d.Close()
	}
	w.dirs = nil
}

// openHeld parses a package held in memory as the file path.
func openHeld(path string, h Held) (*format.File, error) {
	f, err := format.NewFile(h, h.Size())
	if err != nil {
		return nil, &format.PathError{Path: path, Err: err}
	}
	base := filepath.Base(path)
	f.PackageName = strings.TrimSuffix(base, filepath.Ext(base))
	return f, nil
}

// scanFile reads one package's header and tables into a scanned summary.
// Everything kept is copied out of the Reader's memory (the interner
// clones).
func scanFile(path string, w *worker) (*scanned, error) {
	f, err := w.open(path)
	if err != nil {
		return nil, err
	}
	h, imports, exports := f.Header(), f.Imports(), f.Exports()
	s := &scanned{
		version: h.Version, licensee: h.Licensee, flags: h.Flags, guid: h.GUID,
		exportCount: len(exports),
	}
	w.startFile(f.NameCount())
	w.impPath = reset(w.impPath, len(imports), 0)
	w.top = reset(w.top, len(imports), -1)
	w.group = reset(w.group, len(imports), -1)
	s.link = &scanLink{}
	s.deps, s.link.depIDs = w.dependencies(f)
	// Two package imports whose names differ only in case (the name table
	// has each name once, so only a hand-made file does this) or an import
	// inside an export: the objects keep table order (see scanned).
	s.mixedOrder = w.foldDup

	w.groupImports(f, imports, s)
	if err := w.placeObjects(path, f, imports, s); err != nil {
		return nil, err
	}
	w.scanExports(path, f, exports, s)
	return s, nil
}

// groupImports is scanFile's first pass: which imports are objects, and
// under which spelling (gathered in the worker's memory; the scan keeps
// exact copies).
func (w *worker) groupImports(f *format.View, imports []format.Import, s *scanned) {
	spellings, counts, deps := w.spellings[:0], w.counts[:0], w.spellDeps[:0]
	for i, im := range imports {
		if im.Outer.IsNull() {
			continue // the package itself
		}
		if w.fold(f, im.ClassName)&foldPackage != 0 && w.fold(f, im.ClassPackage)&foldCore != 0 {
			continue // a group: implied by the objects inside it
		}
		top := imports[w.topImport(f, i)]
		if !top.Outer.IsNull() {
			s.mixedOrder = true
		}
		ni := top.ObjectName
		if ni < 0 || int(ni) >= f.NameCount() {
			ni = 0 // the decoder checked it; keep the index in range anyway
		}
		m := w.memo(ni)
		if m.spell == 0 {
			spellings = append(spellings, w.name(f, top.ObjectName))
			counts = append(counts, 0)
			deps = append(deps, m.dep-1)
			m.spell = int32(len(spellings))
		}
		g := m.spell - 1
		w.group[i] = g
		counts[g]++
	}
	w.spellings, w.counts, w.spellDeps = spellings, counts, deps
	if len(spellings) == 0 {
		return
	}
	if len(s.deps) <= math.MaxUint16 {
		idx := make([]uint16, len(spellings))
		for g, d := range deps {
			if d < 0 || s.deps[d] != spellings[g] {
				idx = nil
				break
			}
			idx[g] = uint16(d)
		}
		if idx != nil {
			s.spellIdx = idx
			return
		}
	}
	s.spellings = slices.Clone(spellings)
}

// placeObjects is scanFile's second pass: the objects, grouped by spelling
// (or in table order).
func (w *worker) placeObjects(path string, f *format.View, imports []format.Import, s *scanned) error {
	counts := w.counts // the first pass's, per spelling
	total := int32(0)
	s.ends = make([]int32, len(counts))
	w.next = reset(w.next, len(counts), 0)
	next := w.next
	for g, c := range counts {
		next[g] = total
		total += c
		s.ends[g] = total
	}
	if len(w.tab.objs)+int(total) > maxTableObjects {
		w.newTable()
	}
	s.objects, s.tab = w.objects(int(total)), w.tab
	if s.mixedOrder {
		s.spellingOf = make([]int32, 0, total)
	}
	k := int32(0)
	for i, im := range imports {
		g := w.group[i]
		if g < 0 {
			continue
		}
		o32 := w.object(f, i, &im)
		if o32 >= maxTableObjects {
			w.newTable() // the file's objects filled a table of their own
			return fmt.Errorf("graph: %s: imports more than %d distinct objects", path, maxTableObjects)
		}
		o := objIndex(o32)
		if s.mixedOrder {
			s.objects[k] = o
			s.spellingOf = append(s.spellingOf, g)
			k++
		} else {
			s.objects[next[g]] = o
			next[g]++
		}
	}
	return nil
}

// scanExports keeps what the check needs of the exports: their hashes (a
// map's are read again when needed), the top-level classes, a map's
// groups and, for a package with native classes, the top-level paths'
// hashes (exportIndex.top).
func (w *worker) scanExports(path string, f *format.View, exports []format.Export, s *scanned) {
	in := w.in
	s.exports.held = w.overlay[path]
	isMap := kindOf(path, w.mapExts) == KindMap
	classes, groups := w.expClasses[:0], w.expGroups[:0]
	for i := range exports {
		switch ex := &exports[i]; {
		case !ex.Outer.IsNull():
		case ex.Class.IsNull():
			classes = append(classes, in.get(f.ObjectName(format.ExportRef(i))))
			s.hasNative = s.hasNative || ex.ObjectFlags&format.ObjectFlagNative != 0
		case isMap:
			if class, pkg := f.ClassOf(format.ExportRef(i)); strings.EqualFold(class, "Package") && strings.EqualFold(pkg, "Core") {
				groups = append(groups, in.get(f.ObjectName(format.ExportRef(i))))
			}
		}
	}
	if len(classes) > 0 {
		s.classes = slices.Clone(classes)
	}
	if len(groups) > 0 {
		s.groups = slices.Clone(groups)
	}
	w.expClasses, w.expGroups = classes, groups // interned: the worker's memory holds no file's text
	switch {
	case isMap && s.exports.held == nil:
		s.exports.file = path
	case s.hasNative:
		top := w.topPaths[:0]
		s.exports.set.hashes, s.exports.set.checks = exportHashes(f, &w.hs, &top)
		set := newHashSet(slices.Clone(top))
		s.exports.top = &set
		w.topPaths = top
	default:
		s.exports.set.hashes, s.exports.set.checks = exportHashes(f, &w.hs, nil)
	}
}

// reset returns s with n elements set to v, reusing its memory.
func reset[T any](s []T, n int, v T) []T {
	if cap(s) < n {
		s = make([]T, n)
	}
	s = s[:n]
	for i := range s {
		s[i] = v
	}
	return s
}

// scanOrdered reads n files (file(i) names file i) with jobs workers and
// calls got with each one's scan, or its error, on the calling goroutine
// in the order of i; read, when not nil, is called with each scan on the
// worker that made it. When ctx is cancelled it reads no more files and
// returns ctx's error.
func scanOrdered(ctx context.Context, n, jobs int, overlay map[string]Held, mapExts []string, file func(i int) string,
	read func(w *worker, s *scanned), got func(i int, s *scanned, err error)) error {
	type result struct {
		s   *scanned
		err error
	}
	// Each goroutine takes a worker (its reused memory and interner) from
	// the free list for each file; there are as many as goroutines.
	free := make(chan *worker, par.Workers(n, jobs))
	for range cap(free) {
		w := newWorker(overlay)
		w.mapExts = mapExts
		free <- w
	}
	err := par.Ordered(n, jobs, 64*cap(free), func(i int) result {
		w := <-free
		defer func() { free <- w }()
		if err := ctx.Err(); err != nil {
			return result{err: err}
		}
		s, err := scanFile(file(i), w)
		if err == nil && read != nil {
			read(w, s)
		}
		return result{s, err}
	}, func(i int, r result) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		got(i, r.s, r.err)
		return nil
	})
	for range cap(free) {
		(<-free).closeDirs()
	}
	if err == nil {
		err = ctx.Err() // cancelled after the last file
	}
	return err
}
