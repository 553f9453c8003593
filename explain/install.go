package explain

import (
	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/search"
)

// GraphChain says why the install of g loads a package: the nearest ini
// line or map that leads to it (graph.Graph.WhyRoot), then each import hop.
// nil for a package no root needs or g does not know.
func GraphChain(g *graph.Graph) func(pkg string) []string {
	return func(pkg string) []string {
		p := g.Package(pkg)
		if p == nil {
			return nil
		}
		start, refs, hops := g.WhyRoot(p)
		if start == nil {
			return nil
		}
		var out []string
		if len(refs) > 0 {
			out = append(out, refs[0].Evidence())
		} else {
			out = append(out, "map "+start.Name)
		}
		for _, h := range hops {
			out = append(out, h.From.Name+" -> "+h.To.Name)
		}
		return out
	}
}

// SearchInstall answers through an install's package lookup.
func SearchInstall(s *search.Searcher, iniPath string) Install {
	return searchInstall{s, iniPath}
}

type searchInstall struct {
	s   *search.Searcher
	ini string
}

func (si searchInstall) Find(pkg string) string { return si.s.Find(pkg).File }
func (si searchInstall) FindGUID(pkg string, guid format.GUID, gen int) string {
	return si.s.FindGUID(pkg, guid, gen).File
}
func (si searchInstall) Rel(path string) string { return si.s.Rel(path) }
func (si searchInstall) IniPath() string        { return si.ini }
func (si searchInstall) Generation() int        { return si.s.Generation() }
