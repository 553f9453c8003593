// Package suggest finds the nearest of a list of names to a misspelt one,
// for "did you mean" hints.
package suggest

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Nearest returns the candidate closest to name by edit distance (case
// ignored; a transposition counts one), or "" when none is close: the
// distance must be at most a third of name's length, and at least 1 and
// at most 3. Ties go to the earlier candidate.
//
// A check with many missing packages asks once for each against every
// package of the install, so a candidate costs no allocation, one whose
// length alone puts it out of reach is not compared, and a comparison
// stops once it cannot beat the best so far (the distance is at least
// the difference of the lengths, and the least value of a row of the
// table never falls from one row to the next).
func Nearest(name string, candidates []string) string {
	x := []rune(strings.ToLower(name))
	limit := min(max(len(x)/3, 1), 3)
	best, bestD := "", limit+1
	var m matcher
	for _, c := range candidates {
		if n := utf8.RuneCountInString(c); n-len(x) >= bestD || len(x)-n >= bestD {
			continue
		}
		m.y = m.y[:0]
		for _, r := range c {
			m.y = append(m.y, unicode.ToLower(r))
		}
		if d := m.distance(x, bestD); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// Distance is the optimal string alignment distance of a and b in runes:
// insertions, deletions, substitutions and transpositions of neighbours.
func Distance(a, b string) int {
	m := matcher{y: []rune(b)}
	x := []rune(a)
	return m.distance(x, len(x)+len(m.y)+1)
}

// matcher holds the rune form of the second string and the table's rows,
// reused from one comparison to the next.
type matcher struct {
	y                []rune
	prev2, prev, cur []int
}

// distance is Distance of x and m.y when that is below bound, and bound
// or more otherwise: it stops at the first row whose least value is
// bound (a row's least value is never below the one before it's).
func (m *matcher) distance(x []rune, bound int) int {
	y := m.y
	// Three rows: two back (transpositions), previous, current.
	m.prev2 = fit(m.prev2, len(y)+1)
	m.prev = fit(m.prev, len(y)+1)
	m.cur = fit(m.cur, len(y)+1)
	prev2, prev, cur := m.prev2, m.prev, m.cur
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		least := i
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			least = min(least, cur[j])
		}
		if least >= bound {
			return bound
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(y)]
}

// fit returns s with length n, reusing its array when it is big enough.
func fit(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n)
	}
	return s[:n]
}
