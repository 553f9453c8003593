package graph

import (
	"hash/maphash"
	"strings"
	"unsafe"

	"github.com/upkdeps/upkdeps/format"
)

// interner shares one copy of repeated strings (Engine, Actor, Class, ...)
// across the packages one worker reads, and detaches them from the name
// table text they were sliced from. Each string has a number (0 is ""),
// so that keys made of names are a few integers.
type interner struct {
	// ids finds a string's number by its hash: open addressing, each slot
	// the hash's high 32 bits and the number (0: empty), the hit checked
	// against strs. 8 bytes a slot and no copy of the bytes: the strings
	// are in text once (a nameTable's records would hold them again).
	ids  []uint64
	strs []string // by number, their bytes in text
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
	tag := h >> 32 << 32
	mask := uint64(len(in.ids) - 1)
	if len(in.ids) > 0 {
		for i := h & mask; ; i = (i + 1) & mask {
			x := in.ids[i]
			if x == 0 {
				break
			}
			if x&^0xffffffff == tag && in.strs[uint32(x)] == s {
				return uint32(x)
			}
		}
	}
	id := uint32(len(in.strs))
	in.strs = append(in.strs, in.text.clone(s))
	if 2*len(in.strs) > len(in.ids) {
		in.grow()
	} else {
		in.put(h, id)
	}
	return id
}

// put enters number id of the string of hash h into ids.
func (in *interner) put(h uint64, id uint32) {
	mask := uint64(len(in.ids) - 1)
	i := h & mask
	for in.ids[i] != 0 {
		i = (i + 1) & mask
	}
	in.ids[i] = h>>32<<32 | uint64(id)
}

// grow doubles ids and enters every string again (the hashes are made
// again: a table of a few thousand names grows a few times a scan).
func (in *interner) grow() {
	in.ids = make([]uint64, max(minSlots, 2*len(in.ids)))
	for id, s := range in.strs[1:] {
		in.put(maphash.String(hashSeed, s), uint32(id+1))
	}
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
//
// The worker's indexes of its table's objects (objIdx, byChain) are
// reset with the table (newTable): their numbers index the table's
// objects; TestObjectTableFull checks the reset.
const maxTableObjects = 1 << 16

// objTable holds the distinct objects that the packages one worker reads
// import, each once; their scans refer to them by index. The objects of an
// install repeat (20,000 generated packages import 3.2 million objects,
// 15,465 of them distinct): 2 bytes per import instead of 48, and nothing
// for the garbage collector to scan. The worker appends while it reads;
// the table is read once the graph is built.
type objTable struct {
	objs []objRec
	keys []exportKey // hashKey(Path, Class) of each: what exportIndex.has asks
	nm   *objNames
}

// objRec is an object of an objTable: the numbers of its path's text and
// of its class pair among its worker's objNames (8 bytes, not an
// ImportedObject's 48).
type objRec struct{ text, pair uint32 }

// objNames are the strings of a worker's objects, by number: the texts of
// their paths, and their (class, class package) pairs. The worker appends
// to them while it reads; its tables read them once the graph is built.
type objNames struct {
	paths []string
	pairs [][2]string
}

// at returns object id of t.
func (t *objTable) at(id objIndex) ImportedObject {
	r := t.objs[id]
	cp := &t.nm.pairs[r.pair]
	return ImportedObject{Path: t.nm.paths[r.text], Class: cp[0], ClassPackage: cp[1]}
}

// nameMemo is what a scan learnt of one name of the file it reads; its
// zero value (with the file's gen) is "nothing yet".
type nameMemo struct {
	gen   uint32
	id    uint32  // the interner's number (0: not yet, or "")
	spell int32   // index in the file's spellings + 1
	dep   int32   // index in the file's dependencies + 1 (0: not one)
	cls   clsMemo // the class pair of imports of this class name
	seen  bool    // listed by dependencies
	fold  uint8   // foldKnown, and foldPackage / foldCore when it is
}

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
		id = uint32(len(w.nm.pairs))
		w.nm.pairs = append(w.nm.pairs, [2]string{w.in.strs[class], w.in.strs[pkg]})
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
	h := slotOf(maphash.String(hashSeed, name), outer, pair)
	var ptext string
	if outer != 0 {
		ptext = w.nm.paths[w.textOf[outer]]
	}
	// A hit is the object when its class pair is pair and its path is
	// outer's text, ".", and name (name alone below the package):
	// whichever key entered it, that is the object this key names.
	if v := w.byChain.find(h, func(id uint32) bool {
		r := w.tab.objs[id]
		return r.pair == pair && isChild(w.nm.paths[r.text], ptext, outer != 0, name)
	}); v != 0 {
		return v - 1
	}
	id := w.objectAt(w.childPath(outer, w.nameID(f, im.ObjectName)), pair)
	w.byChain.add(h, id)
	return id
}

