package check

import (
	"slices"
	"testing"

	"github.com/upkdeps/upkdeps/graph"
)

// TestDiff: one comparison, two identities. Exact (the download cache) sees
// a finding whose objects changed as removed; SameProblem (a mod) sees it
// as changed, and a package's name in another case as the same problem.
func TestDiff(t *testing.T) {
	obj := func(path string) graph.Object {
		return graph.Object{Package: "Tex", Path: path, ClassPackage: "Engine", Class: "Texture"}
	}
	mp := func(pkg string, by ...string) graph.Finding {
		return graph.Finding{Kind: graph.MissingPackage, Severity: graph.Error, Package: pkg, NeededBy: by, Message: "m"}
	}
	mo := func(objs ...graph.Object) graph.Finding {
		return graph.Finding{Kind: graph.MissingObject, Severity: graph.Error, Package: "Tex", Objects: objs, Message: "m"}
	}
	before := []graph.Finding{mp("Gone", "A"), mp("Fixed"), mo(obj("A"))}
	after := []graph.Finding{mp("gone", "A", "B"), mo(obj("A"), obj("B")), mp("New")}
	pkgs := func(fs []graph.Finding) []string {
		out := []string{}
		for _, f := range fs {
			out = append(out, string(f.Kind)+" "+f.Package)
		}
		return out
	}
	for _, tc := range []struct {
		id                      Identity
		added, removed, changed []string
	}{
		{Exact,
			[]string{"missing_package gone", "missing_object Tex", "missing_package New"},
			[]string{"missing_package Gone", "missing_package Fixed", "missing_object Tex"},
			[]string{}},
		{SameProblem,
			[]string{"missing_package New"},
			[]string{"missing_package Fixed"},
			[]string{"missing_package gone", "missing_object Tex"}},
	} {
		a, r, c := Diff(before, after, tc.id)
		if !slices.Equal(pkgs(a), tc.added) || !slices.Equal(pkgs(r), tc.removed) || !slices.Equal(pkgs(c), tc.changed) {
			t.Errorf("identity %d: have added %q removed %q changed %q\nwant added %q removed %q changed %q",
				tc.id, pkgs(a), pkgs(r), pkgs(c), tc.added, tc.removed, tc.changed)
		}
	}
	if a, r, c := Diff(nil, nil, Exact); a == nil || r == nil || c == nil {
		t.Error("empty lists are nil, want [] in JSON")
	}
}
