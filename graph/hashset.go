package graph

import (
	"math/bits"
	"sync"
)

// hashSet is a set of 64-bit hashes (uniformly spread, as maphash's are)
// laid out in buckets by their top bits: a lookup reads one bucket of a
// few hashes, and making the set is two linear passes, not a sort. It
// costs about one byte per hash beyond the hashes themselves.
type hashSet struct {
	hashes []uint64 // bucket by bucket
	checks []uint32 // beside each hash, a second one of its own (nil: none)
	start  []uint32 // bucket b is hashes[start[b]:start[b+1]]
	shift  uint     // the bucket of h is h >> shift
}

// newHashSet makes the set of hs, in hs's own memory: it counts the
// hashes of each bucket, then copies hs aside and puts each hash back in
// its bucket's next place (a counting sort by bucket: three linear passes,
// about 1.6x faster than swapping each hash into place, which waits on
// every swap to choose the next).
func newHashSet(hs []uint64) hashSet { return newCheckedSet(hs, nil) }

// newCheckedSet is newHashSet with cs, a second hash beside each of hs
// (nil: none), moved with its hash; the set is in hs's and cs's memory.
func newCheckedSet(hs []uint64, cs []uint32) hashSet {
	// About two to four hashes per bucket: 2^k buckets. (With k = 0, the
	// shift is 64 and every hash is in bucket 0.)
	k := max(0, bits.Len(uint(len(hs)))-2)
	s := hashSet{hashes: hs, checks: cs, start: make([]uint32, 1<<k+1), shift: uint(64 - k)}
	for _, h := range hs {
		s.start[h>>s.shift+1]++
	}
	for b := 1; b < len(s.start); b++ {
		s.start[b] += s.start[b-1]
	}
	sc := scratchPool.Get().(*hashScratchSet)
	defer scratchPool.Put(sc)
	sc.hashes = append(sc.hashes[:0], hs...)
	next := append(sc.next[:0], s.start[:len(s.start)-1]...) // next[b]: bucket b's next place
	sc.next = next
	if cs == nil {
		for _, h := range sc.hashes {
			b := h >> s.shift
			hs[next[b]] = h
			next[b]++
		}
		return s
	}
	sc.checks = append(sc.checks[:0], cs...)
	for i, h := range sc.hashes {
		b := h >> s.shift
		hs[next[b]], cs[next[b]] = h, sc.checks[i]
		next[b]++
	}
	return s
}

// hashScratchSet is the memory newHashSet reuses from set to set (the
// goroutines of a check make sets at once: a pool of them).
type hashScratchSet struct {
	hashes []uint64
	checks []uint32
	next   []uint32
}

var scratchPool = sync.Pool{New: func() any { return new(hashScratchSet) }}

// has reports whether h is in the set.
func (s *hashSet) has(h uint64) bool {
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
func (s *hashSet) hasChecked(h uint64, c uint32) bool {
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
