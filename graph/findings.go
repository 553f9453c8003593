package graph

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"gonum.org/v1/gonum/graph/topo"

	"github.com/upkdeps/upkdeps/format"
)

// Severities.
const (
	Error   = "error"
	Warning = "warning"
)

// Finding kinds.
const (
	MissingPackage = "missing_package"
	MissingObject  = "missing_object"
	ClassMismatch  = "class_mismatch"
	NativeUnknown  = "native_unknown"
	CaseMismatch   = "case_mismatch"
	Collision      = "collision"
	Shadowed       = "shadowed"
	Cycle          = "cycle"
	EditOrder      = "edit_order"
	EditMissing    = "edit_missing"
	Unreadable     = "unreadable"
	ServerSideOnly = "server_side_only"
)

// Finding is one problem, with the packages involved and the import chain
// that makes it matter. Its JSON form is documented in README.md.
type Finding struct {
	Kind     string   `json:"kind"`
	Severity string   `json:"severity"`
	Package  string   `json:"package"`
	Objects  []string `json:"objects,omitempty"`
	NeededBy []string `json:"needed_by,omitempty"`
	Packages []string `json:"packages,omitempty"`
	Chain    []string `json:"chain,omitempty"`
	Message  string   `json:"message"`
}

// SortFindings orders findings: errors first, then by kind, package and
// message.
func SortFindings(fs []Finding) {
	slices.SortFunc(fs, func(a, b Finding) int {
		return cmp.Or(
			cmp.Compare(severityRank(a.Severity), severityRank(b.Severity)),
			strings.Compare(a.Kind, b.Kind),
			cmpName(a.Package, b.Package),
			strings.Compare(a.Message, b.Message),
		)
	})
}

func severityRank(s string) int {
	if s == Error {
		return 0
	}
	return 1
}

// CheckOptions give Check what the ini says about the install.
type CheckOptions struct {
	ServerPackages []string // [Engine.GameEngine] ServerPackages
	EditPackages   []string // [Editor.EditorEngine] EditPackages, in order
	// NativeCode reports whether a package ships native code (a DLL/.so
	// beside it); stock native packages are known without it.
	NativeCode func(p *Package) bool
	// Sources are the EditPackages entries' UnrealScript sources (optional):
	// their dependencies replace the compiled imports for the order checks,
	// and their .upkg flags are checked.
	Sources *Sources
}

// Check returns every finding of the graph, sorted.
func (gr *Graph) Check(opt CheckOptions) []Finding {
	roots := gr.roots(opt)
	parent := gr.reach(roots)
	var out []Finding
	out = append(out, gr.checkUnreadable()...)
	out = append(out, gr.checkMissing(parent)...)
	out = append(out, gr.checkObjects(opt, parent)...)
	out = append(out, gr.checkCase(parent)...)
	out = append(out, gr.checkCycles()...)
	out = append(out, gr.checkServerSideOnly(opt)...)
	for _, f := range gr.CheckEditPackages(opt.EditPackages, opt.Sources.Deps()).Findings {
		// The package graph's own cycles are reported above; a cycle only
		// the sources show is new.
		if f.Kind != Cycle || opt.Sources.HasAny() {
			out = append(out, f)
		}
	}
	out = append(out, gr.upkgFindings(opt.Sources, opt.ServerPackages)...)
	SortFindings(out)
	return out
}

// roots are the packages a player or the build starts from: ServerPackages,
// maps, and EditPackages.
func (gr *Graph) roots(opt CheckOptions) []*Package {
	var roots []*Package
	seen := map[*Package]bool{}
	addName := func(n string) {
		if p := gr.Package(n); p != nil && !seen[p] {
			seen[p] = true
			roots = append(roots, p)
		}
	}
	for _, n := range opt.ServerPackages {
		addName(n)
	}
	for _, p := range gr.pkgs {
		if p.Kind == KindMap && !seen[p] {
			seen[p] = true
			roots = append(roots, p)
		}
	}
	for _, n := range opt.EditPackages {
		addName(n)
	}
	return roots
}

