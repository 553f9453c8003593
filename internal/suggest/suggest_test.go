package suggest

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "", 3}, {"", "ab", 2}, {"kitten", "sitting", 3},
		{"dm-dmeo", "dm-demo", 1}, {"ab", "ba", 1}, {"ca", "abc", 3}, {"état", "etat", 1},
	} {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := Distance(c.b, c.a); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.b, c.a, got, c.want)
		}
	}
}

func TestNearest(t *testing.T) {
	names := []string{"DM-Demo", "DM-Second", "DemoBase", "Core"}
	for _, c := range []struct{ in, want string }{
		{"DM-Dmeo", "DM-Demo"},
		{"dm-demo", "DM-Demo"}, // case aside: distance 0
		{"DemoBsae", "DemoBase"},
		{"Cor", "Core"},
		{"Engine", ""}, // nothing close
		{"X", ""},
	} {
		if got := Nearest(c.in, names); got != c.want {
			t.Errorf("Nearest(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := Nearest("index", []string{"indx", "inde"}); got != "indx" {
		t.Errorf("tie: got %q, want the earlier candidate", got)
	}
}

// naiveNearest is Nearest as first written: every candidate lower-cased
// and compared in full.
func naiveNearest(name string, candidates []string) string {
	limit := min(max(len([]rune(name))/3, 1), 3)
	best, bestD := "", limit+1
	for _, c := range candidates {
		if d := Distance(strings.ToLower(name), strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// TestNearestPruned checks that the length bound and the early stop never
// change the answer: 600 random queries against 200 random names over a
// small alphabet (so that many are near each other), with case, non-ASCII
// and invalid UTF-8 among them.
func TestNearestPruned(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alpha := []string{"a", "b", "c", "A", "B", "é", "É", "-", "\xff"}
	word := func() string {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(alpha[rng.IntN(len(alpha))])
		}
		return b.String()
	}
	names := make([]string, 200)
	for i := range names {
		names[i] = word()
	}
	for range 600 {
		q := word()
		if got, want := Nearest(q, names), naiveNearest(q, names); got != want {
			t.Fatalf("Nearest(%q) = %q, want %q (the full comparison's)", q, got, want)
		}
	}
}

// TestNearestNoAlloc checks that comparing a candidate allocates nothing
// (a check asks once per missing package against the whole install): the
// few allocations left grow the reused buffers to the longest name.
func TestNearestNoAlloc(t *testing.T) {
	names := benchNames(2000)
	allocs := testing.AllocsPerRun(5, func() { Nearest("UnrealGame-Missing", names) })
	if allocs > 16 {
		t.Errorf("Nearest allocates %v times for 2000 candidates, want at most 16 (growing its buffers)", allocs)
	}
}

// benchNames makes n package-like names of 4 to 20 letters.
func benchNames(n int) []string {
	rng := rand.New(rand.NewPCG(3, 4))
	names := make([]string, n)
	for i := range names {
		b := make([]byte, 4+rng.IntN(17))
		for j := range b {
			b[j] = "abcdefghijklmnopqrstuvwxyzABCDEFGH-_0123"[rng.IntN(40)]
		}
		names[i] = string(b)
	}
	return names
}

// BenchmarkNearest is one "did you mean" hint on an install of 20,000
// packages.
func BenchmarkNearest(b *testing.B) {
	names := benchNames(20000)
	for b.Loop() {
		Nearest("UnrealGame-Missing", names)
	}
}
