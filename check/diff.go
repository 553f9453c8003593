package check

import (
	"strings"

	"github.com/upkdeps/upkdeps/graph"
)

// Identity says when two findings, one of each list Diff compares, are the
// same problem, and when that problem changed.
type Identity int

const (
	// Exact: the same kind, package, message and objects; a finding is
	// never changed, only added or removed (what the download cache
	// removes from a plain check).
	Exact Identity = iota
	// SameProblem: the same kind about the same package (any case); it
	// changed when its message, objects, importers, ini lines or packages
	// differ (what a mod adds, removes and changes).
	SameProblem
)

func (id Identity) key(f graph.Finding) string {
	if id == SameProblem {
		return string(f.Kind) + "\x00" + strings.ToLower(f.Package)
	}
	return string(f.Kind) + "\x00" + f.Package + "\x00" + f.Message + "\x00" + strings.Join(graph.ObjectStrings(f.Objects), "\x00")
}

func (id Identity) detail(f graph.Finding) string {
	if id == Exact {
		return ""
	}
	return strings.Join([]string{f.Message, strings.Join(graph.ObjectStrings(f.Objects), "\x01"), strings.Join(f.NeededBy, "\x01"),
		strings.Join(f.Roots, "\x01"), strings.Join(f.Packages, "\x01")}, "\x00")
}

// Diff compares the findings of an install before and after a change:
// added are those of after with no finding of the same identity before,
// removed those of before with none after, changed those of after whose
// finding before differs in detail (as they are after). Each list keeps
// its input's order and is [] rather than nil.
func Diff(before, after []graph.Finding, id Identity) (added, removed, changed []graph.Finding) {
	old := map[string]graph.Finding{}
	for _, f := range before {
		old[id.key(f)] = f
	}
	now := map[string]bool{}
	added, removed, changed = []graph.Finding{}, []graph.Finding{}, []graph.Finding{}
	for _, f := range after {
		now[id.key(f)] = true
		b, ok := old[id.key(f)]
		switch {
		case !ok:
			added = append(added, f)
		case id.detail(b) != id.detail(f):
			changed = append(changed, f)
		}
	}
	for _, f := range before {
		if !now[id.key(f)] {
			removed = append(removed, f)
		}
	}
	return added, removed, changed
}
