package graph

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestHashSet compares the set with a map, for sizes around the bucket
// count's steps, with duplicates, extreme values and absent hashes.
func TestHashSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 100, 1023, 1024, 1025, 20000} {
		var hs []uint64
		want := map[uint64]bool{}
		for i := range n {
			h := rng.Uint64()
			switch i % 97 {
			case 1:
				h = 0
			case 2:
				h = ^uint64(0)
			case 3:
				if len(hs) > 0 {
					h = hs[0] // a duplicate
				}
			}
			hs = append(hs, h)
			want[h] = true
		}
		s := newHashSet(append([]uint64(nil), hs...))
		if !slices.IsSortedFunc(s.hashes, func(a, b uint64) int { return cmp.Compare(a>>s.shift, b>>s.shift) }) {
			t.Fatalf("n=%d: hashes not in bucket order", n)
		}
		for h := range want {
			if !s.has(h) {
				t.Fatalf("n=%d: %#x missing", n, h)
			}
		}
		for range 1000 {
			h := rng.Uint64()
			if s.has(h) != want[h] {
				t.Fatalf("n=%d: has(%#x) = %v", n, h, !want[h])
			}
		}
		if n == 0 && (s.has(0) || s.has(1)) {
			t.Fatal("empty set has a hash")
		}
	}
}

// TestCheckedSet compares the set of 32-bit hashes with checks beside them
// with a map: a hash is found only with its own check, across the bucket
// count's steps, with duplicates and extreme values.
func TestCheckedSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	type pair struct{ h, c uint32 }
	for _, n := range []int{0, 1, 2, 3, 5, 8, 9, 100, 1024, 1025, 20000} {
		var hs, cs []uint32
		want := map[pair]bool{}
		for i := range n {
			p := pair{rng.Uint32(), rng.Uint32()}
			switch i % 89 {
			case 1:
				p.h = 0
			case 2:
				p.h = ^uint32(0)
			case 3:
				if len(hs) > 0 {
					p.h = hs[0] // the same hash, another check
				}
			}
			hs, cs = append(hs, p.h), append(cs, p.c)
			want[p] = true
		}
		s := newCheckedSet(slices.Clone(hs), slices.Clone(cs))
		if !slices.IsSortedFunc(s.hashes, func(a, b uint32) int { return cmp.Compare(a>>s.shift, b>>s.shift) }) {
			t.Fatalf("n=%d: hashes not in bucket order", n)
		}
		for p := range want {
			if !s.hasChecked(p.h, p.c) {
				t.Fatalf("n=%d: %#x with check %#x missing", n, p.h, p.c)
			}
			if q := (pair{p.h, p.c + 1}); !want[q] && s.hasChecked(q.h, q.c) {
				t.Fatalf("n=%d: %#x found with another check", n, p.h)
			}
		}
		for range 1000 {
			p := pair{rng.Uint32(), rng.Uint32()}
			if s.hasChecked(p.h, p.c) != want[p] {
				t.Fatalf("n=%d: hasChecked(%#x, %#x) = %v", n, p.h, p.c, !want[p])
			}
		}
	}
}
