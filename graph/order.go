package graph

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	gonum "gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/topo"
)

// OrderDep is one ordering constraint: Package needs On built first.
type OrderDep struct {
	Package  string `json:"package"`
	On       string `json:"on"`
	Evidence string `json:"evidence"` // "file.uc:12: class X extends Y;" or "compiled import: X.u imports Y.Z (Core.Class)"
	Source   string `json:"source"`   // "source" or "compiled"

	// lines are every source line behind the constraint (Evidence is the
	// first); code is set when one of them needs a code package (a class,
	// not only a texture or sound).
	lines []string
	code  bool
}

// SourceDeps returns the source-level dependencies of an EditPackages entry
// and true when it has sources; nil, false makes the check use the compiled
// package's imports instead.
type SourceDeps func(pkg string) ([]OrderDep, bool)

// OrderResult is the outcome of checking EditPackages.
type OrderResult struct {
	EditPackages []string   `json:"edit_packages"`
	Valid        bool       `json:"valid"` // no error among the entries that could be checked
	Findings     []Finding  `json:"findings"`
	Suggested    []string   `json:"suggested"` // nil when a cycle makes any order impossible
	Constraints  []OrderDep `json:"constraints"`
	// Checked counts the distinct entries whose dependencies are known
	// (from sources or a readable compiled package); Unchecked are the
	// others, with the reason, in list order.
	Checked   int         `json:"checked"`
	Unchecked []Unchecked `json:"unchecked"`
	// Rebuilt are the entries ucc make would rebuild, in list order: those
	// with sources whose .u is missing or unreadable, or every entry with
	// OrderOptions.Clean.
	Rebuilt []string `json:"rebuilt"`
	// Verdict is the sentence that says whether the order is valid, and
	// from how many entries: what `order` prints and the report shows.
	Verdict string `json:"verdict"`
	// UncheckedNames is the note on the names the sources use that the
	// check could not look up (nil when there are none).
	UncheckedNames *UncheckedNames `json:"unchecked_names,omitempty"`

	// resourceOnly holds the lower-cased names of the missing packages
	// only resource references name (textures, sounds): Check leaves their
	// edit_missing to the missing_package finding.
	resourceOnly map[string]bool
}

// missingUses gathers, per missing package, the EditPackages entries that
// use it and every line that says so: one edit_missing finding each.
type missingUses map[string]*missingUse

type missingUse struct {
	name  string
	users []string
	lines []string
	code  bool
}

func (m missingUses) add(user string, d OrderDep) {
	u := m[lower(d.On)]
	if u == nil {
		u = &missingUse{name: d.On}
		m[lower(d.On)] = u
	}
	if !slices.ContainsFunc(u.users, func(s string) bool { return strings.EqualFold(s, user) }) {
		u.users = append(u.users, user)
	}
	u.lines = append(u.lines, d.lines...)
	u.code = u.code || d.code
}

func (m missingUses) findings() []Finding {
	var out []Finding
	for _, u := range m {
		lines := slices.Clone(u.lines)
		slices.Sort(lines)
		lines = slices.Compact(lines)
		users, verb, them := strings.Join(u.users, ", "), "uses", "it"
		if len(u.users) > 1 {
			verb, them = "use", "them"
		}
		where := "1 line"
		if len(lines) > 1 {
			where = fmt.Sprintf("%d lines", len(lines))
		}
		msg := fmt.Sprintf("%s %s %s (%s), which is neither listed before %s in EditPackages nor present as a compiled package",
			users, verb, u.name, where, them)
		if !u.code {
			msg = fmt.Sprintf("%s %s %s (%s), and no package file of that name is present", users, verb, u.name, where)
		}
		out = append(out, Finding{Kind: EditMissing, Severity: Warning, Package: u.name,
			Packages: append([]string{u.name}, u.users...), Chain: lines, Message: msg})
	}
	return out
}

func (m missingUses) resourceOnly() map[string]bool {
	out := map[string]bool{}
	for k, u := range m {
		if !u.code {
			out[k] = true
		}
	}
	return out
}

