package graph

import (
	"math/bits"
	"sync"
	"unsafe"
)

// hashSet is a set of hashes (uniformly spread, as maphash's are) laid
// out in buckets by their top bits: a lookup reads one bucket of a few
// hashes, and making the set is two linear passes, not a sort. It costs
// about half a byte per hash beyond the hashes themselves. H is the width of
// what is kept of each hash: 64 bits for a set of hashes alone, 32 for a
// set with a second hash of 32 bits beside each (checkedSet).
type hashSet[H uint32 | uint64] struct {
	hashes []H      // bucket by bucket
	checks []uint32 // beside each hash, a second one of its own (nil: none)
	start  []uint32 // bucket b is hashes[start[b]:start[b+1]]
	shift  uint     // the bucket of h is h >> shift
}

// checkedSet is the set of a package's exports: the low 32 bits of each
// export's key's first hash, and beside it 32 bits of its second, under
// another seed. An object is found only when both halves match: 64 bits
// of two independent hashes, 8 bytes an export (20,000 packages export
// 1.5 million objects).
type checkedSet = hashSet[uint32]

// newHashSet makes the set of hs, in hs's own memory: it counts the
// hashes of each bucket, then copies hs aside and puts each hash back in
// its bucket's next place (a counting sort by bucket: three linear passes,
// about 1.6x faster than swapping each hash into place, which waits on
// every swap to choose the next).
func newHashSet(hs []uint64) hashSet[uint64] { return newSet(hs, nil) }

// newCheckedSet is newHashSet with cs, the second hash beside each of hs,
// moved with its hash; the set is in hs's and cs's memory.
func newCheckedSet(hs, cs []uint32) checkedSet { return newSet(hs, cs) }

func newSet[H uint32 | uint64](hs []H, cs []uint32) hashSet[H] {
	// About four to eight hashes per bucket: 2^k buckets, half a byte a
	// hash (a bucket of 32-bit hashes is then about a cache line; with
	// two to four a bucket, the export sets' bucket starts were 2.5 MB on
	// 20,000 packages). With k = 0, the shift is the width and every hash
	// is in bucket 0.
	k := max(0, bits.Len(uint(len(hs)))-3)
	width := uint(unsafe.Sizeof(H(0))) * 8
	s := hashSet[H]{hashes: hs, checks: cs, start: make([]uint32, 1<<k+1), shift: width - uint(k)}
	for _, h := range hs {
		s.start[h>>s.shift+1]++
	}
	for b := 1; b < len(s.start); b++ {
		s.start[b] += s.start[b-1]
	}
	sc := scratchPool.Get().(*hashScratchSet)
	defer scratchPool.Put(sc)
	aside := scratchOf[H](sc)
	*aside = append((*aside)[:0], hs...)
	next := append(sc.next[:0], s.start[:len(s.start)-1]...) // next[b]: bucket b's next place
	sc.next = next
	if cs == nil {
		for _, h := range *aside {
			b := h >> s.shift
			hs[next[b]] = h
			next[b]++
		}
		return s
	}
	sc.checks = append(sc.checks[:0], cs...)
	for i, h := range *aside {
		b := h >> s.shift
		hs[next[b]], cs[next[b]] = h, sc.checks[i]
		next[b]++
	}
	return s
}

// hashScratchSet is the memory newSet reuses from set to set (the
// goroutines of a check make sets at once: a pool of them).
type hashScratchSet struct {
	hashes   []uint64
	hashes32 []uint32
	checks   []uint32
	next     []uint32
}

// scratchOf returns sc's slice for hashes of H's width.
func scratchOf[H uint32 | uint64](sc *hashScratchSet) *[]H {
	switch p := any(&sc.hashes).(type) {
	case *[]H:
		return p
	}
	return any(&sc.hashes32).(*[]H)
}

var scratchPool = sync.Pool{New: func() any { return new(hashScratchSet) }}

// has reports whether h is in the set.
func (s *hashSet[H]) has(h H) bool {
	if len(s.hashes) == 0 {
		return false
	}
	b := h >> s.shift
	for _, x := range s.hashes[s.start[b]:s.start[b+1]] {
		if x == h {
			return true
		}
	}
	return false
}

// hasChecked reports whether h is in the set with the check c beside it.
func (s *hashSet[H]) hasChecked(h H, c uint32) bool {
	if len(s.hashes) == 0 {
		return false
	}
	b := h >> s.shift
	for j := s.start[b]; j < s.start[b+1]; j++ {
		if s.hashes[j] == h && s.checks[j] == c {
			return true
		}
	}
	return false
}
