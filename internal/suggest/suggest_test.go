package suggest

import "testing"

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
