package graph

import (
	"fmt"
	"slices"
)

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
		sub := newAdjGraph()
		for _, p := range comp {
			in[p] = true
			sub.addNode(p.id)
		}
		for _, p := range comp {
			for _, q := range gr.Imports(p) {
				if in[q] && orderEdge(nat, gr.Edge(p, q)) {
					sub.setEdge(p.id, q.id)
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
