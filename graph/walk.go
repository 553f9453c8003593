package graph

// walk is the graph's one breadth-first search: from the start packages
// (of gr) along next (gr.Imports or gr.ImportedBy, or a filter of them), it
// calls visit once for each package the first time it is reached, in
// breadth-first order, with the package it was reached from (nil for a
// start package) and its depth. Packages at maxDepth are not expanded
// (maxDepth < 0: no limit). visit returns false to end the walk.
func (gr *Graph) walk(start []*Package, next func(*Package) []*Package, maxDepth int, visit func(p, from *Package, depth int) bool) {
	// seen[id] is 1 + the depth of a package reached: a slice by id, not
	// a map, since a check walks every package of the install twice.
	seen := make([]int32, len(gr.byID))
	var queue []*Package
	for _, p := range start {
		if seen[p.id] != 0 {
			continue
		}
		seen[p.id] = 1
		queue = append(queue, p)
		if !visit(p, nil, 0) {
			return
		}
	}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		d := int(seen[p.id]) - 1
		if maxDepth >= 0 && d >= maxDepth {
			continue
		}
		for _, q := range next(p) {
			if seen[q.id] != 0 {
				continue
			}
			seen[q.id] = int32(d + 2)
			queue = append(queue, q)
			if !visit(q, p, d+1) {
				return
			}
		}
	}
}
