package graph

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/internal/par"
	"gonum.org/v1/gonum/graph/simple"
)

// Severity of a finding: an error makes check exit 1; a warning is worth
// reading. package redirect uses the same type.
type Severity string

// Severities.
const (
	Error   Severity = "error"
	Warning Severity = "warning"
)

// FindingKind names a class of problem; the values are part of the JSON
// output (docs/check.md). package redirect uses the same type for its own
// kinds.
type FindingKind string

// Finding kinds.
const (
	MissingPackage FindingKind = "missing_package"
	MissingObject  FindingKind = "missing_object"
	ClassMismatch  FindingKind = "class_mismatch"
	NativeUnknown  FindingKind = "native_unknown"
	CaseMismatch   FindingKind = "case_mismatch"
	Collision      FindingKind = "collision"
	Shadowed       FindingKind = "shadowed"
	Cycle          FindingKind = "cycle"
	EditOrder      FindingKind = "edit_order"
	EditMissing    FindingKind = "edit_missing"
	EditUnchecked  FindingKind = "edit_unchecked"
	EmbeddedCopy   FindingKind = "embedded_copy"
	UnknownClass   FindingKind = "unknown_class"
	IniRepeat      FindingKind = "ini_repeat"
	IniSection     FindingKind = "ini_section"
	Unreadable     FindingKind = "unreadable"
	ServerSideOnly FindingKind = "server_side_only"
	// StockMissing is one finding for the game's own packages that are
	// missing (check.StockMissing): the base install is incomplete.
	StockMissing FindingKind = "stock_missing"
)

// Finding is one problem, with the packages involved and the import chain
// that makes it matter. Its JSON form is documented in docs/check.md.
type Finding struct {
	Kind     FindingKind `json:"kind"`
	Severity Severity    `json:"severity"`
	Package  string      `json:"package"`
	Objects  []Object    `json:"objects,omitempty"`
	NeededBy []string    `json:"needed_by,omitempty"`
	Packages []string    `json:"packages,omitempty"`
	Chain    []string    `json:"chain,omitempty"`
	// Roots are the ini lines ("Demo.ini:20 ServerPackages=Foo") that make
	// the engine load the package or objects of the finding.
	Roots   []string `json:"roots,omitempty"`
	Message string   `json:"message"`
}

// SortFindings orders findings: errors first, then by kind, package and
// message.
func SortFindings(fs []Finding) {
	slices.SortFunc(fs, func(a, b Finding) int {
		return cmp.Or(
			cmp.Compare(severityRank(a.Severity), severityRank(b.Severity)),
			strings.Compare(string(a.Kind), string(b.Kind)),
			cmpName(a.Package, b.Package),
			strings.Compare(a.Message, b.Message),
		)
	})
}

func severityRank(s Severity) int {
	if s == Error {
		return 0
	}
	return 1
}

// CheckOptions give Check what the ini says about the install.
type CheckOptions struct {
	ServerPackages []string // [Engine.GameEngine] ServerPackages
	EditPackages   []string // [Editor.EditorEngine] EditPackages, in order
	// Natives says which classes packages register in native code; nil
	// uses the built-in list of the stock packages' native-only classes.
	Natives Natives
	// Sources are the EditPackages entries' UnrealScript sources (optional):
	// their dependencies replace the compiled imports for the order checks,
	// and their .upkg flags are checked.
	Sources *Sources
	// Stock is the game's own retail file list (ini.OwnStockOf): its
	// packages are on every client, so their ServerSideOnly flag is no
	// leak. nil: any known game's list.
	Stock *ini.Stock
	// Jobs is the number of goroutines the object check uses (0 or less:
	// one per core); the findings do not depend on it.
	Jobs int
}