// reach does a breadth-first walk from the roots and returns each reached
// package's parent (roots map to nil), for chains.
func (gr *Graph) reach(roots []*Package) map[*Package]*Package {
	parent := map[*Package]*Package{}
	queue := append([]*Package(nil), roots...)
	for _, r := range roots {
		parent[r] = nil
	}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, q := range gr.Imports(p) {
			if _, ok := parent[q]; !ok {
				parent[q] = p
				queue = append(queue, q)
			}
		}
	}
	return parent
}

// chain returns root → ... → p → extra for display; when no root reaches p,
// it starts at p.
func chain(parent map[*Package]*Package, p *Package, extra ...string) []string {
	var rev []string
	for cur, n := p, 0; cur != nil && n < 10000; n++ {
		rev = append(rev, label(cur))
		next, ok := parent[cur]
		if !ok {
			break
		}
		cur = next
	}
	slices.Reverse(rev)
	return append(rev, extra...)
}

// label names a package with its file for chains.
func label(p *Package) string {
	if p.Missing() {
		return p.Name + " (missing)"
	}
	return p.Name + " (" + p.Rel + ")"
}

// reachedFirst returns, of the importers, one reached from a root (the first
// by name), else the first by name.
func reachedFirst(parent map[*Package]*Package, importers []*Package) *Package {
	for _, p := range importers {
		if _, ok := parent[p]; ok {
			return p
		}
	}
	return importers[0]
}

func names(ps []*Package) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Name
	}
	return out
}

func (gr *Graph) checkUnreadable() []Finding {
	var out []Finding
	for _, p := range gr.pkgs {
		if p.Err == nil {
			continue
		}
		err := p.Err
		var pe *format.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the message names the file already
		}
		f := Finding{Kind: Unreadable, Severity: Error, Package: p.Name,
			Message: fmt.Sprintf("%s cannot be read: %v", p.Rel, err)}
		if by := gr.ImportedBy(p); len(by) > 0 {
			f.NeededBy = names(by)
		}
		out = append(out, f)
	}
	return out
}

func (gr *Graph) checkMissing(parent map[*Package]*Package) []Finding {
	var out []Finding
	for _, p := range gr.pkgs {
		if !p.Missing() {
			continue
		}
		by := gr.ImportedBy(p)
		if len(by) == 0 {
			continue
		}
		spell := p.Name
		if len(p.Spellings) > 1 {
			spell = strings.Join(p.Spellings, "/")
		}
		out = append(out, Finding{
			Kind: MissingPackage, Severity: Error, Package: p.Name, NeededBy: names(by),
			Chain:   chain(parent, reachedFirst(parent, by), p.Name+" (missing)"),
			Message: fmt.Sprintf("package %s is imported by %d package(s) but no file resolves through Paths", spell, len(by)),
		})
	}
	return out
}

// objectProblem collects the objects of one target package with one kind of
// problem.
type objectProblem struct {
	objects map[string]bool
	needed  map[*Package]bool
}

