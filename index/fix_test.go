package index

import (
	"slices"
	"testing"

	"github.com/upkdeps/upkdeps/graph"
)

// TestFixReport: a fix plans for the missing packages of a check (each
// needed by its importers, then its ini lines), counts what it brings, and
// after the copies keeps the missing packages left.
func TestFixReport(t *testing.T) {
	findings := []graph.Finding{
		{Kind: graph.MissingPackage, Package: "ModA", NeededBy: []string{"DM-Map"}, Roots: []string{"Server.ini:3 ServerPackages=ModA"}},
		{Kind: graph.CaseMismatch, Package: "Tex"},
		{Kind: graph.MissingPackage, Package: "ModB", NeededBy: []string{"ModA"}},
	}
	needs := NeedsOf(findings)
	if len(needs) != 2 || needs[0].Name != "ModA" || !slices.Equal(needs[0].NeededBy, []string{"DM-Map", "Server.ini:3 ServerPackages=ModA"}) || needs[1].Name != "ModB" {
		t.Errorf("NeedsOf: %+v", needs)
	}
	if &needs[0].NeededBy[0] == &findings[0].NeededBy[0] {
		t.Errorf("NeedsOf shares the finding's slice")
	}
	db := openDB(t)
	applied := &Applied{Copies: []Copy{
		{Step: Step{Name: "ModA", Direct: true}, Status: CopyCopied},
		{Step: Step{Name: "ModC"}, Status: CopyCopied},
		{Step: Step{Name: "ModD"}, Status: CopyPlanned},
		{Step: Step{Name: "ModE"}, Status: CopyRefused},
		{Step: Step{Name: "ModF", Direct: true}, Status: CopyPresent},
	}, RemovedTemps: []string{}}
	rep := NewFixReport("Server.ini", db, false, needs, &Plan{Unresolved: []Unresolved{}}, applied)
	if rep.SchemaVersion != FixSchemaVersion || rep.Index != db.Path() || rep.MissingBefore != 2 || rep.MissingAfter != nil {
		t.Errorf("report: %+v", rep)
	}
	if copies, closure := rep.Brought(); copies != 3 || closure != 2 {
		t.Errorf("Brought: %d copies, %d closure; want 3, 2", copies, closure)
	}
	rep.After(findings[1:], 4)
	if rep.MissingAfter == nil || *rep.MissingAfter != 1 || len(rep.Left) != 1 || rep.Left[0].Package != "ModB" || rep.ErrorsAfter != 4 {
		t.Errorf("After: %+v", rep)
	}
	rep.After(nil, 0)
	if *rep.MissingAfter != 0 || rep.Left == nil {
		t.Errorf("After nothing: %+v", rep)
	}
}
