package index

import (
	"context"
	"os"
	"path/filepath"
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

// TestFix: Fix plans the findings' missing packages from the index and
// copies them (a dry run only plans), with the packages the index lacks
// unresolved and a copy onto other content refused.
func TestFix(t *testing.T) {
	ctx := context.Background()
	src, game := t.TempDir(), t.TempDir()
	write(t, filepath.Join(src, "A.u"), pkgBytes(t, 1, nil))
	write(t, filepath.Join(src, "C.u"), pkgBytes(t, 3, nil))
	write(t, filepath.Join(game, "System", "C.u"), []byte("other content"))
	db := openDB(t)
	if _, err := db.Add(ctx, src, AddOptions{}); err != nil {
		t.Fatal(err)
	}
	findings := []graph.Finding{
		{Kind: graph.MissingPackage, Package: "A", NeededBy: []string{"DM-Map"}},
		{Kind: graph.MissingPackage, Package: "C"},
		{Kind: graph.MissingPackage, Package: "Z"},
		{Kind: graph.MissingObject, Package: "B"},
	}
	opt := FixOptions{Ini: "Server.ini", Plan: PlanOptions{Installed: func(string) bool { return false }},
		Apply: ApplyOptions{Place: func(string) (string, bool) { return filepath.Join(game, "System"), true },
			Rel: func(p string) string { r, _ := filepath.Rel(game, p); return filepath.ToSlash(r) }}}
	for _, dryRun := range []bool{true, false} {
		opt.Apply.DryRun = dryRun
		rep, err := db.Fix(ctx, findings, opt)
		if err != nil {
			t.Fatal(err)
		}
		var copies []string
		for _, c := range rep.Copies {
			copies = append(copies, c.Name+"="+string(c.Status)+"@"+c.To)
		}
		wantA := map[bool]string{true: "A=planned@System/A.u", false: "A=copied@System/A.u"}[dryRun]
		if rep.Ini != "Server.ini" || rep.DryRun != dryRun || rep.MissingBefore != 3 || !rep.Refused() ||
			!slices.Equal(copies, []string{wantA, "C=refused@System/C.u"}) || len(rep.Unresolved) != 1 || rep.Unresolved[0].Name != "Z" {
			t.Errorf("dry run %v: %+v, copies %q", dryRun, rep, copies)
		}
		_, err = os.Stat(filepath.Join(game, "System", "A.u"))
		if written := err == nil; written == dryRun {
			t.Errorf("dry run %v: A.u written %v", dryRun, written)
		}
	}
}