// Check returns every finding of the graph, sorted. It stops with ctx's
// error when ctx is done (the object check, its long part, between runs of
// imports).
func (gr *Graph) Check(ctx context.Context, opt CheckOptions) ([]Finding, error) {
	if opt.Natives == nil {
		opt.Natives = BuiltinNatives()
	}
	roots := gr.roots(opt)
	parent := gr.reach(roots)
	var out []Finding
	out = append(out, gr.checkUnreadable()...)
	out = append(out, gr.checkMissing(opt.Natives, parent)...)
	objs, err := gr.checkObjects(ctx, opt, parent)
	if err != nil {
		return nil, err
	}
	out = append(out, objs...)
	out = append(out, gr.checkCase(parent)...)
	out = append(out, gr.checkCycles(opt.Natives)...)
	out = append(out, gr.checkServerSideOnly(opt)...)
	out = append(out, gr.checkEmbedded()...)
	missing := map[string]bool{}
	for _, f := range out {
		if f.Kind == MissingPackage || f.Kind == Unreadable {
			missing[lower(f.Package)] = true
		}
	}
	order := gr.CheckEditPackages(opt.EditPackages, OrderOptions{Sources: opt.Sources, Natives: opt.Natives})
	for _, f := range order.Findings {
		switch {
		case f.Kind == Cycle && !opt.Sources.HasAny():
			// The package graph's own cycles are reported above; a
			// cycle only the sources show is new.
		case f.Kind == EditUnchecked && missing[lower(f.Package)]:
			// Already an error of its own.
		case f.Kind == EditMissing && missing[lower(f.Package)] && order.resourceOnly[lower(f.Package)]:
			// A texture or sound package is never built: its
			// missing_package says it all.
		default:
			out = append(out, f)
		}
	}
	out = append(out, gr.upkgFindings(opt.Sources, opt.ServerPackages, opt.Stock)...)
	gr.noteUnbuilt(out, opt.Sources)
	SortFindings(out)
	return out, ctx.Err()
}

// isDeviceRoot reports whether an ini line names a class only native code
// provides: a render, audio or network device, the viewport manager or
// UE1's renderer.
func isDeviceRoot(r RootRef) bool {
	k := strings.ToLower(r.Key)
	return strings.HasSuffix(k, "device") || k == "viewportmanager" || k == "render"
}

// article returns "an" or "a" for a name read aloud: an Engine.dll, an
// UnrealI.dll, a UWeb.dll; a leading capital before another is spelt out
// (you-web, ex-OpenGL, ay-L-Audio).
func article(name string) string {
	if name == "" {
		return "a"
	}
	c := name[0] | 0x20
	if len(name) > 1 && name[1] >= 'A' && name[1] <= 'Z' {
		if strings.IndexByte("aefhilmnorsx", c) >= 0 {
			return "an"
		}
		return "a"
	}
	if strings.IndexByte("aeiou", c) >= 0 {
		return "an"
	}
	return "a"
}

// roots are the packages a player or the build starts from: ServerPackages,
// the other ini roots, maps, and EditPackages.
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
	roots = gr.appendStarts(roots, seen)
	for _, n := range opt.EditPackages {
		addName(n)
	}
	return roots
}

// reach does a breadth-first walk from the roots and returns how each
// package was reached, for chains.
func (gr *Graph) reach(roots []*Package) reached {
	r := make(reached, len(gr.byID))
	gr.walk(roots, gr.Imports, -1, func(p, from *Package, _ int) bool {
		r[p.id] = cmp.Or(from, p)
		return true
	})
	return r
}

// reached is what reach found, by package id: the package each package
// was reached from, itself for a root, nil when it was not reached.
type reached []*Package

// has reports whether p was reached.
func (r reached) has(p *Package) bool { return r[p.id] != nil }

// from returns the package p was reached from (nil for a root), and
// whether p was reached.
func (r reached) from(p *Package) (*Package, bool) {
	switch f := r[p.id]; f {
	case p:
		return nil, true
	default:
		return f, f != nil
	}
}