// Unchecked is an EditPackages entry whose dependencies nothing tells.
type Unchecked struct {
	Package string `json:"package"`
	Reason  string `json:"reason"`
}

// OrderOptions configure CheckEditPackages.
type OrderOptions struct {
	// Sources are the entries' UnrealScript sources (nil: none): an entry
	// with sources is checked from them, the others from their compiled
	// imports.
	Sources *Sources
	// Natives says which classes are native-only (nil: BuiltinNatives):
	// compiled imports of those make no order constraint.
	Natives Natives
	// Clean treats every entry as rebuilt, as a build from sources alone
	// would: an order violation or cycle is then always an error.
	Clean bool
}

// compiledDeps returns the constraints from a compiled package's imports:
// an import of native-only classes only is none (see nativeOnly).
func (gr *Graph) compiledDeps(name string, nat Natives) []OrderDep {
	p := gr.Package(name)
	if p == nil || p.Missing() {
		return nil
	}
	var out []OrderDep
	for _, q := range gr.Imports(p) {
		e := gr.Edge(p, q)
		if !orderEdge(nat, e) {
			continue
		}
		ev := fmt.Sprintf("compiled import: %s imports package %s", p.Rel, q.Name)
		if o, ok := orderObject(nat, e); ok {
			ev = fmt.Sprintf("compiled import: %s imports %s", p.Rel, o.describe(q.Name))
		}
		code := false
		if e != nil {
			for i := range e.ObjectCount() {
				o := e.Object(i)
				code = code || o.Class == "Class" && strings.EqualFold(o.ClassPackage, "Core")
			}
		}
		out = append(out, OrderDep{Package: p.Name, On: q.Name, Evidence: ev, Source: "compiled", lines: []string{ev}, code: code})
	}
	return out
}

// CheckEditPackages validates the build order of EditPackages: each package
// may only use packages listed before it (or present compiled packages that
// are not listed). It uses the sources of entries that have them and the
// compiled imports otherwise, and suggests the closest valid order.
//
// Severity follows what ucc make does: it rebuilds only the entries whose
// .u is missing, so an order violation or cycle among entries that all
// have their .u is a warning (a clean rebuild fails there), and an error
// when an entry involved will be rebuilt. An entry with neither sources
// nor a readable compiled package cannot be checked: an edit_unchecked
// warning says why. A class the sources name that nothing defines is an
// unknown_class finding, of the same severity rule (see ScanSources).
func (gr *Graph) CheckEditPackages(edit []string, opt OrderOptions) OrderResult {
	res := OrderResult{EditPackages: append([]string{}, edit...), Findings: []Finding{}, Constraints: []OrderDep{},
		Unchecked: []Unchecked{}, Rebuilt: []string{}}
	nat := opt.Natives
	if nat == nil {
		nat = BuiltinNatives()
	}
	c := &orderCheck{gr: gr, opt: opt, nat: nat, edit: edit, res: &res, pos: map[string]int{}, missing: missingUses{},
		deps: map[string][]OrderDep{}, rebuilt: map[string]bool{}, built: map[string]bool{}}
	c.listed()
	c.entryDeps()
	g := c.constraints()
	res.Findings = append(res.Findings, c.missing.findings()...)
	res.resourceOnly = c.missing.resourceOnly()
	res.Findings = append(res.Findings, opt.Sources.unknownFindings(c.rebuilt)...)
	slices.SortFunc(res.Constraints, func(a, b OrderDep) int {
		if c := cmpName(a.Package, b.Package); c != 0 {
			return c
		}
		if c := cmpName(a.On, b.On); c != 0 {
			return c
		}
		return strings.Compare(a.Evidence, b.Evidence)
	})
	c.suggest(g)
	SortFindings(res.Findings)
	res.Valid = true
	for _, f := range res.Findings {
		if f.Severity == Error {
			res.Valid = false
		}
	}
	res.UncheckedNames = opt.Sources.Unchecked()
	res.Verdict = res.verdict()
	return res
}

