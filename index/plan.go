package index

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// Need is a package an install lacks.
type Need struct {
	Name     string
	NeededBy []string // what needs it (importers, ini lines), for display
}

// PlanOptions adjust Plan.
type PlanOptions struct {
	// Installed reports whether the install (as it is, before the plan)
	// resolves a package name.
	Installed func(name string) bool
	// Pins choose a copy by name (lower case): a GUID, or a SHA-256 or a
	// prefix of one. A name whose pin no copy matches is not brought.
	Pins map[string]string
	// Prefer names a GUID by name (lower case) to take when a copy has it
	// (a download cache's version), else the copies are chosen as without.
	Prefer map[string]string
	// Newest takes, of copies with different GUIDs, the newest instead of
	// refusing to choose.
	Newest bool
}

// Step is one copy of a plan.
type Step struct {
	Name     string   `json:"name"`
	Copy     Package  `json:"copy"`
	NeededBy []string `json:"needed_by"`
	// Direct is true for a package the install lacks now, false for one
	// that a copied package needs (the closure).
	Direct bool `json:"direct"`
}

// Unresolved is a needed package the plan cannot bring.
type Unresolved struct {
	Name     string   `json:"name"`
	NeededBy []string `json:"needed_by"`
	Direct   bool     `json:"direct"`
	Reason   string   `json:"reason"`
	// Err is the reason as an error: an *AmbiguousError when the copies'
	// GUIDs differ and no pin chooses (a caller may word the way to pin
	// one in its own terms); nil otherwise.
	Err        error     `json:"-"`
	Candidates []Package `json:"candidates"`
}

// AmbiguousError says that the copies of a package have different GUIDs
// and nothing chose one: no pin (PlanOptions.Pins, Prefer) and not
// PlanOptions.Newest.
type AmbiguousError struct {
	Name   string   // the package's name, as the first copy spells it
	Copies int      // the number of copies
	GUIDs  []string // their GUIDs, each once, newest copy's first
}

func (e *AmbiguousError) Error() string {
	return fmt.Sprintf("ambiguous: %d copies with %d different GUIDs (%s)", e.Copies, len(e.GUIDs), strings.Join(e.GUIDs, ", "))
}

// ambiguousHint ends an Unresolved's reason for an *AmbiguousError.
const ambiguousHint = "; pin one of them by its GUID"

// Plan is what fix copies: every step, and what cannot be had.
type Plan struct {
	Steps      []Step       `json:"copies"`
	Unresolved []Unresolved `json:"unresolved"`
}

// Plan chooses a copy for every need, and closes over the imports of the
// chosen copies: a package it brings that imports a package the install
// lacks makes that package a need too, until nothing new is needed (a cycle
// among the brought packages ends there: each name is planned once). Of the
// copies of a name it takes the one pinned (or preferred, when a copy has
// the preferred GUID); else, when all copies share one
// GUID, the largest (a server's stripped stub of a sound or music package
// has the GUID of the full one) and newest; else it refuses, naming the
// GUIDs, unless opt.Newest.
func (d *DB) Plan(ctx context.Context, needs []Need, opt PlanOptions) (*Plan, error) {
	r, err := d.plan(ctx, needs, opt)
	return r, d.named(err)
}

// plan is Plan without the database named in its errors.
func (d *DB) plan(ctx context.Context, needs []Need, opt PlanOptions) (*Plan, error) {
	plan := &Plan{Steps: []Step{}, Unresolved: []Unresolved{}}
	type item struct {
		need   Need
		direct bool
	}
	queue := []item{}
	seen := map[string]int{} // lower name -> index in queue
	push := func(n Need, direct bool) {
		k := lower(n.Name)
		if i, ok := seen[k]; ok {
			queue[i].need.NeededBy = appendNew(queue[i].need.NeededBy, n.NeededBy...)
			return
		}
		seen[k] = len(queue)
		queue = append(queue, item{Need{n.Name, append([]string(nil), n.NeededBy...)}, direct})
	}
	for _, n := range needs {
		push(n, true)
	}
	picked := map[int]Package{}
	for i := 0; i < len(queue); i++ {
		it := queue[i]
		cands, err := d.Candidates(ctx, it.need.Name, "")
		if err != nil {
			return nil, err
		}
		cands = slices.DeleteFunc(cands, func(p Package) bool { return !p.HasBytes })
		pin := opt.Pins[lower(it.need.Name)]
		if g := opt.Prefer[lower(it.need.Name)]; pin == "" && g != "" && slices.ContainsFunc(cands, func(p Package) bool { return strings.EqualFold(p.GUID, g) }) {
			pin = g
		}
		p, reason, err := choose(cands, pin, opt.Newest)
		if err != nil {
			reason = err.Error() + ambiguousHint
		}
		if reason != "" {
			plan.Unresolved = append(plan.Unresolved, Unresolved{Name: it.need.Name, Direct: it.direct, Reason: reason, Err: err, Candidates: cands})
			picked[i] = Package{ID: -1}
			continue
		}
		picked[i] = *p
		imports, err := d.Imports(ctx, p)
		if err != nil {
			return nil, err
		}
		for _, im := range imports {
			if strings.EqualFold(im, p.Name) || (opt.Installed != nil && opt.Installed(im)) {
				continue
			}
			push(Need{Name: im, NeededBy: []string{p.Name}}, false)
		}
	}
	// NeededBy grows while the queue is worked: fill it in at the end.
	for i, it := range queue {
		nb := append([]string{}, it.need.NeededBy...)
		slices.SortFunc(nb, func(a, b string) int { return strings.Compare(lower(a), lower(b)) })
		if p := picked[i]; p.ID >= 0 {
			plan.Steps = append(plan.Steps, Step{Name: it.need.Name, Copy: p, NeededBy: nb, Direct: it.direct})
		}
	}
	for i := range plan.Unresolved {
		u := &plan.Unresolved[i]
		nb := append([]string{}, queue[seen[lower(u.Name)]].need.NeededBy...)
		slices.SortFunc(nb, func(a, b string) int { return strings.Compare(lower(a), lower(b)) })
		u.NeededBy = nb
	}
	return plan, nil
}

func appendNew(list []string, items ...string) []string {
	for _, it := range items {
		if !slices.ContainsFunc(list, func(s string) bool { return strings.EqualFold(s, it) }) {
			list = append(list, it)
		}
	}
	return list
}

// choose picks a copy, or says why none (an *AmbiguousError when the
// copies' GUIDs differ).
func choose(cands []Package, pin string, newest bool) (*Package, string, error) {
	if len(cands) == 0 {
		return nil, "not in the index", nil
	}
	if pin != "" {
		for i := range cands {
			if strings.EqualFold(cands[i].GUID, pin) || (len(pin) >= 8 && strings.HasPrefix(cands[i].SHA256, strings.ToLower(pin))) {
				return best(cands, cands[i].GUID), "", nil
			}
		}
		return nil, fmt.Sprintf("no copy matches the pin %s", pin), nil
	}
	var guids []string
	for _, c := range cands {
		if !slices.Contains(guids, c.GUID) {
			guids = append(guids, c.GUID)
		}
	}
	if len(guids) > 1 && !newest {
		return nil, "", &AmbiguousError{Name: cands[0].Name, Copies: len(cands), GUIDs: guids}
	}
	return best(cands, cands[0].GUID), "", nil
}

// best is the largest copy with guid, newest first among equals (cands are
// newest first).
func best(cands []Package, guid string) *Package {
	var b *Package
	for i := range cands {
		c := &cands[i]
		if c.GUID == guid && (b == nil || c.Size > b.Size) {
			b = c
		}
	}
	return b
}
