package check

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/ini"
)

// serverKey ranks the ini keys whose broken root stops a server: what it
// loads first and what every client needs comes first.
var serverKey = map[string]int{
	"serverpackages":    0, // clients are sent these; a missing one fails every join
	"serveractors":      1, // spawned when the server starts
	"defaultservergame": 2, // the game class a server runs
	"defaultgame":       2,
	"gameengine":        2,
}

// serverBreak says why an error stops the server: the most important ini
// line a server loads that leads to it, as its rank and the line's
// evidence.
type serverBreak struct {
	rank     int
	evidence string
}

// rootLoads maps each root's evidence line (Finding.Roots) to the ini
// reference it was made of.
func rootLoads(roots []graph.RootRef) map[string]ini.Reference {
	m := make(map[string]ini.Reference, len(roots))
	for _, r := range roots {
		m[r.Evidence()] = r.Reference
	}
	return m
}

// breaksServer returns the serverBreak of f, if any: a server-loaded ini
// line among its roots (ServerPackages, then ServerActors, then the game
// class, then any other: NetworkDevice, [URL] Class, web admin
// applications), else a server-loaded line its chain starts from (the
// server loads the broken package through it).
func breaksServer(f graph.Finding, roots map[string]ini.Reference) (serverBreak, bool) {
	if f.Severity != graph.Error {
		return serverBreak{}, false
	}
	rankOf := func(ev string) (int, bool) {
		r, found := roots[ev]
		if !found || r.Load == ini.LoadClient {
			return 0, false
		}
		key, _, _ := strings.Cut(strings.ToLower(r.Key), "[")
		if rank, named := serverKey[key]; named {
			return rank, true
		}
		return len(serverKey), true
	}
	best, ok := serverBreak{}, false
	for _, ev := range f.Roots {
		if rank, server := rankOf(ev); server && (!ok || rank < best.rank) {
			best, ok = serverBreak{rank, ev}, true
		}
	}
	if !ok && len(f.Chain) > 1 {
		if _, server := rankOf(f.Chain[0]); server {
			best, ok = serverBreak{len(serverKey) + 1, f.Chain[0]}, true
		}
	}
	return best, ok
}

// touched counts the packages a finding involves: its own, those that
// need it and those it lists.
func touched(f graph.Finding) int {
	seen := map[string]bool{strings.ToLower(f.Package): true}
	for _, list := range [][]string{f.NeededBy, f.Packages} {
		for _, n := range list {
			seen[strings.ToLower(n)] = true
		}
	}
	return len(seen)
}

// rankedFinding is a finding in the order the text report shows it.
type rankedFinding struct {
	graph.Finding
	brk      serverBreak
	breaks   bool
	packages int
	// explains is, for a stock_missing finding, how many errors are the
	// missing_package errors of its packages, of errors in all (itself
	// aside); leads is set when that is more than half of them.
	explains, errors int
	leads            bool
}

// rankFindings orders findings for people: first a stock_missing finding
// whose packages' missing_package errors are most of the errors (one
// action, installing the game's own files, clears them), then the errors
// that stop the server (an ini root of ServerPackages, then ServerActors,
// then the game class, then other lines a server loads), then errors
// before warnings, each by how many packages the finding touches (most
// first); ties keep the findings' sorted order.
func rankFindings(fs []graph.Finding, roots map[string]ini.Reference) []rankedFinding {
	out := make([]rankedFinding, len(fs))
	errs := 0
	missingErr := map[string]int{}
	for _, f := range fs {
		if f.Severity == graph.Error && f.Kind != graph.StockMissing {
			errs++
			if f.Kind == graph.MissingPackage {
				missingErr[strings.ToLower(f.Package)]++
			}
		}
	}
	for i, f := range fs {
		brk, breaks := breaksServer(f, roots)
		out[i] = rankedFinding{Finding: f, brk: brk, breaks: breaks, packages: touched(f)}
		if f.Kind == graph.StockMissing {
			out[i].errors = errs
			for _, p := range f.Packages {
				out[i].explains += missingErr[strings.ToLower(p)]
			}
			out[i].leads = 2*out[i].explains > errs
		}
	}
	slices.SortStableFunc(out, func(a, b rankedFinding) int {
		if a.leads != b.leads {
			if a.leads {
				return -1
			}
			return 1
		}
		if a.breaks != b.breaks {
			if a.breaks {
				return -1
			}
			return 1
		}
		if a.breaks {
			if c := cmp.Compare(a.brk.rank, b.brk.rank); c != 0 {
				return c
			}
		}
		return cmp.Or(
			cmp.Compare(severityRank(a.Severity), severityRank(b.Severity)),
			cmp.Compare(b.packages, a.packages),
		)
	})
	return out
}

func severityRank(s graph.Severity) int {
	if s == graph.Error {
		return 0
	}
	return 1
}

// why says in a few words why a ranked finding comes where it does.
func (r rankedFinding) why() string {
	switch {
	case r.Kind == graph.StockMissing:
		return fmt.Sprintf("%d of %d errors are the game's own missing packages", r.explains, r.errors)
	case r.breaks && r.brk.rank > len(serverKey):
		return "the server loads it through " + r.brk.evidence
	case r.breaks:
		return "breaks the server: " + r.brk.evidence
	}
	if r.packages == 1 {
		return "touches 1 package"
	}
	return fmt.Sprintf("touches %d packages", r.packages)
}