// chain returns root → ... → p → extra for display, starting at the ini
// line that names the root when there is one; when no root reaches p, it
// starts at p.
func (gr *Graph) chain(parent reached, p *Package, extra ...string) []string {
	var rev []string
	top := p
	for cur, n := p, 0; cur != nil && n < 10000; n++ {
		rev = append(rev, label(cur))
		top = cur
		next, ok := parent.from(cur)
		if !ok {
			break
		}
		cur = next
	}
	if refs := gr.rootsOf(top); len(refs) > 0 {
		rev = append(rev, refs[0].Evidence())
	}
	slices.Reverse(rev)
	return append(rev, extra...)
}

// evidence returns the ini lines of refs.
func evidence(refs []RootRef) []string {
	var out []string
	for _, r := range refs {
		out = append(out, r.Evidence())
	}
	return out
}

// clientOnly reports whether every ref is loaded only by the game client.
func clientOnly(refs []RootRef) bool {
	for _, r := range refs {
		if !r.clientOnly() {
			return false
		}
	}
	return len(refs) > 0
}

// clientNote is added to the message of a finding that only client-side
// ini lines cause.
const clientNote = "; only the game client loads it (a dedicated server does not)"

// label names a package with its file for chains.
func label(p *Package) string {
	if p.Missing() {
		return p.Name + " (missing)"
	}
	return p.Name + " (" + p.Rel + ")"
}

