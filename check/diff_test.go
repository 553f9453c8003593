package check

import (
	"fmt"
	"slices"
	"testing"

	"github.com/upkdeps/upkdeps/graph"
)

// TestDiff: one comparison, two identities. Exact (the download cache) sees
// a finding whose importers changed as removed and added; SameProblem (a
// mod) sees it as changed, and a package's name in another case as the
// same problem. Objects are part of the identity: a missing_object finding
// naming other objects is another problem.
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
			[]string{"missing_object Tex", "missing_package New"},
			[]string{"missing_package Fixed", "missing_object Tex"},
			[]string{"missing_package gone"}},
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

// TestDiffSameIdentity: findings of one kind and package that differ in
// severity, ini line or the packages they involve are different problems
// (the demo's three edit_order findings of DemoGame); two findings of one
// ID (a cycle the package graph shows and the same cycle the sources show)
// pair with their equals, and the lists in another order are no change.
func TestDiffSameIdentity(t *testing.T) {
	eo := func(sev graph.Severity, dep, msg string) graph.Finding {
		return graph.Finding{Kind: graph.EditOrder, Severity: sev, Package: "DemoGame", Packages: []string{"DemoGame", dep}, Message: msg}
	}
	cyc := func(msg string) graph.Finding {
		return graph.Finding{Kind: graph.Cycle, Severity: graph.Warning, Package: "DemoGame", Packages: []string{"DemoGame", "DemoWeapons"}, Message: msg}
	}
	root := func(line string) graph.Finding {
		return graph.Finding{Kind: graph.MissingPackage, Severity: graph.Error, Package: "Gone", Roots: []string{line}, Message: "m"}
	}
	before := []graph.Finding{eo(graph.Error, "DemoExtras", "a"), eo(graph.Warning, "DemoBase", "b"), eo(graph.Warning, "DemoWeapons", "c"),
		cyc("imports"), cyc("sources"), root("Demo.ini:3 ServerPackages=Gone")}
	after := slices.Clone(before)
	slices.Reverse(after)
	if a, r, c := Diff(before, after, SameProblem); len(a)+len(r)+len(c) > 0 {
		t.Errorf("the same findings: added %v removed %v changed %v", a, r, c)
	}
	after = []graph.Finding{eo(graph.Error, "DemoExtras", "a"), eo(graph.Error, "DemoBase", "b"), eo(graph.Warning, "DemoWeapons", "c2"),
		cyc("sources"), root("Demo.ini:4 ServerPackages=Gone")}
	a, r, c := Diff(before, after, SameProblem)
	str := func(fs []graph.Finding) []string {
		out := []string{}
		for _, f := range fs {
			out = append(out, fmt.Sprintf("%s %s %v %v %s", f.Kind, f.Severity, f.Packages, f.Roots, f.Message))
		}
		return out
	}
	wantA := []string{"edit_order error [DemoGame DemoBase] [] b", "missing_package error [] [Demo.ini:4 ServerPackages=Gone] m"}
	wantR := []string{"edit_order warning [DemoGame DemoBase] [] b", "cycle warning [DemoGame DemoWeapons] [] imports",
		"missing_package error [] [Demo.ini:3 ServerPackages=Gone] m"}
	wantC := []string{"edit_order warning [DemoGame DemoWeapons] [] c2"}
	if !slices.Equal(str(a), wantA) || !slices.Equal(str(r), wantR) || !slices.Equal(str(c), wantC) {
		t.Errorf("have added %q\nremoved %q\nchanged %q\nwant added %q\nremoved %q\nchanged %q", str(a), str(r), str(c), wantA, wantR, wantC)
	}
}
