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

// OrderReport is what `order` prints (its --json form, docs/json.md): the
// order check with the ini it read and the entries read from sources.
type OrderReport struct {
	SchemaVersion int    `json:"schema_version"`
	Ini           string `json:"ini"`
	graph.OrderResult
	// Sources lists the EditPackages entries whose Classes/*.uc were read.
	Sources []string `json:"sources"`
	// Compiled lists the entries read from their compiled .u instead, for
	// the text (Unchecked has those with neither); not in the JSON.
	Compiled []string `json:"-"`
}

// OrderReportVersion is OrderReport's schema_version.
const OrderReportVersion = 2

// ReportOrder runs Order and sorts the entries it read into those read from
// sources and those read from their compiled .u.
func (in *Install) ReportOrder(ctx context.Context, g *graph.Graph, clean bool) (OrderReport, error) {
	res, src, err := in.Order(ctx, g, clean)
	if err != nil {
		return OrderReport{}, err
	}
	rep := OrderReport{SchemaVersion: OrderReportVersion, Ini: in.IniPath, OrderResult: res, Sources: []string{}}
	for _, sp := range src.Packages {
		switch p := g.Package(sp.Name); {
		case sp.HasSources:
			rep.Sources = append(rep.Sources, sp.Name)
		case p != nil && !p.Missing() && p.Err == nil:
			rep.Compiled = append(rep.Compiled, sp.Name)
		}
	}
	return rep, nil
}
