package graph

import "slices"

// UnusedOptions configure Unused.
type UnusedOptions struct {
	// EditPackages are named by the ini's EditPackages lines: roots too
	// (ucc make loads them), besides the ini roots given to Build and the
	// maps.
	EditPackages []string
	// Natives, when not nil, makes every package with native code
	// reached: the engine's binaries load it by name.
	Natives Natives
	// IsStock says which packages are the game's own (nil: IsStock): they
	// are never listed, only counted.
	IsStock func(name string) bool
	// Used are more packages the server loads by name (a mapvote's
	// presets, livemap.Map.Used): roots too.
	Used []string
}

// UnusedPackage is a package file nothing reaches.
type UnusedPackage struct {
	Package *Package
	// Through are the unused packages nothing imports that import it,
	// directly or not: a map or an ini line naming one of them would reach
	// it. Empty when nothing imports it (naming it reaches it). Sorted.
	Through []*Package
}

// UnusedResult is what Unused finds.
type UnusedResult struct {
	// Packages are the package files (not stock) that no map, ini line,
	// EditPackages entry, native code or other reached package reaches,
	// sorted by name.
	Packages []UnusedPackage
	// Stock counts the stock packages nothing reaches (not listed: the game
	// ships them).
	Stock int
}

// Unused returns the packages of the install that nothing reaches: not a
// map, not named by an ini line (the roots given to Build, EditPackages),
// without native code, and imported by no package that is reached. A
// missing package is no file and is never listed.
func (gr *Graph) Unused(opt UnusedOptions) UnusedResult {
	isStock := opt.IsStock
	if isStock == nil {
		isStock = IsStock
	}
	reached := gr.reach(gr.unusedRoots(opt))
	var res UnusedResult
	unused := map[*Package]int{} // package -> index in res.Packages
	for _, p := range gr.pkgs {
		if p.Missing() || reached.has(p) {
			continue
		}
		if isStock(p.Name) {
			res.Stock++
			continue
		}
		unused[p] = len(res.Packages)
		res.Packages = append(res.Packages, UnusedPackage{Package: p})
	}
	// The tops: unused packages nothing imports. Every importer of an
	// unused package is unused, so each one below a top is reached from
	// it; then, of an unused cycle that no top reaches, its first package
	// by name.
	imported := map[*Package]bool{}
	for _, e := range gr.Edges() {
		imported[e.To] = true
	}
	// Each walk stays among the unused packages (what a top imports that
	// is reached is no news), marking what it visits with its own stamp:
	// no allocation per top.
	covered := map[*Package]bool{}
	stamp := make([]int, len(res.Packages))
	walks := 0
	fromTop := func(top *Package) {
		walks++
		queue := []int{unused[top]}
		stamp[unused[top]] = walks
		for len(queue) > 0 {
			p := res.Packages[queue[0]].Package
			queue = queue[1:]
			for _, q := range gr.Imports(p) {
				i, ok := unused[q]
				if !ok || stamp[i] == walks {
					continue
				}
				stamp[i] = walks
				res.Packages[i].Through = append(res.Packages[i].Through, top)
				covered[q] = true
				queue = append(queue, i)
			}
		}
	}
	for _, u := range res.Packages {
		if !imported[u.Package] {
			fromTop(u.Package)
		}
	}
	for _, u := range res.Packages {
		if imported[u.Package] && !covered[u.Package] {
			covered[u.Package] = true
			fromTop(u.Package)
		}
	}
	for i := range res.Packages {
		slices.SortFunc(res.Packages[i].Through, func(a, b *Package) int { return cmpName(a.Name, b.Name) })
	}
	return res
}

// unusedRoots returns what Unused starts from: the starts of Build, the
// EditPackages entries and, with opt.Natives, the packages with native
// code.
func (gr *Graph) unusedRoots(opt UnusedOptions) []*Package {
	seen := map[*Package]bool{}
	roots := gr.appendStarts(nil, seen)
	for _, n := range append(append([]string{}, opt.EditPackages...), opt.Used...) {
		if p := gr.Package(n); p != nil && !seen[p] {
			seen[p] = true
			roots = append(roots, p)
		}
	}
	if opt.Natives != nil {
		for _, p := range gr.pkgs {
			if !seen[p] && !p.Missing() && opt.Natives.HasPackage(p.Name) {
				seen[p] = true
				roots = append(roots, p)
			}
		}
	}
	return roots
}