// orderCheck is one CheckEditPackages under way.
type orderCheck struct {
	gr      *Graph
	opt     OrderOptions
	nat     Natives
	edit    []string
	res     *OrderResult
	pos     map[string]int // lower-case entry -> its first position in edit
	unique  []string       // edit without the repeated entries
	missing missingUses
	deps    map[string][]OrderDep // lower-case entry -> what it uses
	rebuilt map[string]bool       // lower-case entry -> ucc make rebuilds it
	built   map[string]bool       // lower-case entry -> a readable .u exists
}

// listed numbers the entries and reports those listed twice.
func (c *orderCheck) listed() {
	for i, n := range c.edit {
		k := lower(n)
		if j, ok := c.pos[k]; ok {
			c.res.Findings = append(c.res.Findings, Finding{Kind: EditOrder, Severity: Error, Package: n,
				Packages: []string{n},
				Message:  fmt.Sprintf("%s is listed twice in EditPackages (positions %d and %d)", n, j+1, i+1)})
			continue
		}
		c.pos[k] = i
		c.unique = append(c.unique, n)
	}
}

// entryDeps works out what each entry's dependencies come from, and
// whether ucc make rebuilds it.
func (c *orderCheck) entryDeps() {
	gr, res := c.gr, c.res
	src := c.opt.Sources.Deps()
	for _, n := range c.unique {
		d, hasSrc := []OrderDep(nil), false
		if src != nil {
			d, hasSrc = src(n)
		}
		p := gr.Package(n)
		compiled := p != nil && p.scan != nil
		switch {
		case hasSrc:
		case compiled:
			d = gr.compiledDeps(n, c.nat)
		default:
			reason := gr.uncheckedReason(n, c.opt.Sources)
			res.Unchecked = append(res.Unchecked, Unchecked{Package: n, Reason: reason})
			res.Findings = append(res.Findings, Finding{Kind: EditUnchecked, Severity: Warning, Package: n, Packages: []string{n},
				Message: fmt.Sprintf("%s (position %d) cannot be checked: %s", n, c.pos[lower(n)]+1, reason)})
		}
		if hasSrc || compiled {
			res.Checked++
		}
		c.built[lower(n)] = compiled
		if c.opt.Clean || hasSrc && !compiled {
			c.rebuilt[lower(n)] = true
			res.Rebuilt = append(res.Rebuilt, n)
		}
		c.deps[lower(n)] = d
	}
}

// constraints returns the constraint graph over listed packages (an edge
// dep -> pkg by position), reporting the uses of entries listed after and
// collecting the uses of missing packages.
func (c *orderCheck) constraints() *adjGraph {
	res, edit, pos := c.res, c.edit, c.pos
	g := newAdjGraph()
	for i := range c.unique {
		g.addNode(int64(pos[lower(c.unique[i])]))
	}
	for _, n := range c.unique {
		i := pos[lower(n)]
		reported := map[string]bool{}
		for _, d := range c.deps[lower(n)] {
			if d.lines == nil {
				d.lines = []string{d.Evidence}
			}
			if strings.EqualFold(d.On, n) {
				continue
			}
			res.Constraints = append(res.Constraints, d)
			j, listed := pos[lower(d.On)]
			switch {
			case listed && j > i:
				if !reported[lower(d.On)] {
					reported[lower(d.On)] = true
					f := Finding{Kind: EditOrder, Severity: Error, Package: n,
						Packages: []string{n, edit[j]}, Chain: []string{d.Evidence},
						Message: fmt.Sprintf("%s (position %d) uses %s, which is listed after it (position %d): ucc make builds %s first and fails", n, i+1, edit[j], j+1, n)}
					if !c.rebuilt[lower(n)] && !c.rebuilt[lower(d.On)] {
						f.Severity = Warning
						f.Message = fmt.Sprintf("a clean rebuild fails here: %s (position %d) uses %s, which is listed after it (position %d); ucc make rebuilds neither %s",
							n, i+1, edit[j], j+1, neitherRebuilt(n, edit[j], c.built))
					}
					res.Findings = append(res.Findings, f)
				}
			case !listed:
				if dep := c.gr.Package(d.On); dep == nil || dep.Missing() {
					c.missing.add(n, d)
				}
			}
			if listed && j != i {
				g.setEdge(int64(j), int64(i))
			}
		}
	}
	return g
}