// reachedFirst returns, of the importers, one reached from a root (the first
// by name), else the first by name.
func reachedFirst(parent reached, importers []*Package) *Package {
	for _, p := range importers {
		if parent.has(p) {
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
		f.Roots = evidence(gr.rootsOf(p))
		out = append(out, f)
	}
	return out
}

func (gr *Graph) checkMissing(nat Natives, parent reached) []Finding {
	var out []Finding
	for _, p := range gr.pkgs {
		if !p.Missing() {
			continue
		}
		by := gr.ImportedBy(p)
		// A package with native code and no package file (a render or
		// audio driver: OpenGLDrv.dll) still has the classes its binary
		// registers, when the install has that binary.
		var refs, unregistered []RootRef
		for _, r := range gr.rootsOf(p) {
			switch {
			case r.Object == "" || !nat.FromBinary(p.Name):
				refs = append(refs, r) // a table cannot say the binary is there
			case nat.Has(p.Name, firstSegment(r.Object)):
			default:
				unregistered = append(unregistered, r)
			}
		}
		if len(unregistered) > 0 {
			f := Finding{Kind: MissingObject, Severity: Error, Package: p.Name, Roots: evidence(unregistered),
				Chain: []string{unregistered[0].Evidence(), p.Name + " (native code only)"},
				Message: fmt.Sprintf("%s has no package file, and its native code registers none of the %d class(es) the ini names",
					p.Name, len(unregistered))}
			set := map[Object]bool{}
			for _, r := range unregistered {
				set[iniClass(p.Name, r.Object)] = true
			}
			if clientOnly(unregistered) {
				f.Severity, f.Message = Warning, f.Message+clientNote
			}
			f.Objects = sortObjects(set)
			out = append(out, f)
		}
		if len(by) == 0 && len(refs) == 0 {
			continue
		}
		spell := p.Name
		if len(p.Spellings) > 1 {
			spell = strings.Join(p.Spellings, "/")
		}
		f := Finding{Kind: MissingPackage, Severity: Error, Package: p.Name, Roots: evidence(refs)}
		switch {
		case len(refs) == 0:
			f.Message = fmt.Sprintf("package %s is imported by %d package(s) but no file resolves through Paths", spell, len(by))
		case len(by) == 0:
			f.Message = fmt.Sprintf("package %s is named by %d ini line(s) but no file resolves through Paths", spell, len(refs))
		default:
			f.Message = fmt.Sprintf("package %s is imported by %d package(s) and named by %d ini line(s) but no file resolves through Paths",
				spell, len(by), len(refs))
		}
		objs := map[Object]bool{}
		for _, r := range refs {
			if r.Object != "" {
				objs[iniClass(p.Name, r.Object)] = true
			}
		}
		if len(objs) > 0 {
			f.Objects = sortObjects(objs)
			// Only a package with native code could have its classes
			// from a binary: one the game's tables know, or a device
			// (render, audio, network driver); most (Botpack) are
			// script only.
			switch {
			case nat.HasPackage(p.Name):
				f.Message += fmt.Sprintf(", nor does %s %s.dll or %s.so register the class(es) (the game's %s module has them, but it is not in the install)",
					article(p.Name), p.Name, p.Name, p.Name)
			case slices.ContainsFunc(refs, isDeviceRoot):
				f.Message += fmt.Sprintf(", nor does %s %s.dll or %s.so register the class(es)", article(p.Name), p.Name, p.Name)
			}
		}
		if len(by) > 0 {
			f.NeededBy = names(by)
			f.Chain = gr.chain(parent, reachedFirst(parent, by), p.Name+" (missing)")
		} else {
			f.Chain = []string{refs[0].Evidence(), p.Name + " (missing)"}
			if clientOnly(refs) {
				f.Severity, f.Message = Warning, f.Message+clientNote
			}
		}
		out = append(out, f)
	}
	return out
}

// objectProblem collects the objects of one target package with one kind of
// problem, and what needs them.
type objectProblem struct {
	objects map[Object]bool
	needed  map[*Package]bool
	roots   []RootRef
}

// objectCheck is the object-level check of one Check: the natives in use
// and the problems found, by kind and target package.
type objectCheck struct {
	gr       *Graph
	nat      Natives
	problems map[objectKey]*objectProblem
}

// objectKey groups problems: by kind and target package, and for a class
// mismatch by importer too (the importer is what was built against another
// version), with the compatibility note when the engine accepts it.
type objectKey struct {
	kind   FindingKind
	to     *Package
	from   *Package
	compat string
}

func (c *objectCheck) problem(k objectKey, object Object) *objectProblem {
	pr := c.problems[k]
	if pr == nil {
		pr = &objectProblem{objects: map[Object]bool{}, needed: map[*Package]bool{}}
		c.problems[k] = pr
	}
	pr.objects[object] = true
	return pr
}

// classify returns the problem kind of an object that to does not export
// with the wanted class ("" when there is none): path is the group path
// below to, class the wanted class (for the message).
//
// The whole path resolves: below a class that the package file exports,
// every member must be an export too (XInterface.GUITitleBar.Caption is
// missing when GUITitleBar is exported without it, though the module
// registers GUITitleBar); below a native-only class (no export), a member
// cannot be known (native_unknown).
//
// key is hashKey(path, class).
func (c *objectCheck) classify(to *Package, path, class string, key uint64) FindingKind {
	if to.scan.exports.hasKey(key) {
		return ""
	}
	if to.scan.exports.hasPath(to.File, path) {
		return ClassMismatch
	}
	first := firstSegment(path)
	switch {
	case first != path && to.scan.exports.has(first, "Class"):
		return MissingObject
	case first != path && c.nat.Has(to.Name, first):
		return NativeUnknown
	case c.nat.Has(to.Name, first):
		return ""
	case c.nat.FromBinary(to.Name):
		return MissingObject // the binary's list is exact
	case strings.EqualFold(class, "Class") && (c.nat.HasPackage(to.Name) || to.scan.hasNative):
		// A table of another build, or a module nothing lists (a
		// licensee package whose file has native classes): the class
		// may be one it registers.
		return NativeUnknown
	}
	return MissingObject
}

func (c *objectCheck) importObjects(ctx context.Context, jobs int) error {
	// Edge order does not matter here: problems are collected in sets and
	// sorted below. The edges go by target package, so that one target's
	// exports stay in the cache while its importers are checked, in runs
	// of about equal object counts that jobs goroutines take in turn, each
	// into its own list, merged after.
	//
	// Each edge is an asked: what the loop reads of it, gathered here in
	// importer order, where consecutive edges share their importer's
	// scan, so that the loop in target order does not chase the edge,
	// its importer and its scan to each one's own cache line.
	type asked struct {
		to   *Package
		tab  *keyedTable
		objs []objIndex
		e    *Edge
	}
	tabs := map[*objTable]*keyedTable{}
	var last *keyedTable
	distinct := map[uint64]uint32{} // the number of each object key of every table
	keyed := func(tab *objTable) *keyedTable {
		if last != nil && last.tab == tab {
			return last
		}
		if last = tabs[tab]; last == nil {
			last = &keyedTable{tab, make([]uint32, len(tab.keys))}
			for id, k := range tab.keys {
				n, ok := distinct[k]
				if !ok {
					n = uint32(len(distinct))
					distinct[k] = n
				}
				last.key[id] = n
			}
			tabs[tab] = last
		}
		return last
	}
	checked := func(e *Edge) bool { return e.To.scan != nil && e.start != e.end } // missing or unreadable: reported as such
	// Counting sort by target: next[id] is where target id's edges go.
	next := make([]int, len(c.gr.byID)+1)
	total := 0
	for _, es := range c.gr.edgesOf {
		for _, e := range es {
			if checked(e) {
				next[e.To.id+1]++
				total += e.ObjectCount()
			}
		}
	}
	for id := 1; id < len(next); id++ {
		next[id] += next[id-1]
	}
	all := make([]asked, next[len(next)-1])
	for _, es := range c.gr.edgesOf {
		for _, e := range es {
			if checked(e) {
				all[next[e.To.id]] = asked{e.To, keyed(e.From.scan.tab), e.objs(), e}
				next[e.To.id]++
			}
		}
	}
	var runs [][]asked
	per := max(1, total/(8*par.Jobs(jobs)))
	for start, n, i := 0, 0, 0; i < len(all); i++ {
		if n += len(all[i].objs); n >= per || i == len(all)-1 {
			runs = append(runs, all[start:i+1])
			start, n = i+1, 0
		}
	}
	type found struct {
		kind   FindingKind
		obj    Object
		e      *Edge
		compat string
	}
	lists := make([][]found, par.Workers(len(runs), jobs))
	err := par.ForEach(ctx, len(runs), jobs, func(w, r int) {
		// fine has a bit set for each object key that the current
		// target exports as wanted, or has from native code: the
		// importers of one target ask for the same objects again and
		// again, each asked once (what classify says of an object
		// depends on its key's lower-cased path and class alone).
		var fineTo *Package
		var exports *exportIndex
		fine := make([]uint64, (len(distinct)+63)/64)
		for i := range runs[r] {
			a := &runs[r][i]
			if ctx.Err() != nil {
				return // a cancelled check: the rest is not looked at
			}
			to, tab, key := a.to, a.tab.tab, a.tab.key
			if to != fineTo {
				fineTo, exports = to, &to.scan.exports
				clear(fine)
			}
			for _, id := range a.objs {
				k := key[id]
				if fine[k/64]&(1<<(k%64)) != 0 {
					continue
				}
				// Almost every object asked is exported as wanted: its
				// key alone says so, without reading the object.
				if exports.hasKey(tab.keys[id]) {
					fine[k/64] |= 1 << (k % 64)
					continue
				}
				o := &tab.objs[id]
				kind := c.classify(to, o.Path, o.Class, tab.keys[id])
				if kind == "" {
					fine[k/64] |= 1 << (k % 64)
					continue
				}
				obj, compat := Object{Package: to.Name, Path: o.Path, ClassPackage: o.ClassPackage, Class: o.Class}, ""
				if kind == ClassMismatch {
					obj.Exported = c.gr.exportClass(to.File, o.Path)
					compat = compatNote(to, o.Path, o.ClassPackage+"."+o.Class, obj.Exported)
				}
				lists[w] = append(lists[w], found{kind, obj, a.e, compat})
			}
		}
	})
	if err != nil {
		return err
	}
	for _, l := range lists {
		for _, f := range l {
			k := objectKey{kind: f.kind, to: f.e.To}
			if f.kind == ClassMismatch {
				k.from, k.compat = f.e.From, f.compat
			}
			c.problem(k, f.obj).needed[f.e.From] = true
		}
	}
	return nil
}

// keyedTable is an objTable with the number of each object's key among
// the keys of every table a check reads: the objects of two workers'
// tables are much the same.
type keyedTable struct {
	tab *objTable
	key []uint32
}

// rootObjects checks the classes the ini names in packages that resolve.
func (c *objectCheck) rootObjects() {
	for _, r := range c.gr.iniRoots {
		to := r.Package
		if r.Object == "" || to.scan == nil {
			continue
		}
		kind := c.classify(to, r.Object, "Class", hashKey(r.Object, "Class"))
		if kind == "" {
			continue
		}
		if kind == MissingObject && r.clientOnly() && !c.nat.FromBinary(to.Name) {
			// Client devices (WinDrv.WindowsClient) are mostly native
			// classes of a module the install may lack (a server has no
			// WinDrv.dll): without it, the class cannot be known missing.
			kind = NativeUnknown
		}
		obj := iniClass(to.Name, r.Object)
		if kind == ClassMismatch {
			obj.Exported, obj.ByIni = c.gr.exportClass(to.File, r.Object), true
		}
		pr := c.problem(objectKey{kind: kind, to: to}, obj)
		pr.roots = append(pr.roots, r)
	}
}

func (gr *Graph) checkObjects(ctx context.Context, opt CheckOptions, parent reached) ([]Finding, error) {
	c := &objectCheck{gr: gr, nat: opt.Natives, problems: map[objectKey]*objectProblem{}}
	if err := c.importObjects(ctx, max(1, opt.Jobs)); err != nil {
		return nil, err
	}
	c.rootObjects()
	var out []Finding
	for k, pr := range c.problems {
		objs := sortObjects(pr.objects)
		var needed []*Package
		for p := range pr.needed {
			needed = append(needed, p)
		}
		slices.SortFunc(needed, func(a, b *Package) int { return cmpName(a.Name, b.Name) })
		f := Finding{Kind: k.kind, Package: k.to.Name, Objects: objs, NeededBy: names(needed), Roots: evidence(pr.roots)}
		if len(needed) > 0 {
			f.Chain = gr.chain(parent, reachedFirst(parent, needed), label(k.to))
		} else {
			f.Chain = []string{pr.roots[0].Evidence(), label(k.to)}
		}
		who := fmt.Sprintf("%d package(s) import", len(needed))
		switch {
		case len(needed) == 0:
			who = fmt.Sprintf("%d ini line(s) name", len(pr.roots))
		case len(pr.roots) > 0:
			who = fmt.Sprintf("%d package(s) and %d ini line(s) use", len(needed), len(pr.roots))
		}
		switch k.kind {
		case MissingObject:
			f.Severity = Error
			f.Message = fmt.Sprintf("%s (%s) lacks %d object(s) that %s", k.to.Name, k.to.Rel, len(objs), who)
			if k.to.Kind != KindCode && k.to.Kind != KindOther {
				if n := countClasses(objs); n > 0 {
					f.Message += fmt.Sprintf("; %d of them are classes, but %s is a %s package", n, k.to.Rel, k.to.Kind)
				}
			}
		case ClassMismatch:
			f.Severity = Error
			switch {
			case k.from != nil:
				// The importer is the stale one: name it, and the target.
				f.Package, f.Packages, f.NeededBy = k.from.Name, []string{k.from.Name, k.to.Name}, nil
				f.Message = fmt.Sprintf("%s (%s) was built against another %s: %d object(s) it imports have another class in %s; rebuild %s against this %s",
					k.from.Name, k.from.Rel, k.to.Name, len(objs), k.to.Rel, k.from.Name, k.to.Name)
				if k.compat != "" {
					f.Severity = Warning
					f.Message = fmt.Sprintf("%s (%s) was built against another %s (%s), but the engine accepts it: %s",
						k.from.Name, k.from.Rel, k.to.Name, k.to.Rel, k.compat)
				}
			default:
				f.Message = fmt.Sprintf("%s (%s) exports %d object(s) that %s with another class: the ini names another version's class", k.to.Name, k.to.Rel, len(objs), who)
			}
		case NativeUnknown:
			f.Severity = Warning
			classes := countClasses(objs)
			var what []string
			if classes > 0 {
				what = append(what, fmt.Sprintf("%d class(es) that are not known native-only classes", classes))
			}
			if members := len(objs) - classes; members > 0 {
				what = append(what, fmt.Sprintf("%d member(s) of native-only classes, which only its native code knows", members))
			}
			f.Message = fmt.Sprintf("%s (%s) has no export for what %s: %s", k.to.Name, k.to.Rel, who, strings.Join(what, " and "))
		}
		if f.Severity == Error && len(needed) == 0 && clientOnly(pr.roots) {
			f.Severity, f.Message = Warning, f.Message+clientNote
		}
		out = append(out, f)
	}
	return out, nil
}

// Exporter returns the package whose exports a finding's Objects name:
// Package, but for a class_mismatch of an importer (Packages: importer,
// target) the target.
func (f Finding) Exporter() string {
	if f.Kind == ClassMismatch && len(f.Packages) == 2 {
		return f.Packages[1]
	}
	return f.Package
}

// ImportsClasses reports whether any object of the finding was wanted as
// a class (Object.IsClass): only a code package can then provide the
// package.
func (f Finding) ImportsClasses() bool { return countClasses(f.Objects) > 0 }

func countClasses(objs []Object) int {
	n := 0
	for _, o := range objs {
		if o.IsClass() {
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

func (gr *Graph) checkCase(parent reached) []Finding {
	var out []Finding
	for _, p := range gr.pkgs {
		for _, sp := range p.CaseSpellings {
			var by []*Package
			for _, q := range gr.ImportedBy(p) {
				if e := gr.Edge(q, p); e != nil && e.Spelling == sp {
					by = append(by, q)
				}
			}
			var refs []RootRef
			for _, r := range gr.rootsOf(p) {
				if r.Root.Package == sp {
					refs = append(refs, r)
				}
			}
			how := "imported"
			switch {
			case len(by) == 0 && len(refs) > 0:
				how = "named by the ini"
			case len(refs) > 0:
				how = "imported and named by the ini"
			}
			f := Finding{Kind: CaseMismatch, Severity: Warning, Package: p.Name, NeededBy: names(by), Roots: evidence(refs),
				Message: caseMessage(how, sp, p.Rel)}
			if len(by) > 0 {
				f.Chain = gr.chain(parent, reachedFirst(parent, by), label(p))
			} else if len(refs) > 0 {
				f.Chain = []string{refs[0].Evidence(), label(p)}
			}
			out = append(out, f)
		}
	}
	return out
}

// caseMessage explains a case_mismatch: the name as used (sp) resolved only
// case-insensitively to the file rel. When the name matches exactly and
// only the extension differs in case from the Paths wildcard, it says so.
func caseMessage(how, sp, rel string) string {
	base := filepath.Base(rel)
	ext := filepath.Ext(base)
	if strings.TrimSuffix(base, ext) == sp {
		return fmt.Sprintf("%s as %q and the file is %s: the name matches, only the extension's case (%s) differs from the Paths wildcard's; "+
			"a case-sensitive file system (a Linux server) finds the file only under the wildcard's spelling: rename the extension to it", how, sp, rel, ext)
	}
	return fmt.Sprintf("%s as %q but the file is %s: found only case-insensitively; a case-sensitive server may fail to load it", how, sp, rel)
}

// BuildCycles returns the cycles of the graph without the edges that
// import only native-only classes of nat (nil: BuiltinNatives): what check
// reports as cycles, where Cycles has every load dependency. Each strongly
// connected component of more than one package is sorted, the list sorted
// by first name. Only the components of Cycles are searched again.
func (gr *Graph) BuildCycles(nat Natives) [][]*Package {
	if nat == nil {
		nat = BuiltinNatives()
	}
	var out [][]*Package
	for _, comp := range gr.Cycles() {
		in := map[*Package]bool{}
		sub := simple.NewDirectedGraph()
		for _, p := range comp {
			in[p] = true
			sub.AddNode(simple.Node(p.id))
		}
		for _, p := range comp {
			for _, q := range gr.Imports(p) {
				if in[q] && orderEdge(nat, gr.Edge(p, q)) {
					sub.SetEdge(simple.Edge{F: simple.Node(p.id), T: simple.Node(q.id)})
				}
			}
		}
		out = gr.components(out, sub)
	}
	sortCycles(out)
	return out
}

// cycleEdges returns, for a component, a cycle through its first package
// and one concrete import per edge as evidence, over build edges only.
func (gr *Graph) cycleEdges(comp []*Package, nat Natives) []string {
	in := map[*Package]bool{}
	for _, p := range comp {
		in[p] = true
	}
	// Shortest path back to the start, inside the component: the first
	// package in breadth-first order with an import of the start.
	start := comp[0]
	prev := map[*Package]*Package{}
	inComp := func(p *Package) []*Package {
		var out []*Package
		for _, q := range gr.Imports(p) {
			if in[q] && orderEdge(nat, gr.Edge(p, q)) {
				out = append(out, q)
			}
		}
		return out
	}
	var last *Package
	gr.walk([]*Package{start}, inComp, -1, func(p, from *Package, _ int) bool {
		prev[p] = from
		if orderEdge(nat, gr.Edge(p, start)) {
			last = p
			return false
		}
		return true
	})
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
		if o, ok := orderObject(nat, e); e != nil && ok {
			ev = path[i].Name + " imports " + o.describe(path[i+1].Name)
		}
		out = append(out, ev)
	}
	return out
}

// checkCycles reports the build cycles among package files. Every package
// of such a cycle has its file, so the engine loads them (its linker
// resolves imports in any order) and ucc make rebuilds none of them: only a
// clean rebuild would fail, hence a warning.
func (gr *Graph) checkCycles(nat Natives) []Finding {
	var out []Finding
	for _, comp := range gr.BuildCycles(nat) {
		out = append(out, Finding{Kind: Cycle, Severity: Warning, Package: comp[0].Name, Packages: names(comp),
			Chain: gr.cycleEdges(comp, nat),
			Message: fmt.Sprintf("%d packages import from each other in a cycle: they load, but a clean rebuild fails here (ucc make can build none of them before the others)",
				len(comp))})
	}
	return out
}

func (gr *Graph) checkServerSideOnly(opt CheckOptions) []Finding {
	var out []Finding
	parent := gr.reach(gr.clientRoots(opt.ServerPackages))
	for _, p := range gr.pkgs {
		if p.Flags&format.FlagServerSideOnly == 0 || isRetail(opt.Stock, p.Name) {
			continue // retail packages are on every client
		}
		var by []*Package
		for _, q := range gr.ImportedBy(p) {
			if parent.has(q) && q.Flags&format.FlagServerSideOnly == 0 {
				by = append(by, q)
			}
		}
		if len(by) == 0 {
			continue
		}
		out = append(out, Finding{Kind: ServerSideOnly, Severity: Error, Package: p.Name, NeededBy: names(by),
			Chain:   gr.chain(parent, by[0], label(p)),
			Message: fmt.Sprintf("%s is ServerSideOnly (never sent to clients), but %d package(s) that clients load import from it", p.Name, len(by))})
	}
	return out
}
