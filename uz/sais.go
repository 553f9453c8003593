package uz

// saChar is the text alphabet sais works on: bytes at the top level and
// int32 names in the recursion.
type saChar interface{ ~byte | ~int32 }

// sais fills sa (len(sa) == len(t)) with the suffix array of t, whose values
// lie in [0, k), using induced sorting (Nong, Zhang and Chan, 2009). The
// order is the usual one: a suffix that is a prefix of another sorts first.
func sais[T saChar](t []T, sa []int32, k int) {
	n := len(t)
	switch n {
	case 0:
		return
	case 1:
		sa[0] = 0
		return
	}

	// isS[i]: suffix i is S-type (smaller than suffix i+1). The virtual
	// sentinel after the text is the smallest suffix, so t[n-1] is L-type.
	isS := make([]bool, n)
	for i := n - 2; i >= 0; i-- {
		isS[i] = t[i] < t[i+1] || (t[i] == t[i+1] && isS[i+1])
	}

	cnt := make([]int32, k)
	for _, c := range t {
		cnt[c]++
	}
	bkt := make([]int32, k)

	// Stage 1: sort the LMS substrings by induction from their positions.
	bucketEnds(cnt, bkt)
	for i := range sa {
		sa[i] = -1
	}
	for i := 1; i < n; i++ {
		if isS[i] && !isS[i-1] {
			c := t[i]
			bkt[c]--
			sa[bkt[c]] = int32(i)
		}
	}
	induce(t, sa, isS, cnt, bkt)

	// Compact the sorted LMS positions into sa[:m] and name the substrings.
	m := 0
	for i := 0; i < n; i++ {
		if p := int(sa[i]); p > 0 && isS[p] && !isS[p-1] {
			sa[m] = int32(p)
			m++
		}
	}
	for i := m; i < n; i++ {
		sa[i] = -1
	}
	names, prev := 0, -1
	for i := 0; i < m; i++ {
		pos := int(sa[i])
		diff := false
		for d := 0; ; d++ {
			if prev == -1 || pos+d == n || prev+d == n || t[pos+d] != t[prev+d] || isS[pos+d] != isS[prev+d] {
				diff = true
				break
			}
			if d > 0 && (isS[pos+d] && !isS[pos+d-1] || isS[prev+d] && !isS[prev+d-1]) {
				break
			}
		}
		if diff {
			names++
			prev = pos
		}
		sa[m+pos/2] = int32(names - 1)
	}
	j := n - 1
	for i := n - 1; i >= m; i-- {
		if sa[i] >= 0 {
			sa[j] = sa[i]
			j--
		}
	}

	// Stage 2: sort the reduced string (recursively when names repeat).
	s1, sa1 := sa[n-m:], sa[:m]
	if names < m {
		sais(s1, sa1, names)
	} else {
		for i, c := range s1 {
			sa1[c] = int32(i)
		}
	}

	// Stage 3: place the sorted LMS suffixes and induce the rest.
	j = 0
	for i := 1; i < n; i++ {
		if isS[i] && !isS[i-1] {
			s1[j] = int32(i)
			j++
		}
	}
	for i := range sa1 {
		sa1[i] = s1[sa1[i]]
	}
	for i := m; i < n; i++ {
		sa[i] = -1
	}
	bucketEnds(cnt, bkt)
	for i := m - 1; i >= 0; i-- {
		p := sa[i]
		sa[i] = -1
		c := t[p]
		bkt[c]--
		sa[bkt[c]] = p
	}
	induce(t, sa, isS, cnt, bkt)
}

func bucketStarts(cnt, bkt []int32) {
	var sum int32
	for i, c := range cnt {
		bkt[i] = sum
		sum += c
	}
}

func bucketEnds(cnt, bkt []int32) {
	var sum int32
	for i, c := range cnt {
		sum += c
		bkt[i] = sum
	}
}

// induce sorts the L-type suffixes left to right from the seeds in sa, then
// the S-type suffixes right to left.
func induce[T saChar](t []T, sa []int32, isS []bool, cnt, bkt []int32) {
	n := len(t)
	bucketStarts(cnt, bkt)
	c := t[n-1] // induced by the virtual sentinel
	sa[bkt[c]] = int32(n - 1)
	bkt[c]++
	for i := 0; i < n; i++ {
		j := int(sa[i]) - 1
		if j >= 0 && !isS[j] {
			c := t[j]
			sa[bkt[c]] = int32(j)
			bkt[c]++
		}
	}
	bucketEnds(cnt, bkt)
	for i := n - 1; i >= 0; i-- {
		j := int(sa[i]) - 1
		if j >= 0 && isS[j] {
			c := t[j]
			bkt[c]--
			sa[bkt[c]] = int32(j)
		}
	}
}
