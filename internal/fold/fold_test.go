package fold

import (
	"strings"
	"testing"
)

// TestCompare: the sign is strings.Compare's of the lower-cased strings,
// for ASCII around the letters' edges, prefixes, and text that leaves
// ASCII at any point.
func TestCompare(t *testing.T) {
	words := []string{"", "a", "A", "ab", "AB", "aB", "b", "@", "[", "`", "{", "Z", "z", "Engine", "engine", "Engines",
		"ÉCOLE", "école", "Ecole", "aÉ", "aé", "aE", "\xff", "a\xff", "Ä", "ä", "İ", "i"}
	sign := func(n int) int { return min(max(n, -1), 1) }
	for _, a := range words {
		for _, b := range words {
			if have, want := sign(Compare(a, b)), strings.Compare(strings.ToLower(a), strings.ToLower(b)); have != want {
				t.Errorf("Compare(%q, %q) = %d, want %d", a, b, have, want)
			}
		}
	}
}

func BenchmarkCompare(b *testing.B) {
	for b.Loop() {
		Compare("Engine.Actor", "engine.actoR")
	}
}
