package graph

// ChainSchemaVersion is the version of Chain's JSON form (what `upkdeps
// why --json` prints; docs/json.md).
const ChainSchemaVersion = 1

// Chain is the shortest import chain to a package, what `why` shows: the
// hops in chain order, none when nothing leads to the package or it is a
// map the engine loads by itself.
type Chain struct {
	SchemaVersion int        `json:"schema_version"`
	Hops          []ChainHop `json:"hops"`
	// From and To are the names of the packages asked about, as the
	// install spells them (From is To's for a chain from the roots that
	// found none).
	From string `json:"-"`
	To   string `json:"-"`
	// FromRoots is set for a chain from the install's roots (RootChain).
	FromRoots bool `json:"-"`
	// Map is set when RootChain's package is a map nothing else names:
	// the engine loads it by itself, and there is no chain.
	Map bool `json:"-"`
}

// ChainHop is one hop of a Chain: From imports Objects from To. From is a
// package name or, for the first hop of a chain from the roots, the ini
// line that loads To ("Server.ini:12 ServerPackages=Mod").
type ChainHop struct {
	From    string           `json:"from"`
	To      string           `json:"to"`
	Objects []ImportedObject `json:"objects"`
}

// ChainOf returns the shortest import chain from → to (Why, as a Chain).
// from and to are gr's.
func (gr *Graph) ChainOf(from, to *Package) Chain {
	c := Chain{SchemaVersion: ChainSchemaVersion, Hops: []ChainHop{}, From: from.Name, To: to.Name}
	c.addHops(gr.Why(from, to))
	return c
}

// RootChain returns the shortest import chain to p from a root of the
// install (WhyRoot): when an ini line names the chain's first package, the
// chain starts with a hop from that line, with the class it names (a
// ServerActors=Pkg.Class line) as its object.
func (gr *Graph) RootChain(p *Package) Chain {
	c := Chain{SchemaVersion: ChainSchemaVersion, Hops: []ChainHop{}, From: p.Name, To: p.Name, FromRoots: true}
	start, refs, hops := gr.WhyRoot(p)
	if start == p && len(refs) == 0 {
		c.Map = true
		return c
	}
	if start != nil {
		c.From = start.Name
	}
	if len(refs) > 0 {
		objs := []ImportedObject{}
		if r := refs[0]; r.Object != "" {
			objs = append(objs, ImportedObject{Path: r.Object, Class: "Class", ClassPackage: "Core"})
		}
		c.Hops = append(c.Hops, ChainHop{From: refs[0].Evidence(), To: start.Name, Objects: objs})
	}
	c.addHops(hops)
	return c
}

func (c *Chain) addHops(hops []Hop) {
	for _, h := range hops {
		objs := h.Objects
		if objs == nil {
			objs = []ImportedObject{}
		}
		c.Hops = append(c.Hops, ChainHop{From: h.From.Name, To: h.To.Name, Objects: objs})
	}
}
