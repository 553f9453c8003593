package check

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/internal/fsutil"
)

// BaselineVersion is a baseline file's schema_version.
const BaselineVersion = 1

// maxBaseline bounds the baseline file read (a few hundred bytes a finding).
const maxBaseline = 64 << 20

// Baseline is the findings of an install accepted as they are: a check
// given one reports, and fails on, only the findings not in it. Findings
// are matched by Fingerprint; kind, package and message are kept for the
// reader. Its JSON form is documented in docs/check.md.
type Baseline struct {
	SchemaVersion int             `json:"schema_version"`
	Findings      []BaselineEntry `json:"findings"`
}

// BaselineEntry is one accepted finding.
type BaselineEntry struct {
	Fingerprint string            `json:"fingerprint"`
	Kind        graph.FindingKind `json:"kind"`
	Severity    graph.Severity    `json:"severity"`
	Package     string            `json:"package"`
	Message     string            `json:"message"`
}

// NewBaseline returns the baseline of rep's findings, in report order.
func NewBaseline(rep *Report) *Baseline {
	b := &Baseline{SchemaVersion: BaselineVersion, Findings: []BaselineEntry{}}
	for _, f := range rep.Findings {
		b.Findings = append(b.Findings, BaselineEntry{Fingerprint(f), f.Kind, f.Severity, f.Package, f.Message})
	}
	return b
}

// Marshal returns b as indented JSON with a trailing newline.
func (b *Baseline) Marshal() []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	_ = enc.Encode(b) // strings and ints only: cannot fail
	return buf.Bytes()
}

// BaselineVersionError is the error of a baseline file of another
// schema_version than BaselineVersion: it must be written again
// (NewBaseline).
type BaselineVersionError struct {
	Path string
	Have int // its schema_version
}

func (e *BaselineVersionError) Error() string {
	return fmt.Sprintf("baseline %s: schema_version %d, want %d (write it again)", e.Path, e.Have, BaselineVersion)
}

// ReadBaseline reads a baseline file.
func ReadBaseline(path string) (*Baseline, error) {
	data, err := fsutil.ReadRegular(path, maxBaseline)
	if errors.Is(err, fsutil.ErrTooBig) {
		return nil, fmt.Errorf("baseline %s: larger than %d MiB", path, maxBaseline>>20)
	}
	if err != nil {
		return nil, fmt.Errorf("baseline: %w", err)
	}
	var b Baseline
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("baseline %s: at offset %d: %v", path, se.Offset, err)
		}
		return nil, fmt.Errorf("baseline %s: %v", path, err)
	}
	if b.SchemaVersion != BaselineVersion {
		return nil, &BaselineVersionError{Path: path, Have: b.SchemaVersion}
	}
	for i, e := range b.Findings {
		if e.Fingerprint == "" {
			return nil, fmt.Errorf("baseline %s: finding %d has no fingerprint", path, i+1)
		}
	}
	return &b, nil
}

// Suppressed says what a check left out of its report: findings the
// baseline accepts and kinds disabled.
type Suppressed struct {
	Baseline string `json:"baseline,omitempty"` // the baseline file, as given
	// InBaseline are the findings left out because the baseline has them;
	// Fixed the baseline's entries no finding matched any more.
	InBaseline int `json:"in_baseline"`
	Fixed      int `json:"fixed"`
	// Disabled are the kinds left out (sorted), DisabledFindings how many
	// findings that removed.
	Disabled         []graph.FindingKind `json:"disabled"`
	DisabledFindings int                 `json:"disabled_findings"`
}

func (r *Report) suppressed() *Suppressed {
	if r.Suppressed == nil {
		r.Suppressed = &Suppressed{Disabled: []graph.FindingKind{}}
	}
	return r.Suppressed
}

// Disable leaves out the findings of the kinds given and counts them in
// r.Suppressed; the summary is made again.
func (r *Report) Disable(kinds []graph.FindingKind) {
	if len(kinds) == 0 {
		return
	}
	s := r.suppressed()
	for _, k := range kinds {
		if !slices.Contains(s.Disabled, k) {
			s.Disabled = append(s.Disabled, k)
		}
	}
	slices.Sort(s.Disabled)
	kept := r.Findings[:0:0]
	for _, f := range r.Findings {
		if slices.Contains(kinds, f.Kind) {
			s.DisabledFindings++
			continue
		}
		kept = append(kept, f)
	}
	r.Findings = kept
	r.summarize()
}

// ApplyBaseline leaves out the findings b accepts: each entry matches one
// finding of the same fingerprint (two findings with one fingerprint need
// two entries); entries of kinds Disable left out are not counted as
// fixed. name is the baseline file, for r.Suppressed. The summary
// is made again.
func (r *Report) ApplyBaseline(b *Baseline, name string) {
	s := r.suppressed()
	s.Baseline = name
	left := map[string]int{}
	for _, e := range b.Findings {
		if !slices.Contains(s.Disabled, e.Kind) { // not fixed, left out
			left[e.Fingerprint]++
		}
	}
	kept := r.Findings[:0:0]
	for _, f := range r.Findings {
		if fp := Fingerprint(f); left[fp] > 0 {
			left[fp]--
			s.InBaseline++
			continue
		}
		kept = append(kept, f)
	}
	for _, n := range left {
		s.Fixed += n
	}
	r.Findings = kept
	r.summarize()
}

// summarize makes r.Summary from r.Findings.
func (r *Report) summarize() {
	r.Summary = Summary{ByKind: map[graph.FindingKind]int{}, ErrorsByKind: map[graph.FindingKind]int{},
		WarningsByKind: map[graph.FindingKind]int{}, FixFirst: []FixFirst{}}
	for _, x := range rankFindings(r.Findings, r.roots)[:min(3, len(r.Findings))] {
		r.Summary.FixFirst = append(r.Summary.FixFirst, FixFirst{x.Kind, x.Severity, x.Package, x.why()})
	}
	for _, f := range r.Findings {
		r.Summary.ByKind[f.Kind]++
		if f.Severity == graph.Error {
			r.Summary.Errors++
			r.Summary.ErrorsByKind[f.Kind]++
		} else {
			r.Summary.Warnings++
			r.Summary.WarningsByKind[f.Kind]++
		}
	}
}
