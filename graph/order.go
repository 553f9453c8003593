package graph

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	gonum "gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/graph/topo"
)

// OrderDep is one ordering constraint: Package needs On built first.
type OrderDep struct {
	Package  string `json:"package"`
	On       string `json:"on"`
	Evidence string `json:"evidence"` // "file.uc:12: class X extends Y;" or "compiled import: X.u imports Y.Z (Core.Class)"
	Source   string `json:"source"`   // "source" or "compiled"
}

// SourceDeps returns the source-level dependencies of an EditPackages entry
// and true when it has sources; nil, false makes the check use the compiled
// package's imports instead.
type SourceDeps func(pkg string) ([]OrderDep, bool)

// OrderResult is the outcome of checking EditPackages.
type OrderResult struct {
	EditPackages []string   `json:"edit_packages"`
	Valid        bool       `json:"valid"`
	Findings     []Finding  `json:"findings"`
	Suggested    []string   `json:"suggested"` // nil when a cycle makes any order impossible
	Constraints  []OrderDep `json:"constraints"`
}

// compiledDeps returns the constraints from a compiled package's imports.
func (gr *Graph) compiledDeps(name string) []OrderDep {
	p := gr.Package(name)
	if p == nil || p.Missing() {
		return nil
	}
	var out []OrderDep
	for _, q := range gr.Imports(p) {
		ev := fmt.Sprintf("compiled import: %s imports package %s", p.Rel, q.Name)
		if e := gr.Edge(p, q); e != nil && len(e.Objects) > 0 {
			ev = fmt.Sprintf("compiled import: %s imports %s", p.Rel, e.Objects[0].describe(q.Name))
		}
		out = append(out, OrderDep{Package: p.Name, On: q.Name, Evidence: ev, Source: "compiled"})
	}
	return out
}

// CheckEditPackages validates the build order of EditPackages: each package
// may only use packages listed before it (or present compiled packages that
// are not listed). It uses src for packages with sources, and the compiled
// imports otherwise, and suggests the closest valid order.
func (gr *Graph) CheckEditPackages(edit []string, src SourceDeps) OrderResult {
	res := OrderResult{EditPackages: append([]string{}, edit...), Findings: []Finding{}, Constraints: []OrderDep{}}
	pos := map[string]int{}
	var unique []string
	for i, n := range edit {
		k := lower(n)
		if j, ok := pos[k]; ok {
			res.Findings = append(res.Findings, Finding{Kind: EditOrder, Severity: Error, Package: n,
				Packages: []string{n},
				Message:  fmt.Sprintf("%s is listed twice in EditPackages (positions %d and %d)", n, j+1, i+1)})
			continue
		}
		pos[k] = i
		unique = append(unique, n)
	}

	// Constraint graph over listed packages: an edge dep -> pkg.
	g := simple.NewDirectedGraph()
	for i := range unique {
		g.AddNode(simple.Node(int64(pos[lower(unique[i])])))
	}
	for _, n := range unique {
		i := pos[lower(n)]
		deps, ok := []OrderDep(nil), false
		if src != nil {
			deps, ok = src(n)
		}
		if !ok {
			deps = gr.compiledDeps(n)
		}
		reported := map[string]bool{}
		for _, d := range deps {
			if strings.EqualFold(d.On, n) {
				continue
			}
			res.Constraints = append(res.Constraints, d)
			j, listed := pos[lower(d.On)]
			switch {
			case listed && j > i:
				if !reported[lower(d.On)] {
					reported[lower(d.On)] = true
					res.Findings = append(res.Findings, Finding{Kind: EditOrder, Severity: Error, Package: n,
						Packages: []string{n, edit[j]}, Chain: []string{d.Evidence},
						Message: fmt.Sprintf("%s (position %d) uses %s, which is listed after it (position %d): ucc make builds %s first and fails", n, i+1, edit[j], j+1, n)})
				}
			case !listed:
				dep := gr.Package(d.On)
				if (dep == nil || dep.Missing()) && !reported[lower(d.On)] {
					reported[lower(d.On)] = true
					res.Findings = append(res.Findings, Finding{Kind: EditMissing, Severity: Warning, Package: n,
						Packages: []string{n, d.On}, Chain: []string{d.Evidence},
						Message: fmt.Sprintf("%s uses %s, which is neither listed before it in EditPackages nor present as a compiled package", n, d.On)})
				}
			}
			if listed && j != i {
				g.SetEdge(simple.Edge{F: simple.Node(int64(j)), T: simple.Node(int64(i))})
			}
		}
	}
	slices.SortFunc(res.Constraints, func(a, b OrderDep) int {
		if c := cmpName(a.Package, b.Package); c != 0 {
			return c
		}
		if c := cmpName(a.On, b.On); c != 0 {
			return c
		}
		return strings.Compare(a.Evidence, b.Evidence)
	})

	byPosition := func(ns []gonum.Node) { slices.SortFunc(ns, func(a, b gonum.Node) int { return int(a.ID() - b.ID()) }) }
	sorted, err := topo.SortStabilized(g, byPosition)
	var uo topo.Unorderable
	if errors.As(err, &uo) {
		for _, comp := range uo {
			var members []string
			for _, n := range comp {
				members = append(members, edit[n.ID()])
			}
			slices.SortFunc(members, cmpName)
			res.Findings = append(res.Findings, Finding{Kind: Cycle, Severity: Error, Package: members[0], Packages: members,
				Chain:   cycleEvidence(members, res.Constraints),
				Message: fmt.Sprintf("EditPackages %s depend on each other in a cycle: no build order works", strings.Join(members, ", "))})
		}
	} else {
		res.Suggested = make([]string, len(sorted))
		for i, n := range sorted {
			res.Suggested[i] = edit[n.ID()]
		}
	}
	SortFindings(res.Findings)
	res.Valid = true
	for _, f := range res.Findings {
		if f.Severity == Error {
			res.Valid = false
		}
	}
	return res
}

// cycleEvidence lists the constraints between members of a cycle.
func cycleEvidence(members []string, cons []OrderDep) []string {
	in := map[string]bool{}
	for _, m := range members {
		in[lower(m)] = true
	}
	var out []string
	seen := map[string]bool{}
	for _, c := range cons {
		k := lower(c.Package) + "\x00" + lower(c.On)
		if in[lower(c.Package)] && in[lower(c.On)] && !seen[k] {
			seen[k] = true
			out = append(out, c.Evidence)
		}
	}
	return out
}
