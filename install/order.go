package install

import (
	"context"

	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/native"
)

// Sources reads the UnrealScript sources of the EditPackages entries
// (<GameRoot>/<Pkg>/Classes/*.uc) against g, with the install's natives
// (Natives): what the order check and check's findings read. The sources
// of the last graph asked for are kept: a second call with it reads
// nothing again.
func (in *Install) Sources(ctx context.Context, g *graph.Graph) (*graph.Sources, *native.Set, error) {
	nat, err := in.Natives()
	if err != nil {
		return nil, nil, err
	}
	if in.srcGraph == g && in.sources != nil {
		return in.sources, nat, nil
	}
	src, err := g.ScanSources(ctx, in.Search.Root(), in.Ini.EditPackages(), nat)
	if err != nil {
		return nil, nil, err
	}
	in.srcGraph, in.sources = g, src
	return src, nat, nil
}

// Order checks the EditPackages build order of the install whose graph is
// g (graph.CheckEditPackages) from the entries' sources where they exist
// and their compiled imports otherwise, and gives each finding of an entry
// listed twice the ini lines that list it. clean treats every entry as
// rebuilt (graph.OrderOptions.Clean). It returns the sources it read too.
func (in *Install) Order(ctx context.Context, g *graph.Graph, clean bool) (graph.OrderResult, *graph.Sources, error) {
	src, nat, err := in.Sources(ctx, g)
	if err != nil {
		return graph.OrderResult{}, nil, err
	}
	res := g.CheckEditPackages(in.Ini.EditPackages(), graph.OrderOptions{Sources: src, Natives: nat, Clean: clean})
	in.EditLines(res.Findings)
	return res, src, nil
}

// EditLines gives each finding of an EditPackages entry listed twice the
// ini lines that list it (graph.AddEditLines), so that a report names
// both lines.
func (in *Install) EditLines(fs []graph.Finding) { graph.AddEditLines(fs, in.Ini) }
