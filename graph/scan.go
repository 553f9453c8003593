package graph

import (
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math/bits"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unsafe"

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

// exportIndex answers "does this package export path P of class C" with a
// set of hashes, 8 bytes per export, so that tens of thousands of packages
// fit in memory. The scan keeps the hashes; the set is made on first use
// (most packages are never asked); a map's hashes are not even made during
// the scan, since hardly anything imports from a map: it is read again
// from the file if asked.
type exportIndex struct {
	once sync.Once
	file string // where to read the exports from when there are no hashes
	// set is made in once; until then set.hashes holds the hashes, each
	// hashKey(path, class).
	set hashSet

	pathOnce sync.Once
	paths    *hashSet // hash(lower path), made by hasPath (rarely)

	held Held // the package when it was read from an overlay
}

var hashSeed = maphash.MakeSeed()

func hashKey(path, class string) uint64 {
	var buf [256]byte
	b := appendLower(buf[:0], path)
	n := len(b)
	b = appendLower(b, class)
	return pairHash(maphash.Bytes(hashSeed, b[:n]), maphash.Bytes(hashSeed, b[n:]))
}

// pairHash is the key of a lower-cased path and class of hashes hp and hc:
// hp with a bijection of hc mixed in, so that the pair's hash is as good
// as each one's and (p, c) and (c, p) differ.
func pairHash(hp, hc uint64) uint64 {
	return hp ^ bits.RotateLeft64(hc*0xbf58476d1ce4e5b9, 31)
}

// appendLower appends s lower-cased, without allocating for ASCII: eight
// bytes at a time while they are ASCII.
func appendLower(b []byte, s string) []byte {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(s); i += 8 {
		v := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if v&highs != 0 {
			break
		}
		// The bytes from 'A' to 'Z' get their 0x20 bit set: each byte
		// plus 0x80-'A' has its high bit when it is >= 'A', plus 0x80-'Z'-1
		// when it is > 'Z' (no carry crosses bytes: each is below 0x80).
		upper := (v + ones*(0x80-'A')) &^ (v + ones*(0x80-'Z'-1)) & highs
		v |= upper >> 2
		b = binary.LittleEndian.AppendUint64(b, v)
	}
	for ; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return append(b, strings.ToLower(s[i:])...)
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return b
}

// exportHashes returns the hashes of f's exports; hashKey must hash
// exactly what it hashes: the lower-cased path, NUL, the lower-cased class.
// sc is memory reused from call to call (nil: a call's own).
func exportHashes(f *format.View, sc *hashScratch) []uint64 {
	if sc == nil {
		sc = &hashScratch{}
	}
	exports := f.Exports()
	sc.arena = sc.arena[:0]
	sc.paths = reset(sc.paths, len(exports), span{-1, -1})
	sc.classes = reset(sc.classes, len(f.Imports()), 0)
	out := make([]uint64, len(exports))
	for i := range exports {
		p := sc.path(f, i, 0)
		out[i] = pairHash(maphash.Bytes(hashSeed, sc.arena[p.start:p.end]), sc.class(f, exports[i].Class))
	}
	return out
}

// hashScratch is what exportHashes reuses: the lower-cased paths of a
// file's exports (an export's path is its outer's, ".", and its name, made
// once per outer) and its imported classes' names, in one arena.
type hashScratch struct {
	arena   []byte
	paths   []span   // per export (-1: not yet)
	classes []uint64 // per import, as a class: its name's hash (0: not yet)
}

type span struct{ start, end int32 }

// add appends b lower-cased to the arena and returns where it is.
func (sc *hashScratch) add(s string) span {
	start := int32(len(sc.arena))
	sc.arena = appendLower(sc.arena, s)
	return span{start, int32(len(sc.arena))}
}

// path returns the span of export i's lower-cased group path, what
// appendPath makes.
func (sc *hashScratch) path(f *format.View, i, depth int) span {
	if p := sc.paths[i]; p.start >= 0 {
		return p
	}
	o := f.Exports()[i].Outer
	var p span
	switch {
	case o.IsNull():
		p = sc.add(f.ObjectName(format.ExportRef(i)))
	case o.IsExport() && o.Index() < len(sc.paths) && depth < 64:
		outer := sc.path(f, o.Index(), depth+1)
		start := int32(len(sc.arena))
		sc.arena = append(append(sc.arena, sc.arena[outer.start:outer.end]...), '.')
		sc.arena = appendLower(sc.arena, f.ObjectName(format.ExportRef(i)))
		p = span{start, int32(len(sc.arena))}
	default:
		start := int32(len(sc.arena))
		sc.arena = appendPath(sc.arena, f, format.ExportRef(i), true)
		p = span{start, int32(len(sc.arena))}
	}
	sc.paths[i] = p
	return p
}

// class returns the hash of the lower-cased name of class c, as ClassOf
// names an export's class (without the walk to its package that ClassOf
// also makes): "class" for none, an imported class's memoised.
func (sc *hashScratch) class(f *format.View, c format.Ref) uint64 {
	if c.IsImport() && c.Index() < len(sc.classes) {
		if h := sc.classes[c.Index()]; h != 0 {
			return h
		}
	}
	name := "Class"
	if !c.IsNull() {
		name = f.ObjectName(c)
	}
	var buf [64]byte
	h := maphash.Bytes(hashSeed, appendLower(buf[:0], name))
	if c.IsImport() && c.Index() < len(sc.classes) {
		sc.classes[c.Index()] = h
	}
	return h
}

// open reads the package again into rd: from the overlay when it came
// from there.
func (x *exportIndex) open(rd *format.Reader, file string) (*format.View, error) {
	if x.held != nil {
		return rd.ViewAt(x.held, x.held.Size(), file)
	}
	return rd.View(file)
}

func (x *exportIndex) has(path, class string) bool { return x.hasKey(hashKey(path, class)) }

// hasKey is has for the key hashKey(path, class) made before.
func (x *exportIndex) hasKey(key uint64) bool {
	x.once.Do(func() {
		if x.set.hashes == nil && x.file != "" {
			var rd format.Reader
			if f, err := x.open(&rd, x.file); err == nil {
				x.set.hashes = exportHashes(f, nil)
			}
		}
		x.set = newHashSet(x.set.hashes) // in the hashes' own memory
	})
	return x.set.has(key)
}

// hasPath reports whether the package in file exports path with any
// class. It is asked only when has says no (a missing object, a class
// mismatch, a native class), so the set of paths is made then, by reading
// the file again, and kept for the next question.
func (x *exportIndex) hasPath(file, path string) bool {
	x.pathOnce.Do(func() {
		var rd format.Reader
		f, err := x.open(&rd, file)
		if err != nil {
			return
		}
		var buf []byte
		paths := make([]uint64, len(f.Exports()))
		for i := range f.Exports() {
			buf = appendPath(buf[:0], f, format.ExportRef(i), true)
			paths[i] = maphash.Bytes(hashSeed, buf)
		}
		set := newHashSet(paths)
		x.paths = &set
	})
	var buf [256]byte
	return x.paths != nil && x.paths.has(maphash.Bytes(hashSeed, appendLower(buf[:0], path)))
}

// scanned is what the graph keeps of one package file.
type scanned struct {
	version, licensee uint16
	flags             format.PackageFlags
	guid              format.GUID
	deps              []string // top-level packages imported from
	// depIDs are the deps' numbers in the interner of the worker that read
	// the package, by which the link of the build that read it (lt) finds
	// the packages they resolved to before (linkTable).
	depIDs []uint32
	lt     *linkTable
	// spellings are the package names the object imports use, in the order
	// of first use; objects holds the objects imported, spelling by
	// spelling (ends[i] ends spellings[i]'s), each spelling's in
	// import-table order: Build hands each run to its edge as it is.
	spellings []string
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

// interner shares one copy of repeated strings (Engine, Actor, Class, ...)
// across the packages one worker reads, and detaches them from the name
// table text they were sliced from. Each string has a number (0 is ""),
// so that keys made of names are a few integers.
type interner struct {
	ids  nameTable // by the string's bytes
	strs []string  // by number, their bytes in text
	text strArena
}

func newInterner() *interner {
	return &interner{strs: []string{""}}
}

// id returns the number of s, adding a copy of s when it is new.
func (in *interner) id(s string) uint32 {
	if s == "" {
		return 0
	}
	h := maphash.String(hashSeed, s)
	if id, ok := in.ids.find(h, 0, 0, s); ok {
		return id
	}
	id := uint32(len(in.strs))
	in.strs = append(in.strs, in.text.clone(s))
	in.ids.add(h, 0, 0, s, id)
	return id
}

func (in *interner) get(s string) string { return in.strs[in.id(s)] }

// strArena makes lasting copies of strings in large chunks: one
// allocation for many strings, and one object for the garbage collector
// to mark (a worker keeps tens of thousands of names).
type strArena struct{ chunk []byte }

const arenaChunk = 64 << 10

// clone returns a copy of the concatenation of parts.
func (a *strArena) clone(parts ...string) string {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	if n == 0 {
		return ""
	}
	if n > arenaChunk/16 {
		return strings.Join(parts, "")
	}
	if cap(a.chunk)-len(a.chunk) < n {
		a.chunk = make([]byte, 0, arenaChunk)
	}
	start := len(a.chunk)
	for _, p := range parts {
		a.chunk = append(a.chunk, p...)
	}
	// The chunk's bytes up to len are never written again.
	return unsafe.String(&a.chunk[start], n)
}

// objIndex is an object's index in its objTable: 2 bytes per import.
type objIndex = uint16

// maxTableObjects is the most objects one objTable holds: a worker starts
// a new table when a file's objects may not fit in its current one.
const maxTableObjects = 1 << 16

// objTable holds the distinct objects that the packages one worker reads
// import, each once; their scans refer to them by index. The objects of an
// install repeat (20,000 generated packages import 3.2 million objects,
// 15,465 of them distinct): 2 bytes per import instead of 48, and nothing
// for the garbage collector to scan. The worker appends while it reads;
// the table is read once the graph is built.
type objTable struct {
	objs []ImportedObject
	keys []uint64 // hashKey(Path, Class) of each: what exportIndex.has asks
}

// worker is what one scanning goroutine reuses from file to file.
type worker struct {
	in  *interner
	tab *objTable
	// objIDs is tab's index of each object by its path text's number and
	// its class's (see classOf); byChain the same by a hash of the object's
	// outer chain, name and class (see object), which the usual import
	// finds without interning its name or making its own chain.
	objIDs  map[uint64]uint32
	byChain nameTable
	// classes numbers the (class, class package) pairs of the imports
	// (interner numbers, packed); pairs are their names' numbers by pair.
	classes map[uint64]uint32
	pairs   [][2]uint32
	// The group paths below a package that imports name: chains of names
	// are numbered by child ((outer chain, name) -> chain; 0 is the empty
	// chain), and each chain's text ("A.B") by pathOf and pathStrs (0 is
	// ""), so that two chains spelling one text (A.B as one name or two)
	// are one object, as they were when the key was the text.
	child    map[uint64]uint32 // chain<<32 | name -> chain
	textOf   []uint32          // per chain: its text's number
	lastName []string          // per chain: its last name ("" for the empty chain)
	parent   []uint32          // per chain: the chain it extends (0 for the empty chain)
	// named finds a chain by a hash of its outer chain and its last
	// name's bytes, checked against both (see childNamed).
	named    nameTable
	pkgNames nameTable // interner numbers of the package names (packageName)
	pathOf   map[string]uint32
	pathStrs []string
	// names is what the scan has learnt of each name of the current file,
	// valid where its gen is gen (so nothing is reset between files).
	names   []nameMemo
	gen     uint32
	impPath []uint32 // per import of the current file: its chain + 1 (0 not yet)
	rd      format.Reader
	dirs    map[string]*format.Dir // the folders of the packages read, held open
	overlay map[string]Held
	top     []int32     // per import: its package's import (-1 not yet)
	group   []int32     // per import: its spelling's index (-1: not an object import)
	hs      hashScratch // exportHashes' memory
	slab    []objIndex  // memory for the next files' objects
	deps    []dep
	// spellings, counts, next, expClasses and expGroups are scanFile's
	// memory for what it gathers per file; the scan keeps exact-size
	// copies (an append-grown slice kept per package is up to half spare).
	spellings, expClasses, expGroups []string
	counts, next                     []int32
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

// nameMemo is what a scan learnt of one name of the file it reads; its
// zero value (with the file's gen) is "nothing yet".
type nameMemo struct {
	gen   uint32
	id    uint32  // the interner's number (0: not yet, or "")
	spell int32   // index in the file's spellings + 1
	cls   clsMemo // the class pair of imports of this class name
	seen  bool    // listed by dependencies
	fold  uint8   // foldKnown, and foldPackage / foldCore when it is
}

// The name flags of nameMemo.fold.
const (
	foldKnown   = 1 << iota
	foldPackage // the name is Package, in any case
	foldCore    // the name is Core, in any case
)

// startFile readies the per-name memory for a file of n names.
func (w *worker) startFile(n int) {
	w.gen++
	if w.gen == 0 { // wrapped: entries of old files would pass for this one's
		clear(w.names)
		w.gen = 1
	}
	if cap(w.names) < n {
		w.names = make([]nameMemo, n)
	}
	w.names = w.names[:n]
}

// memo returns name i's memo (i in range).
func (w *worker) memo(i int32) *nameMemo {
	m := &w.names[i]
	if m.gen != w.gen {
		*m = nameMemo{gen: w.gen}
	}
	return m
}

// fold returns name i's fold flags.
func (w *worker) fold(f *format.View, i int32) uint8 {
	if i < 0 || int(i) >= len(w.names) {
		return foldKnown
	}
	m := w.memo(i)
	if m.fold == 0 {
		m.fold = foldKnown
		switch n := f.NameAt(i); {
		case strings.EqualFold(n, "Package"):
			m.fold |= foldPackage
		case strings.EqualFold(n, "Core"):
			m.fold |= foldCore
		}
	}
	return m.fold
}

func newWorker(overlay map[string]Held) *worker {
	return &worker{in: newInterner(), tab: &objTable{}, objIDs: map[uint64]uint32{}, classes: map[uint64]uint32{}, overlay: overlay,
		child: map[uint64]uint32{}, textOf: []uint32{0}, lastName: []string{""}, parent: []uint32{0}, pathOf: map[string]uint32{"": 0}, pathStrs: []string{""}}
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
	for i, d := range w.deps {
		if i > 0 && cmpDepName(w.deps[i-1], d) == 0 {
			w.foldDup = true
			continue // a later spelling of the same name
		}
		out, ids = append(out, d.name), append(ids, d.id)
	}
	return out, ids
}

// linkTable is the packages the names one worker interned resolve to, by
// their interner numbers: what the link (builder.link, on one goroutine)
// finds a dependency in, by its number instead of its spelling. It belongs
// to the build b; only its link reads and writes pkgs.
type linkTable struct {
	b    *builder
	pkgs []*Package
}

// slabObjects is the size of the chunks objects are carved from: one
// allocation for many files, without the size-class rounding of one each.
const slabObjects = 64 << 10

// objects returns room for n objects, carved from the worker's slab and
// capped so that an append copies.
func (w *worker) objects(n int) []objIndex {
	if n > slabObjects/4 {
		return make([]objIndex, n)
	}
	if len(w.slab) < n {
		w.slab = make([]objIndex, slabObjects)
	}
	out := w.slab[:n:n]
	w.slab = w.slab[n:]
	return out
}

// name returns name i of f interned, once per file.
func (w *worker) name(f *format.View, i int32) string { return w.in.strs[w.nameID(f, i)] }

// packageName returns the interner's number of name i of f (0 when i is
// out of range), for the names of the packages a file imports from: a few thousand names that every file asks for,
// found in a table of their own (much smaller than the interner's, so
// mostly in cache).
func (w *worker) packageName(f *format.View, i int32) uint32 {
	if i < 0 || int(i) >= len(w.names) {
		return 0
	}
	m := w.memo(i)
	if m.id == 0 {
		name := f.NameAt(i)
		h := maphash.String(hashSeed, name)
		id, ok := w.pkgNames.find(h, 0, 0, name)
		if !ok {
			id = w.in.id(name)
			w.pkgNames.add(h, 0, 0, name, id)
		}
		m.id = id
	}
	return m.id
}

// nameAt is name i of f, "" when i is out of range (as name gives it),
// not interned.
func nameAt(f *format.View, i int32) string {
	if i < 0 || int(i) >= f.NameCount() {
		return ""
	}
	return f.NameAt(i)
}

// nameID returns the interner's number of name i of f ("" when i is out
// of range), once per file.
func (w *worker) nameID(f *format.View, i int32) uint32 {
	if i < 0 || int(i) >= f.NameCount() {
		return 0
	}
	m := w.memo(i)
	if m.id == 0 {
		m.id = w.in.id(f.NameAt(i))
	}
	return m.id
}

// topImport returns the outermost import of import i's chain (what
// File.ImportPackage names), memoised in w.top.
func (w *worker) topImport(f *format.View, i int) int32 {
	if t := w.top[i]; t >= 0 {
		return t
	}
	t := int32(i)
	imports := f.Imports()
	for n := 0; n <= len(imports); n++ {
		o := imports[t].Outer
		if o.IsNull() || !o.IsImport() || o.Index() >= len(imports) {
			break
		}
		if k := w.top[o.Index()]; k >= 0 {
			t = k
			break
		}
		t = int32(o.Index())
	}
	w.top[i] = t
	return t
}

// clsMemo is the class pair of a file's imports whose class name is one
// name: the class package's name index and the pair's number + 1.
type clsMemo struct {
	pkg  int32
	pair uint32
}

// classOf returns the number of im's (class, class package) pair.
func (w *worker) classOf(f *format.View, im *format.Import) uint32 {
	var m *clsMemo
	if ci := im.ClassName; ci >= 0 && int(ci) < len(w.names) {
		m = &w.memo(ci).cls
		if m.pair != 0 && m.pkg == im.ClassPackage {
			return m.pair - 1
		}
	}
	class, pkg := w.nameID(f, im.ClassName), w.nameID(f, im.ClassPackage)
	k := uint64(class)<<32 | uint64(pkg)
	id, ok := w.classes[k]
	if !ok {
		id = uint32(len(w.pairs))
		w.pairs = append(w.pairs, [2]uint32{class, pkg})
		w.classes[k] = id
	}
	if m != nil {
		*m = clsMemo{pkg: im.ClassPackage, pair: id + 1}
	}
	return id
}

// object returns the index in w.tab of import i of f (im), adding it when
// it is new. An import inside an import is found by its outer's chain
// (memoised per file), its name and its class, as one hashed integer
// whose hit is checked (the name against the end of the object's path):
// one map lookup, with nothing made; only a new object allocates.
func (w *worker) object(f *format.View, i int, im *format.Import) uint32 {
	pair := w.classOf(f, im)
	o := im.Outer
	if !o.IsImport() || o.Index() >= len(f.Imports()) {
		return w.objectAt(w.refPath(f, format.ImportRef(i)), pair)
	}
	outer, ok := w.chainPath(f, o.Index(), 0)
	if !ok {
		return w.objectAt(w.refPath(f, format.ImportRef(i)), pair)
	}
	name := ""
	if ni := im.ObjectName; ni >= 0 && int(ni) < f.NameCount() {
		name = f.NameAt(ni)
	}
	h := maphash.String(hashSeed, name)
	if id, ok := w.byChain.find(h, outer, pair, name); ok {
		return id
	}
	id := w.objectAt(w.childPath(outer, w.nameID(f, im.ObjectName)), pair)
	w.byChain.add(h, outer, pair, name, id)
	return id
}

// objectAt returns the index in w.tab of the object at chain with class
// pair, adding it when it is new. Objects are one by the text of their
// path, as the engine's linker compares them.
func (w *worker) objectAt(chain, pair uint32) uint32 {
	text := w.textOf[chain]
	k := uint64(text)<<32 | uint64(pair)
	if id, ok := w.objIDs[k]; ok {
		return id
	}
	id := uint32(len(w.tab.objs))
	cp := w.pairs[pair]
	o := ImportedObject{Path: w.pathStrs[text], Class: w.in.strs[cp[0]], ClassPackage: w.in.strs[cp[1]]}
	w.tab.objs = append(w.tab.objs, o)
	w.tab.keys = append(w.tab.keys, hashKey(o.Path, o.Class))
	w.objIDs[k] = id
	return id
}

// childPath returns the number of chain parent followed by the name
// numbered name; its text is parent's, ".", and the name (the name alone
// after the empty chain).
func (w *worker) childPath(parent, name uint32) uint32 {
	k := uint64(parent)<<32 | uint64(name)
	if id, ok := w.child[k]; ok {
		return id
	}
	text := w.in.strs[name]
	if parent != 0 {
		text = w.in.text.clone(w.pathStrs[w.textOf[parent]], ".", text)
	}
	tid, ok := w.pathOf[text]
	if !ok {
		tid = uint32(len(w.pathStrs))
		w.pathStrs = append(w.pathStrs, text)
		w.pathOf[text] = tid
	}
	id := uint32(len(w.textOf))
	w.textOf = append(w.textOf, tid)
	w.lastName = append(w.lastName, w.in.strs[name])
	w.parent = append(w.parent, parent)
	w.child[k] = id
	return id
}

// childNamed is childPath for name ni of f, found without interning the
// name: by a hash of parent and the name's bytes, the hit checked.
func (w *worker) childNamed(parent uint32, f *format.View, ni int32) uint32 {
	name := nameAt(f, ni)
	h := maphash.String(hashSeed, name)
	if id, ok := w.named.find(h, parent, 0, name); ok {
		return id
	}
	id := w.childPath(parent, w.nameID(f, ni))
	w.named.add(h, parent, 0, name, id)
	return id
}

// chainPath returns the chain of names of import i's group path below
// its package, whose text is what appendPath makes (unlowered), memoised
// per import: an import inside the package has the empty chain, one
// inside import j j's chain and its own name. It
// gives up (ok false) on a chain that leaves the imports or is deeper
// than 64, which refPath then walks.
func (w *worker) chainPath(f *format.View, i, depth int) (uint32, bool) {
	if p := w.impPath[i]; p != 0 {
		return p - 1, true
	}
	imports := f.Imports()
	o := imports[i].Outer
	var p uint32
	switch {
	case o.IsNull():
	case o.IsImport() && o.Index() < len(imports) && depth < 64:
		outer, ok := w.chainPath(f, o.Index(), depth+1)
		if !ok {
			return 0, false
		}
		p = w.childNamed(outer, f, imports[i].ObjectName)
	default:
		return 0, false
	}
	w.impPath[i] = p + 1
	return p, true
}

// outerChain appends ref and its outers, innermost first, to chain and
// returns it: the group path below the package (an import's top-level
// package left out). The walk stops after as many steps as f has records,
// so an outer loop the reader let through cannot spin.
func outerChain(chain []format.Ref, f *format.View, ref format.Ref) []format.Ref {
	for cur, n := ref, 0; !cur.IsNull() && n <= len(f.Imports())+len(f.Exports()); n++ {
		chain = append(chain, cur)
		cur = f.Outer(cur)
	}
	if ref.IsImport() && len(chain) > 0 {
		chain = chain[:len(chain)-1] // the top-level package
	}
	return chain
}

// refPath is the chain of ref's path by the walk appendPath makes.
func (w *worker) refPath(f *format.View, ref format.Ref) uint32 {
	var stack [16]format.Ref
	chain := outerChain(stack[:0], f, ref)
	p := uint32(0)
	for i := len(chain) - 1; i >= 0; i-- {
		p = w.childPath(p, w.in.id(f.ObjectName(chain[i])))
	}
	return p
}

// newTable starts a new table of objects for the next files: the one
// before stays with the scans that refer to it.
func (w *worker) newTable() {
	w.tab = &objTable{}
	w.objIDs = map[uint64]uint32{}
	w.byChain.reset()
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
	in := w.in
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
	s.deps, s.depIDs = w.dependencies(f)
	// Two package imports whose names differ only in case (the name table
	// has each name once, so only a hand-made file does this) or an import
	// inside an export: the objects keep table order (see scanned).
	s.mixedOrder = w.foldDup

	// First pass: which imports are objects, and under which spelling
	// (gathered in the worker's memory; the scan keeps exact copies).
	spellings, counts := w.spellings[:0], w.counts[:0]
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
			m.spell = int32(len(spellings))
		}
		g := m.spell - 1
		w.group[i] = g
		counts[g]++
	}
	w.spellings, w.counts = spellings, counts
	if len(spellings) > 0 {
		s.spellings = slices.Clone(spellings)
	}
	// Second pass: the objects, grouped by spelling (or in table order).
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
			return nil, fmt.Errorf("graph: %s: imports more than %d distinct objects", path, maxTableObjects)
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
	s.exports.held = w.overlay[path]
	if KindOf(path) == KindMap && s.exports.held == nil {
		s.exports.file = path
	} else {
		s.exports.set.hashes = exportHashes(f, &w.hs)
	}
	isMap := KindOf(path) == KindMap
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
	return s, nil
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

// appendPath appends the dotted group path of ref below its package — what
// File.GroupPath joins with "." — lower-cased when lower is set, without
// allocating for the usual short chains.
func appendPath(b []byte, f *format.View, ref format.Ref, lower bool) []byte {
	var stack [16]format.Ref
	chain := outerChain(stack[:0], f, ref)
	for i := len(chain) - 1; i >= 0; i-- {
		name := f.ObjectName(chain[i])
		if lower {
			b = appendLower(b, name)
		} else {
			b = append(b, name...)
		}
		if i > 0 {
			b = append(b, '.')
		}
	}
	return b
}

// exportClass re-reads a package to find the class of the export at path:
// only needed to explain a class mismatch, which is rare.
func (gr *Graph) exportClass(file, path string) string {
	f, err := gr.open(file)
	if err != nil {
		return "?"
	}
	defer f.Close()
	var classes []string
	for i := range f.Exports {
		ref := format.ExportRef(i)
		if strings.EqualFold(strings.Join(f.GroupPath(ref), "."), path) {
			c, p := f.ClassOf(ref)
			if p != "" {
				c = p + "." + c
			}
			classes = append(classes, c)
		}
	}
	slices.Sort(classes)
	return strings.Join(classes, ", ")
}

// scanOrdered reads n files (file(i) names file i) with jobs workers and
// calls got with each one's scan, or its error, on the calling goroutine
// in the order of i; read, when not nil, is called with each scan on the
// worker that made it. When ctx is cancelled it reads no more files and
// returns ctx's error.
func scanOrdered(ctx context.Context, n, jobs int, overlay map[string]Held, file func(i int) string,
	read func(w *worker, s *scanned), got func(i int, s *scanned, err error)) error {
	type result struct {
		s   *scanned
		err error
	}
	// Each goroutine takes a worker (its reused memory and interner) from
	// the free list for each file; there are as many as goroutines.
	free := make(chan *worker, par.Workers(n, jobs))
	for range cap(free) {
		free <- newWorker(overlay)
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
