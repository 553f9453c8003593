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
	// SameProblem: the same ID (kind, severity, package, objects, ini
	// lines, packages involved); it changed when its message, importers or
	// chain differ (what a mod adds, removes and changes: a package
	// already missing that the mod's packages need too).
	SameProblem
)

// ID is a finding's identity: what makes two findings, of two runs of a
// check (before and after check --with's mod, or a saved baseline), the
// same problem. It is the finding's kind, severity and package (case
// aside), the objects it names (case aside), the ini lines it rests on
// (Roots) and the packages it involves (Packages, case aside: the two ends
// of an edit_order, the members of a cycle). What a finding says about the
// problem is not in it: its message, the packages that need it (NeededBy)
// and its chain of evidence may change while the problem stays. Two
// findings of one run may share an ID (a cycle the package graph shows and
// the same cycle the sources show); Diff pairs those in order.
//
// The ID is a string for map keys and comparison, not for display.
// Baselines store a hash of it (Fingerprint), so its form changes only
// with BaselineVersion.
func ID(f graph.Finding) string {
	var b strings.Builder
	b.WriteString(string(f.Kind))
	b.WriteByte(0)
	b.WriteString(string(f.Severity))
	b.WriteByte(0)
	b.WriteString(strings.ToLower(f.Package))
	parts := []struct {
		list []string
		fold bool
	}{{graph.ObjectStrings(f.Objects), true}, {f.Roots, false}, {f.Packages, true}}
	for _, p := range parts {
		b.WriteByte(0)
		for i, s := range p.list {
			if i > 0 {
				b.WriteByte(1)
			}
			if p.fold {
				s = strings.ToLower(s)
			}
			b.WriteString(s)
		}
	}
	return b.String()
}

func (id Identity) key(f graph.Finding) string {
	if id == SameProblem {
		return ID(f)
	}
	return string(f.Kind) + "\x00" + f.Package + "\x00" + f.Message + "\x00" + strings.Join(graph.ObjectStrings(f.Objects), "\x00")
}

func (id Identity) detail(f graph.Finding) string {
	if id == Exact {
		return ""
	}
	return strings.Join([]string{f.Message, strings.Join(f.NeededBy, "\x01"), strings.Join(f.Chain, "\x01")}, "\x00")
}

// Diff compares the findings of an install before and after a change:
// added are those of after with no finding of the same identity before,
// removed those of before with none after, changed those of after whose
// finding before differs in detail (as they are after). Findings of one
// identity are paired, before with after, those of the same detail first
// and then in order; an unpaired one is added or removed. Each list keeps
// its input's order and is [] rather than nil.
func Diff(before, after []graph.Finding, id Identity) (added, removed, changed []graph.Finding) {
	old := map[string][]int{} // key -> indexes into before, unpaired
	for i, f := range before {
		k := id.key(f)
		old[k] = append(old[k], i)
	}
	pairedBefore := make([]bool, len(before))
	pair := make([]int, len(after)) // index into before, or -1
	take := func(k string, j int) {
		list := old[k]
		pairedBefore[list[j]] = true
		old[k] = append(list[:j:j], list[j+1:]...)
	}
	// Same identity and detail first, so that two findings of one
	// identity are never each "changed" into the other.
	for i, f := range after {
		pair[i] = -1
		k := id.key(f)
		for j, bi := range old[k] {
			if id.detail(before[bi]) == id.detail(f) {
				pair[i] = bi
				take(k, j)
				break
			}
		}
	}
	for i, f := range after {
		if pair[i] >= 0 {
			continue
		}
		if k := id.key(f); len(old[k]) > 0 {
			pair[i] = old[k][0]
			take(k, 0)
		}
	}
	added, removed, changed = []graph.Finding{}, []graph.Finding{}, []graph.Finding{}
	for i, f := range after {
		switch {
		case pair[i] < 0:
			added = append(added, f)
		case id.detail(before[pair[i]]) != id.detail(f):
			changed = append(changed, f)
		}
	}
	for i, f := range before {
		if !pairedBefore[i] {
			removed = append(removed, f)
		}
	}
	return added, removed, changed
}