// suggest sorts g by position: the suggested order, or the cycles that
// leave none.
func (c *orderCheck) suggest(g *adjGraph) {
	res, edit := c.res, c.edit
	byPosition := func(ns []gonum.Node) { slices.SortFunc(ns, func(a, b gonum.Node) int { return int(a.ID() - b.ID()) }) }
	sorted, err := topo.SortStabilized(g, byPosition)
	var uo topo.Unorderable
	if !errors.As(err, &uo) {
		res.Suggested = make([]string, len(sorted))
		for i, n := range sorted {
			res.Suggested[i] = edit[n.ID()]
		}
		return
	}
	for _, comp := range uo {
		var members []string
		sev := Warning
		for _, n := range comp {
			members = append(members, edit[n.ID()])
			if c.rebuilt[lower(edit[n.ID()])] {
				sev = Error
			}
		}
		slices.SortFunc(members, cmpName)
		f := Finding{Kind: Cycle, Severity: sev, Package: members[0], Packages: members,
			Chain:   cycleEvidence(members, res.Constraints),
			Message: fmt.Sprintf("EditPackages %s depend on each other in a cycle: no build order works", strings.Join(members, ", "))}
		if sev == Warning {
			f.Message = fmt.Sprintf("a clean rebuild fails here: EditPackages %s depend on each other in a cycle, so no build order works; ucc make rebuilds none of them while their .u files exist",
				strings.Join(members, ", "))
		}
		res.Findings = append(res.Findings, f)
	}
}

// verdict says what the check found, from what it checked only: the
// sentence `order` prints and the report's EditPackages page shows.
func (r *OrderResult) verdict() string {
	total := r.Checked + len(r.Unchecked)
	switch {
	case !r.Valid && len(r.Unchecked) > 0:
		return fmt.Sprintf("The order is NOT valid (from the %d of %d entries checked).", r.Checked, total)
	case !r.Valid:
		return "The order is NOT valid."
	case len(r.EditPackages) == 0:
		return "The ini lists no EditPackages: nothing to check."
	case r.Checked == 0:
		return "Nothing could be checked."
	case len(r.Unchecked) > 0:
		return fmt.Sprintf("The order of the %d checked entries is valid.", r.Checked)
	case r.UncheckedNames != nil:
		return fmt.Sprintf("The order is valid; %d name(s) the sources use were not checked (see the note).", r.UncheckedNames.Names)
	}
	return "The order is valid."
}

// neitherRebuilt says why ucc make rebuilds neither of two EditPackages
// entries (built: which have a readable .u): both .u files exist, or an
// entry without one has no sources either, so it cannot be built at all.
func neitherRebuilt(a, b string, built map[string]bool) string {
	var absent []string
	for _, n := range []string{a, b} {
		if !built[lower(n)] {
			absent = append(absent, n)
		}
	}
	switch len(absent) {
	case 0:
		return "while both .u files exist"
	case 1:
		return fmt.Sprintf("now: %s has no readable .u and no sources, so nothing builds it (%s.u is there)", absent[0], other(absent[0], a, b))
	}
	return "now: neither has a readable .u nor sources, so nothing builds them"
}

func other(n, a, b string) string {
	if strings.EqualFold(n, a) {
		return b
	}
	return a
}

// uncheckedReason says why an entry with no sources and no readable
// compiled package cannot be checked.
func (gr *Graph) uncheckedReason(n string, s *Sources) string {
	if p := gr.Package(n); p != nil && p.Err != nil {
		return fmt.Sprintf("its package file %s cannot be read, and it has no sources (%s/Classes/*.uc)", p.Rel, n)
	}
	if sp := s.pkg(n); sp != nil && sp.ClassesDir != "" {
		return fmt.Sprintf("no compiled package, and its Classes folder %s holds no .uc file: ucc make cannot build it", s.rel(sp.ClassesDir))
	}
	return fmt.Sprintf("neither a compiled package nor sources (%s/Classes/*.uc): ucc make cannot build it", n)
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
