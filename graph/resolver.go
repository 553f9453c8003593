package graph

import "github.com/upkdeps/upkdeps/search"

// searchResolver adapts a search.Searcher to Resolver.
type searchResolver struct{ s *search.Searcher }

// FromSearcher returns the Resolver of a real install: the engine's lookup
// through the ini's Paths, as the search package implements it.
func FromSearcher(s *search.Searcher) Resolver { return searchResolver{s} }

func (r searchResolver) Candidates() []Candidate {
	n := 0
	for range r.s.AllPackages() {
		n++
	}
	out := make([]Candidate, 0, n) // nearly all win: one allocation, not a doubling per growth
	for c := range r.s.AllPackages() {
		if c.Wins {
			out = append(out, Candidate{Name: c.Name, File: c.File, Rel: c.Rel, PathIndex: c.PathIndex})
		}
	}
	return out
}

func (r searchResolver) Resolve(name string) Resolution {
	res := r.s.Locate(name)
	return Resolution{File: res.File, Rel: res.Rel, PathIndex: res.PathIndex, CaseMismatch: res.CaseMismatch}
}

// SearchFindings turns the search step's collisions into findings.
func SearchFindings(s *search.Searcher) []Finding {
	var out []Finding
	for _, c := range s.Collisions() {
		kind := Collision
		if c.Kind == search.KindShadowed {
			kind = Shadowed
		}
		out = append(out, Finding{Kind: kind, Severity: Warning, Package: c.Name,
			Packages: append([]string{c.Winner}, c.Others...), Message: c.Message})
	}
	return out
}
