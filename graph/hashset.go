package graph

import "math/bits"

// hashSet is a set of 64-bit hashes (uniformly spread, as maphash's are)
// laid out in buckets by their top bits: a lookup reads one bucket of a
// few hashes, and making the set is two linear passes, not a sort. It
// costs about one byte per hash beyond the hashes themselves.
type hashSet struct {
	hashes []uint64 // bucket by bucket
	start  []uint32 // bucket b is hashes[start[b]:start[b+1]]
	shift  uint     // the bucket of h is h >> shift
}

// newHashSet makes the set of hs, in hs's own memory: it moves each hash
// to its bucket in place (the partition step of an in-place radix sort).
func newHashSet(hs []uint64) hashSet {
	// About two to four hashes per bucket: 2^k buckets. (With k = 0, the
	// shift is 64 and every hash is in bucket 0.)
	k := max(0, bits.Len(uint(len(hs)))-2)
	s := hashSet{hashes: hs, start: make([]uint32, 1<<k+1), shift: uint(64 - k)}
	for _, h := range hs {
		s.start[h>>s.shift+1]++
	}
	for b := 1; b < len(s.start); b++ {
		s.start[b] += s.start[b-1]
	}
	// next[b] is the first place of bucket b not yet known to hold one of
	// its hashes; a hash found there that belongs elsewhere is swapped
	// into its own bucket's next place, until bucket b is full.
	next := make([]uint32, len(s.start)-1)
	copy(next, s.start)
	for b := range next {
		for next[b] < s.start[b+1] {
			h := hs[next[b]]
			if t := h >> s.shift; t != uint64(b) {
				hs[next[b]], hs[next[t]] = hs[next[t]], h
				next[t]++
			} else {
				next[b]++
			}
		}
	}
	return s
}

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