func (gr *Graph) checkObjects(opt CheckOptions, parent map[*Package]*Package) []Finding {
	type key struct {
		kind string
		to   *Package
	}
	problems := map[key]*objectProblem{}
	note := func(kind string, e *Edge, object string) {
		k := key{kind, e.To}
		pr := problems[k]
		if pr == nil {
			pr = &objectProblem{objects: map[string]bool{}, needed: map[*Package]bool{}}
			problems[k] = pr
		}
		pr.objects[object] = true
		pr.needed[e.From] = true
	}
	// Edge order does not matter here: problems are collected in sets and
	// sorted below.
	for _, e := range gr.edges {
		to := e.To
		if to.scan == nil {
			continue // missing or unreadable: reported as such
		}
		for _, o := range e.Objects {
			switch {
			case to.scan.exports.has(o.Path, o.Class):
				continue
			case to.scan.exports.hasPath(o.Path):
				note(ClassMismatch, e, fmt.Sprintf("%s: imported as %s.%s, exported as %s",
					to.Name+"."+o.Path, o.ClassPackage, o.Class, exportClass(to.File, o.Path)))
			case isNativeOnly(to.Name, firstSegment(o.Path)):
				continue
			case strings.EqualFold(o.Class, "Class") && (hasNativeCode(to.Name) || (opt.NativeCode != nil && opt.NativeCode(to))):
				note(NativeUnknown, e, o.describe(to.Name))
			default:
				note(MissingObject, e, o.describe(to.Name))
			}
		}
	}
	var out []Finding
	for k, pr := range problems {
		objs := sortedKeys(pr.objects)
		var needed []*Package
		for p := range pr.needed {
			needed = append(needed, p)
		}
		slices.SortFunc(needed, func(a, b *Package) int { return cmpName(a.Name, b.Name) })
		f := Finding{Kind: k.kind, Package: k.to.Name, Objects: objs, NeededBy: names(needed),
			Chain: chain(parent, reachedFirst(parent, needed), label(k.to))}
		switch k.kind {
		case MissingObject:
			f.Severity = Error
			f.Message = fmt.Sprintf("%s (%s) lacks %d object(s) that %d package(s) import", k.to.Name, k.to.Rel, len(objs), len(needed))
			if k.to.Kind != KindCode && k.to.Kind != KindOther {
				if n := countClasses(objs); n > 0 {
					f.Message += fmt.Sprintf("; %d of them are classes, but %s is a %s package", n, k.to.Rel, k.to.Kind)
				}
			}
		case ClassMismatch:
			f.Severity = Error
			f.Message = fmt.Sprintf("%s (%s) exports %d imported object(s) with another class: built against another version?", k.to.Name, k.to.Rel, len(objs))
		case NativeUnknown:
			f.Severity = Warning
			f.Message = fmt.Sprintf("%s (%s) has no export for %d imported class(es) that are not known native-only classes", k.to.Name, k.to.Rel, len(objs))
		}
		out = append(out, f)
	}
	return out
}

func countClasses(objs []string) int {
	n := 0
	for _, o := range objs {
		if strings.HasSuffix(o, "(Core.Class)") {
			n++
		}
	}
	return n
}

func firstSegment(path string) string {
	if i := strings.IndexByte(path, '.'); i >= 0 {
		return path[:i]
	}
	return path
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.SortFunc(out, cmpName)
	return out
}

func (gr *Graph) checkCase(parent map[*Package]*Package) []Finding {
	var out []Finding
	for _, p := range gr.pkgs {
		for _, sp := range p.CaseSpellings {
			var by []*Package
			for _, q := range gr.ImportedBy(p) {
				if e := gr.Edge(q, p); e != nil && e.Spelling == sp {
					by = append(by, q)
				}
			}
			f := Finding{Kind: CaseMismatch, Severity: Warning, Package: p.Name, NeededBy: names(by),
				Message: fmt.Sprintf("imported as %q but the file is %s: found only case-insensitively; a case-sensitive server may fail to load it", sp, p.Rel)}
			if len(by) > 0 {
				f.Chain = chain(parent, reachedFirst(parent, by), label(p))
			}
			out = append(out, f)
		}
	}
	return out
}

// Cycles returns the strongly connected components with more than one
// package, each sorted, the list sorted by first name.
func (gr *Graph) Cycles() [][]*Package {
	var out [][]*Package
	for _, scc := range topo.TarjanSCC(gr.g) {
		if len(scc) < 2 {
			continue
		}
		c := make([]*Package, len(scc))
		for i, n := range scc {
			c[i] = gr.byID[n.ID()]
		}
		slices.SortFunc(c, func(a, b *Package) int { return cmpName(a.Name, b.Name) })
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b []*Package) int { return cmpName(a[0].Name, b[0].Name) })
	return out
}

