package native

import (
	"strings"
	"testing"
)

// TestOnly: the native-only rule on its own. graph (compiled imports) and
// uscript (sources) call it; cmd/upkdeps' TestNativeOnlyOneRule runs the
// same cases through both.
func TestOnly(t *testing.T) {
	set := NewSet()
	set.AddTable(&Table{Name: "test", Packages: map[string][]string{"Engine": {"Sound", "Actor"}}})
	scripted := func(classes ...string) func(string) bool {
		return func(c string) bool {
			for _, s := range classes {
				if strings.EqualFold(s, c) {
					return true
				}
			}
			return false
		}
	}
	for _, tc := range []struct {
		pkg, path string
		defines   func(string) bool
		want      bool
	}{
		{"Engine", "Sound", scripted("Actor"), true},
		{"engine", "SOUND.SomeProperty", scripted("Actor"), true}, // a member below it
		{"Engine", "Sound", nil, true},                            // no script of Engine at hand
		{"Engine", "Actor", scripted("Actor"), false},             // script declares it too
		{"Engine", "Level", scripted("Actor"), false},             // not registered
		{"Core", "Sound", nil, false},                             // registered by another package
		{"Engine", "", nil, false},
	} {
		if have := Only(set, tc.pkg, tc.path, tc.defines); have != tc.want {
			t.Errorf("Only(%s, %q) = %v, want %v", tc.pkg, tc.path, have, tc.want)
		}
	}
	var none *Set
	if Only(nil, "Engine", "Sound", nil) || Only(none, "Engine", "Sound", nil) {
		t.Error("no registry: native-only")
	}
}
