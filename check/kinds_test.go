package check

import (
	"errors"
	"slices"
	"testing"

	"github.com/upkdeps/upkdeps/graph"
)

// TestParseKinds: known kinds in order, blanks skipped and spaces
// trimmed; an unknown kind is a *KindError with the nearest known one.
func TestParseKinds(t *testing.T) {
	have, err := ParseKinds([]string{" shadowed", "", string(graph.MissingPackage)})
	if err != nil || !slices.Equal(have, []graph.FindingKind{graph.Shadowed, graph.MissingPackage}) {
		t.Errorf("have %v, err %v", have, err)
	}
	if have, err := ParseKinds(nil); err != nil || have != nil {
		t.Errorf("none: %v, %v", have, err)
	}
	_, err = ParseKinds([]string{"shadowed", "shadowd"})
	var ke *KindError
	if !errors.As(err, &ke) || ke.Kind != "shadowd" || ke.Near != "shadowed" || err.Error() != `unknown finding kind "shadowd"; did you mean shadowed?` {
		t.Errorf("misspelt kind: %v", err)
	}
	_, err = ParseKinds([]string{"zzzzzzzzzzzzzzzzzzzz"})
	if !errors.As(err, &ke) || ke.Near != "" || err.Error() != `unknown finding kind "zzzzzzzzzzzzzzzzzzzz"` {
		t.Errorf("far kind: %v", err)
	}
}

// TestFailsAt: each level against reports with errors, warnings, neither.
func TestFailsAt(t *testing.T) {
	for _, tc := range []struct {
		errs, warns int
		level       string
		want        bool
	}{
		{1, 0, "", true}, {1, 0, "error", true}, {0, 1, "error", false}, {0, 1, "", false},
		{0, 1, "warning", true}, {1, 0, "warning", true}, {0, 0, "warning", false},
		{1, 1, "none", false},
	} {
		r := &Report{Summary: Summary{Errors: tc.errs, Warnings: tc.warns}}
		if have, err := r.FailsAt(tc.level); err != nil || have != tc.want {
			t.Errorf("%d errors, %d warnings at %q: %v, %v", tc.errs, tc.warns, tc.level, have, err)
		}
	}
	if _, err := (&Report{}).FailsAt("fatal"); !errors.Is(err, ErrFailOn) {
		t.Errorf("unknown level: %v", err)
	}
}