// cycleEdges returns, for a component, a cycle through its first package
// and one concrete import per edge as evidence.
func (gr *Graph) cycleEdges(comp []*Package) []string {
	in := map[*Package]bool{}
	for _, p := range comp {
		in[p] = true
	}
	// Shortest path back to the start, inside the component.
	start := comp[0]
	prev := map[*Package]*Package{}
	queue := []*Package{start}
	var last *Package
	for len(queue) > 0 && last == nil {
		p := queue[0]
		queue = queue[1:]
		for _, q := range gr.Imports(p) {
			if !in[q] {
				continue
			}
			if q == start {
				last = p
				break
			}
			if _, ok := prev[q]; !ok {
				prev[q] = p
				queue = append(queue, q)
			}
		}
	}
	var path []*Package
	for cur := last; cur != nil && cur != start; cur = prev[cur] {
		path = append(path, cur)
	}
	path = append(path, start)
	slices.Reverse(path)
	path = append(path, start)
	var out []string
	for i := 0; i+1 < len(path); i++ {
		e := gr.Edge(path[i], path[i+1])
		ev := path[i].Name + " imports " + path[i+1].Name
		if e != nil && len(e.Objects) > 0 {
			o := e.Objects[0]
			ev = path[i].Name + " imports " + o.describe(path[i+1].Name)
		}
		out = append(out, ev)
	}
	return out
}

func (gr *Graph) checkCycles() []Finding {
	var out []Finding
	for _, comp := range gr.Cycles() {
		sev := Error
		for _, p := range comp {
			if p.Kind != KindCode {
				sev = Warning
			}
		}
		out = append(out, Finding{Kind: Cycle, Severity: sev, Package: comp[0].Name, Packages: names(comp),
			Chain:   gr.cycleEdges(comp),
			Message: fmt.Sprintf("%d packages import from each other in a cycle", len(comp))})
	}
	return out
}

// ClientPackages returns what clients need: ServerPackages and maps, plus
// everything they import, transitively (ServerSideOnly packages included,
// so that they can be reported).
func (gr *Graph) ClientPackages(serverPackages []string) []*Package {
	parent := gr.reach(gr.clientRoots(serverPackages))
	var out []*Package
	for p := range parent {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b *Package) int { return cmpName(a.Name, b.Name) })
	return out
}

// clientRoots are where a client's downloads start: the ServerPackages
// entries and every map.
func (gr *Graph) clientRoots(serverPackages []string) []*Package {
	var roots []*Package
	for _, n := range serverPackages {
		if p := gr.Package(n); p != nil {
			roots = append(roots, p)
		}
	}
	for _, p := range gr.pkgs {
		if p.Kind == KindMap {
			roots = append(roots, p)
		}
	}
	return roots
}

func (gr *Graph) checkServerSideOnly(opt CheckOptions) []Finding {
	var out []Finding
	parent := gr.reach(gr.clientRoots(opt.ServerPackages))
	for _, p := range gr.pkgs {
		if p.Flags&format.FlagServerSideOnly == 0 || IsStock(p.Name) {
			continue // retail packages are on every client
		}
		var by []*Package
		for _, q := range gr.ImportedBy(p) {
			if _, ok := parent[q]; ok && q.Flags&format.FlagServerSideOnly == 0 {
				by = append(by, q)
			}
		}
		if len(by) == 0 {
			continue
		}
		out = append(out, Finding{Kind: ServerSideOnly, Severity: Error, Package: p.Name, NeededBy: names(by),
			Chain:   chain(parent, by[0], label(p)),
			Message: fmt.Sprintf("%s is ServerSideOnly (never sent to clients), but %d package(s) that clients load import from it", p.Name, len(by))})
	}
	return out
}