// isChild reports whether path is parent, ".", and name when dot is set,
// else name.
func isChild(path, parent string, dot bool, name string) bool {
	if !dot {
		return path == name
	}
	return len(path) == len(parent)+1+len(name) && path[len(parent)] == '.' &&
		path[:len(parent)] == parent && path[len(parent)+1:] == name
}

// objectAt returns the index in w.tab of the object at chain with class
// pair, adding it when it is new. Objects are one by the text of their
// path, as the engine's linker compares them.
func (w *worker) objectAt(chain, pair uint32) uint32 {
	text := w.textOf[chain]
	objs := w.tab.objs
	h := mix64(uint64(text)<<32 | uint64(pair))
	if id, ok := w.objIdx.find(h, func(id uint32) bool { return objs[id] == objRec{text, pair} }); ok {
		return id
	}
	id := uint32(len(objs))
	w.tab.objs = append(objs, objRec{text, pair})
	w.tab.keys = append(w.tab.keys, hashKey(w.nm.paths[text], w.nm.pairs[pair][0]))
	w.objIdx.add(h, id, func(id uint32) uint64 {
		r := w.tab.objs[id]
		return mix64(uint64(r.text)<<32 | uint64(r.pair))
	})
	return id
}

// childPath returns the number of chain parent followed by the name
// numbered name; its text is parent's, ".", and the name (the name alone
// after the empty chain).
func (w *worker) childPath(parent, name uint32) uint32 {
	k := uint64(parent)<<32 | uint64(name)
	h := mix64(k)
	if id, ok := w.childIdx.find(h, func(id uint32) bool { return w.chainKey[id] == k }); ok {
		return id
	}
	text := w.in.strs[name]
	if parent != 0 {
		text = w.in.text.clone(w.nm.paths[w.textOf[parent]], ".", text)
	}
	tid := w.pathID(text)
	id := uint32(len(w.textOf))
	w.textOf = append(w.textOf, tid)
	w.chainKey = append(w.chainKey, k)
	w.childIdx.add(h, id, func(id uint32) uint64 { return mix64(w.chainKey[id]) })
	return id
}

// pathID returns the number of the path text s, adding s when it is new.
func (w *worker) pathID(s string) uint32 {
	if s == "" {
		return 0
	}
	h := maphash.String(hashSeed, s)
	if id, ok := w.pathIdx.find(h, func(id uint32) bool { return w.nm.paths[id+1] == s }); ok {
		return id + 1
	}
	id := uint32(len(w.nm.paths))
	w.nm.paths = append(w.nm.paths, s)
	// The index holds text numbers - 1 (text 0, "", is not in it).
	w.pathIdx.add(h, id-1, func(id uint32) uint64 { return maphash.String(hashSeed, w.nm.paths[id+1]) })
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
	w.tab = &objTable{nm: w.nm}
	w.objIdx.reset()
	w.byChain.reset()
}

// The name flags of nameMemo.fold.
const (
	foldKnown   = 1 << iota
	foldPackage // the name is Package, in any case
	foldCore    // the name is Core, in any case
)
