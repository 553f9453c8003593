// Package suggest finds the nearest of a list of names to a misspelt one,
// for "did you mean" hints.
package suggest

import "strings"

// Nearest returns the candidate closest to name by edit distance (case
// ignored; a transposition counts one), or "" when none is close: the
// distance must be at most a third of name's length, and at least 1 and
// at most 3. Ties go to the earlier candidate.
func Nearest(name string, candidates []string) string {
	limit := min(max(len([]rune(name))/3, 1), 3)
	best, bestD := "", limit+1
	lower := strings.ToLower(name)
	for _, c := range candidates {
		if d := Distance(lower, strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// Distance is the optimal string alignment distance of a and b in runes:
// insertions, deletions, substitutions and transpositions of neighbours.
func Distance(a, b string) int {
	x, y := []rune(a), []rune(b)
	// Three rows: two back (transpositions), previous, current.
	prev2 := make([]int, len(y)+1)
	prev := make([]int, len(y)+1)
	cur := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(y)]
}
