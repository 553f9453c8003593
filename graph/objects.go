package graph

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/upkdeps/upkdeps/internal/par"
)

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
func (c *objectCheck) classify(to *Package, path, class string, key exportKey) FindingKind {
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
	runs, distinct := c.askedRuns(jobs)
	lists := make([][]foundObject, par.Workers(len(runs), jobs))
	err := par.ForEach(ctx, len(runs), jobs, func(w, r int) {
		lists[w] = c.checkRun(ctx, runs[r], distinct, lists[w])
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

// asked is an edge, as importObjects reads it, with its importer's keyed
// table. It keeps 16 bytes an edge, not the 48 that its target and objects
// beside it took: on 20,000 packages (175,000 edges) that is 5.6 MB of the
// check's peak. The price: the loop in target order reaches each edge's
// objects through the edge, its importer and its scan, each on a cache
// line of its own (the object check alone 1.25x the CPU,
// BenchmarkCheckOnly; 1-2% of a whole check).
type asked struct {
	e   *Edge
	tab *keyedTable
}

// foundObject is a problem importObjects found.
type foundObject struct {
	kind   FindingKind
	obj    Object
	e      *Edge
	compat string
}

// askedRuns returns the edges to check, by target, in runs of about equal
// object counts (8 per job), and the number of distinct object keys.
func (c *objectCheck) askedRuns(jobs int) ([][]asked, int) {
	tabs := map[*objTable]*keyedTable{}
	var last *keyedTable
	// The number of each object key of every table: keys[n] is key n,
	// found by its hash (uniform already).
	var keys []exportKey
	var index idIndex
	number := func(k exportKey) uint32 {
		if n, ok := index.find(uint64(k), func(n uint32) bool { return keys[n] == k }); ok {
			return n
		}
		n := uint32(len(keys))
		keys = append(keys, k)
		index.add(uint64(k), n, func(n uint32) uint64 { return uint64(keys[n]) })
		return n
	}
	keyed := func(tab *objTable) *keyedTable {
		if last != nil && last.tab == tab {
			return last
		}
		if last = tabs[tab]; last == nil {
			last = &keyedTable{tab, make([]uint32, len(tab.keys))}
			for id, k := range tab.keys {
				last.key[id] = number(k)
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
				all[next[e.To.id]] = asked{e, keyed(e.From.scan.tab)}
				next[e.To.id]++
			}
		}
	}
	var runs [][]asked
	per := max(1, total/(8*par.Jobs(jobs)))
	for start, n, i := 0, 0, 0; i < len(all); i++ {
		if n += all[i].e.ObjectCount(); n >= per || i == len(all)-1 {
			runs = append(runs, all[start:i+1])
			start, n = i+1, 0
		}
	}
	return runs, len(keys)
}

// checkRun checks the objects of one run of edges, of distinct object
// keys in all, and appends the problems to list.
func (c *objectCheck) checkRun(ctx context.Context, run []asked, distinct int, list []foundObject) []foundObject {
	// fine has a bit set for each object key that the current
	// target exports as wanted, or has from native code: the
	// importers of one target ask for the same objects again and
	// again, each asked once (what classify says of an object
	// depends on its key's lower-cased path and class alone).
	var fineTo *Package
	var exports *exportIndex
	fine := make([]uint64, (distinct+63)/64)
	for i := range run {
		a := &run[i]
		if ctx.Err() != nil {
			return list // a cancelled check: the rest is not looked at
		}
		to, tab, key := a.e.To, a.tab.tab, a.tab.key
		if to != fineTo {
			fineTo, exports = to, &to.scan.exports
			clear(fine)
		}
		for _, id := range a.e.objs() {
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
			o := tab.at(id)
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
			list = append(list, foundObject{kind, obj, a.e, compat})
		}
	}
	return list
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
			who = rootLines(pr.roots) + " name"
			if who == "the command line name" {
				who = "the command line names"
			}
		case len(pr.roots) > 0:
			who = fmt.Sprintf("%d package(s) and %s use", len(needed), rootLines(pr.roots))
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
