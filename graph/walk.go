package graph

// walk is the graph's one breadth-first search: from the start packages
// along next (gr.Imports or gr.ImportedBy, or a filter of them), it calls
// visit once for each package the first time it is reached, in
// breadth-first order, with the package it was reached from (nil for a
// start package) and its depth. Packages at maxDepth are not expanded
// (maxDepth < 0: no limit). visit returns false to end the walk.
func walk(start []*Package, next func(*Package) []*Package, maxDepth int, visit func(p, from *Package, depth int) bool) {
	seen := map[*Package]int{} // depth
	var queue []*Package
	for _, p := range start {
		if _, ok := seen[p]; ok {
			continue
		}
		seen[p] = 0
		queue = append(queue, p)
		if !visit(p, nil, 0) {
			return
		}
	}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		d := seen[p]
		if maxDepth >= 0 && d >= maxDepth {
			continue
		}
		for _, q := range next(p) {
			if _, ok := seen[q]; ok {
				continue
			}
			seen[q] = d + 1
			queue = append(queue, q)
			if !visit(q, p, d+1) {
				return
			}
		}
	}
}
