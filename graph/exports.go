package graph

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"math/bits"
	"slices"
	"strings"
	"sync"

	"github.com/upkdeps/upkdeps/format"
)

// exportIndex answers "does this package export path P of class C" with
// a set of hashes, 8 bytes per export, so that tens of thousands of packages
// fit in memory. The scan keeps the hashes; the set is made on first use
// (most packages are never asked); a map's hashes are not even made during
// the scan, since hardly anything imports from a map: it is read again
// from the file if asked.
//
// Invariant: an import is found by its key alone (hashKey of its
// lower-cased path and class, which must hash exactly the bytes
// exportHashes hashes: TestExportHashes). No text is compared, so the key
// is a 64-bit hash of those bytes, of which the set keeps the two halves
// side by side: an object is exported when one export has both. A
// collision of one half (another export's equal to the object's) thus
// does not hide a missing object (TestHashCollisionNotHidden); both must
// collide on one export.
// maphash's keys are random per process: for n imports checked against a
// set of m exports the chance of any false match is about n*m/2^64: for
// the 3.2 million imports of the 20,000-package benchmark install, were
// each checked against a set of a million exports, under 2e-7 (an import
// is checked against its own package's set, most far smaller); and a run
// that met one would not meet it again.
type exportIndex struct {
	once sync.Once
	file string // where to read the exports from when there are no hashes
	// set is made in once; until then set.hashes and set.checks hold the
	// low 32 bits of the halves h and check of each export's
	// hashKey(path, class).
	set checkedSet

	pathOnce sync.Once
	paths    *hashSet[uint64] // hash(lower path), made by hasPath (rarely)
	// top is hash(lower path) of the exports whose path has no dot (a
	// top-level object's), kept by the scan of a package with native
	// classes (nil otherwise): their imports ask hasPath of a class
	// registered natively, without an export, in every check, and the
	// top-level paths answer it without reading the package again.
	top *hashSet[uint64]

	held Held // the package when it was read from an overlay
}

// hashSeed is the seed of the names' hashes and of exportKey's.
var hashSeed = maphash.MakeSeed()

// exportKey is what exportIndex looks an object up by: a 64-bit hash of
// its lower-cased path and class (pairHash of each one's maphash), whose
// halves h and check checkedSet keeps side by side. The halves of one
// hash, not two hashes under two seeds: the chance of a false match is the
// same (both halves must match), for half the hashing and 8 bytes an
// imported object instead of 16. (The object check also numbers the keys
// it has asked by this hash: two objects of one package with the same key
// are one question, whose answer the set could not tell apart anyway.)
type exportKey uint64

func (k exportKey) h() uint32     { return uint32(k) }
func (k exportKey) check() uint32 { return uint32(k >> 32) }

func hashKey(path, class string) exportKey {
	var buf [256]byte
	b := appendLower(buf[:0], path)
	n := len(b)
	b = appendLower(b, class)
	return exportKey(pairHash(maphash.Bytes(hashSeed, b[:n]), maphash.Bytes(hashSeed, b[n:])))
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

// exportHashes returns the halves of the keys of f's exports; hashKey must
// hash exactly what it hashes: the lower-cased path, then the lower-cased
// class. sc is memory reused from call to call (nil: a call's own).
//
// With top not nil, the path hashes of the exports whose path has no dot
// (what hasPath hashes: hash(lower path)) are appended to *top.
func exportHashes(f *format.View, sc *hashScratch, top *[]uint64) (hs, checks []uint32) {
	if sc == nil {
		sc = &hashScratch{}
	}
	exports := f.Exports()
	sc.arena = sc.arena[:0]
	sc.paths = reset(sc.paths, len(exports), span{-1, -1})
	sc.classes = reset(sc.classes, len(f.Imports()), 0)
	sc.outer = reset(sc.outer, len(exports), false)
	for i := range exports {
		if o := exports[i].Outer; o.IsExport() && o.Index() < len(exports) {
			sc.outer[o.Index()] = true
		}
	}
	hs, checks = make([]uint32, len(exports)), make([]uint32, len(exports))
	for i := range exports {
		// Only the paths of outers stay in the arena: an export no other
		// is inside is hashed and its bytes dropped (its outer's made
		// first, to stay).
		leaf := !sc.outer[i]
		if o := exports[i].Outer; leaf && o.IsExport() && o.Index() < len(exports) {
			sc.path(f, o.Index(), 1)
		}
		mark := len(sc.arena)
		p := sc.path(f, i, 0)
		path, class := sc.arena[p.start:p.end], sc.class(f, exports[i].Class)
		hp := maphash.Bytes(hashSeed, path)
		if top != nil && bytes.IndexByte(path, '.') < 0 {
			*top = append(*top, hp)
		}
		k := exportKey(pairHash(hp, class))
		hs[i], checks[i] = k.h(), k.check()
		if leaf {
			sc.arena = sc.arena[:mark]
		}
	}
	return hs, checks
}

// hashScratch is what exportHashes reuses: the lower-cased paths of a
// file's outers (an export's path is its outer's, ".", and its name, made
// once per outer), in one arena, and its imported classes' names.
type hashScratch struct {
	arena   []byte
	paths   []span   // per export (-1: not yet; a leaf's is past the arena's end once hashed)
	classes []uint64 // per import, as a class: its name's hash (0: not yet)
	outer   []bool   // per export: another export is inside it
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
	b := appendLower(buf[:0], name)
	h := maphash.Bytes(hashSeed, b)
	if c.IsImport() && c.Index() < len(sc.classes) {
		sc.classes[c.Index()] = h
	}
	return h
}

// readers are the Readers that read packages again (hasKey, hasPath),
// reused from package to package instead of each read making its
// tables' memory anew.
var readers = sync.Pool{New: func() any { return new(format.Reader) }}

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
func (x *exportIndex) hasKey(key exportKey) bool {
	x.once.Do(func() {
		if x.set.hashes == nil && x.file != "" {
			rd := readers.Get().(*format.Reader)
			if f, err := x.open(rd, x.file); err == nil {
				x.set.hashes, x.set.checks = exportHashes(f, nil, nil)
			}
			readers.Put(rd)
		}
		x.set = newCheckedSet(x.set.hashes, x.set.checks) // in the hashes' own memory
	})
	return x.set.hasChecked(key.h(), key.check())
}

// hasPath reports whether the package in file exports path with any
// class. It is asked only when has says no (a missing object, a class
// mismatch, a native class), so the set of paths is made then, by reading
// the file again, and kept for the next question; a path without a dot
// is answered from the scan's top-level paths where it kept them (top).
func (x *exportIndex) hasPath(file, path string) bool {
	var buf [256]byte
	if x.top != nil && strings.IndexByte(path, '.') < 0 {
		return x.top.has(maphash.Bytes(hashSeed, appendLower(buf[:0], path)))
	}
	x.pathOnce.Do(func() {
		// A Reader of its own, not a pooled one: the few packages asked
		// are often large (a server's Engine.u and XInterface.u), and a
		// pooled Reader would keep their buffers through the check.
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
	return x.paths != nil && x.paths.has(maphash.Bytes(hashSeed, appendLower(buf[:0], path)))
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
