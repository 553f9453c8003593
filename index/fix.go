package index

import (
	"context"

	"github.com/upkdeps/upkdeps/graph"
)

// FixSchemaVersion is the schema_version of FixReport's JSON form (what
// `upkdeps fix --json` prints; docs/json.md). 2: the index's file is
// "index" (it was "db").
const FixSchemaVersion = 2

// FixReport is what a fix did, as `upkdeps fix --json` prints it: the
// install's missing packages planned from the index (Plan), the copies
// made or, in a dry run, planned (Apply), and after the copies what a
// check still reports missing.
type FixReport struct {
	SchemaVersion int          `json:"schema_version"`
	Ini           string       `json:"ini"`
	Index         string       `json:"index"` // the package index's file ("db" before schema 2)
	DryRun        bool         `json:"dry_run"`
	MissingBefore int          `json:"missing_before"`
	Copies        []Copy       `json:"copies"`
	Unresolved    []Unresolved `json:"unresolved"`
	// MissingAfter and Left are the check after the copies (not in a dry
	// run): the number of missing packages and their findings.
	MissingAfter *int            `json:"missing_after,omitempty"`
	Left         []graph.Finding `json:"left,omitempty"`
	// ErrorsAfter is the number of errors of the check after the copies;
	// in a dry run, of the check before.
	ErrorsAfter int `json:"errors_after"`
	// RemovedTemps are the temporary files an earlier, killed fix left
	// beside the files this one writes, removed before it copies.
	RemovedTemps []string `json:"removed_temps"`
}

// NeedsOf returns the packages a check's findings say are missing, each
// needed by what imports it and the ini lines that lead to it: what a fix
// plans for.
func NeedsOf(findings []graph.Finding) []Need {
	var needs []Need
	for _, f := range findings {
		if f.Kind == graph.MissingPackage {
			needs = append(needs, Need{Name: f.Package, NeededBy: append(append([]string{}, f.NeededBy...), f.Roots...)})
		}
	}
	return needs
}

// NewFixReport returns the report of a fix of the install whose ini is
// ini, from the index d: the plan made for needs and what Apply did.
func NewFixReport(ini string, d *DB, dryRun bool, needs []Need, plan *Plan, applied *Applied) *FixReport {
	return &FixReport{SchemaVersion: FixSchemaVersion, Ini: ini, Index: d.Path(), DryRun: dryRun, MissingBefore: len(needs),
		Copies: applied.Copies, Unresolved: plan.Unresolved, RemovedTemps: applied.RemovedTemps}
}

// After records the check after the copies: its findings (the missing
// packages are kept) and its number of errors.
func (r *FixReport) After(findings []graph.Finding, errors int) {
	n := 0
	r.Left = []graph.Finding{}
	for _, f := range findings {
		if f.Kind == graph.MissingPackage {
			n++
			r.Left = append(r.Left, f)
		}
	}
	r.MissingAfter = &n
	r.ErrorsAfter = errors
}

// Refused reports whether a copy or one of its native binaries was
// refused (Applied.Refused).
func (r *FixReport) Refused() bool { return (&Applied{Copies: r.Copies}).Refused() }

// Brought counts the copies planned or made, and of those the ones only
// the brought packages need.
func (r *FixReport) Brought() (copies, closure int) {
	for _, c := range r.Copies {
		if c.Status == CopyPlanned || c.Status == CopyCopied {
			copies++
			if !c.Direct {
				closure++
			}
		}
	}
	return copies, closure
}

// FixOptions are what Fix plans and copies with.
type FixOptions struct {
	Ini   string // the install's game ini, as the report names it
	Plan  PlanOptions
	Apply ApplyOptions
}

// Fix plans the packages a check's findings say are missing (NeedsOf,
// Plan) and copies them into the install (Apply; in a dry run, only
// plans the copies): the report of fix before its second check (After).
// An error of Plan or Apply is returned as it is, with no report.
func (d *DB) Fix(ctx context.Context, findings []graph.Finding, opt FixOptions) (*FixReport, error) {
	needs := NeedsOf(findings)
	plan, err := d.Plan(ctx, needs, opt.Plan)
	if err != nil {
		return nil, err
	}
	applied, err := d.Apply(ctx, plan, opt.Apply)
	if err != nil {
		return nil, err
	}
	return NewFixReport(opt.Ini, d, opt.Apply.DryRun, needs, plan, applied), nil
}
