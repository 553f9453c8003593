package graph

import (
	"errors"
	"strconv"
	"strings"
)

// View is the part of a graph a diagram is about: what From needs (or,
// with Reverse, what needs it) within Depth hops, the shortest import
// chain between the two packages of Path, or the Cycle-th cycle. At most
// one is set; the zero View is the whole graph.
type View struct {
	// From names the start packages; "group:NAME", or a name no package
	// has but a group (Groups) does, opens the group: its packages and
	// missing names are the start.
	From    []string
	Depth   int // import hops from From; 0: no limit
	Reverse bool
	// Path, when not empty, is [from, to]: the chain Why answers.
	Path []string
	// Cycle, when not 0, is the 1-based index of a cycle in Cycles().
	Cycle int
}

// The reasons a View cannot be drawn, matched with errors.Is on a
// ViewError.
var (
	ErrNoPackage        = errors.New("no such package in the install")
	ErrNoGroup          = errors.New("no such group in the install")
	ErrNoPackageOrGroup = errors.New("no such package or group in the install")
	ErrNoChain          = errors.New("no import chain")
	ErrNoCycle          = errors.New("no such cycle")
)

// ViewError is a View that names what the install does not have. Field
// is the View field ("From", "Path", "Cycle"), Value the value at fault
// (a name, a cycle number; "" for the pair of Path), and Err says what is
// wrong, in words free of any command line's syntax.
type ViewError struct {
	Field, Value string
	Err          error
}

func (e *ViewError) Error() string {
	if e.Value == "" {
		return e.Field + ": " + e.Err.Error()
	}
	return e.Field + " " + e.Value + ": " + e.Err.Error()
}

func (e *ViewError) Unwrap() error { return e.Err }

// detailError is a reason with the facts of the case: err's words are
// replaced by msg, and errors.Is still finds err.
type detailError struct {
	msg string
	err error
}

func (e *detailError) Error() string { return e.msg }
func (e *detailError) Unwrap() error { return e.err }

// Select sets in opt what the view draws: Start and Only for From, Hops
// for Path, Only (stock packages one by one) for Cycle. opt.Folders must
// be set first: groups are named after them. A name or number the install
// does not have is a *ViewError.
func (gr *Graph) Select(v View, opt *DOTOptions) error {
	switch {
	case len(v.From) > 0:
		return gr.selectFrom(v, opt)
	case len(v.Path) == 2:
		from := gr.Package(v.Path[0])
		if from == nil {
			return &ViewError{"Path", v.Path[0], ErrNoPackage}
		}
		to := gr.Package(v.Path[1])
		if to == nil {
			return &ViewError{"Path", v.Path[1], ErrNoPackage}
		}
		if opt.Hops = gr.Why(from, to); opt.Hops == nil {
			return &ViewError{"Path", "", &detailError{from.Name + " does not need " + to.Name + " (no import chain)", ErrNoChain}}
		}
	case v.Cycle != 0:
		cycles := gr.Cycles()
		if v.Cycle < 1 || v.Cycle > len(cycles) {
			msg := "the install has " + strconv.Itoa(len(cycles)) + " cycles (numbered from 1, in check's order)"
			return &ViewError{"Cycle", strconv.Itoa(v.Cycle), &detailError{msg, ErrNoCycle}}
		}
		opt.Only, opt.Stock = cycles[v.Cycle-1], true
	}
	return nil
}

// selectFrom sets the start packages of v.From and what they reach.
func (gr *Graph) selectFrom(v View, opt *DOTOptions) error {
	var groups []Group
	for _, n := range v.From {
		// group:NAME, or a name that is no package but a group's,
		// opens the group: its packages are the start.
		name, isGroup := strings.CutPrefix(n, "group:")
		if !isGroup && gr.Package(n) == nil {
			isGroup = true
		}
		if !isGroup {
			opt.Start = append(opt.Start, gr.Package(n))
			continue
		}
		if groups == nil {
			groups = gr.Groups(opt.Folders, nil)
		}
		g := FindGroup(groups, name)
		if g == nil {
			if !strings.HasPrefix(n, "group:") {
				return &ViewError{"From", n, ErrNoPackageOrGroup}
			}
			return &ViewError{"From", n, ErrNoGroup}
		}
		opt.Start = append(opt.Start, g.Members...)
		opt.Start = append(opt.Start, g.Missing...)
	}
	depth := v.Depth
	if depth == 0 {
		depth = -1
	}
	for _, r := range gr.Reach(opt.Start, depth, v.Reverse) {
		opt.Only = append(opt.Only, r.Package)
	}
	return nil
}

// OrderEdges are the EditPackages order errors among findings (EditOrder
// findings of CheckEditPackages) as [user, used] pairs of this graph's
// packages, for DOTOptions.OrderErrors.
func (gr *Graph) OrderEdges(findings []Finding) [][2]*Package {
	var out [][2]*Package
	for _, f := range findings {
		if f.Kind != EditOrder || len(f.Packages) != 2 {
			continue
		}
		if p, q := gr.Package(f.Packages[0]), gr.Package(f.Packages[1]); p != nil && q != nil {
			out = append(out, [2]*Package{p, q})
		}
	}
	return out
}
