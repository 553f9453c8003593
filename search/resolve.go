package search

import (
	"fmt"

	"github.com/upkdeps/upkdeps/format"
)

// ResolveSchemaVersion is the version of Resolutions' JSON form (what
// `upkdeps resolve --json` prints; docs/json.md).
const ResolveSchemaVersion = 1

// Resolutions are package names looked up, in the order asked.
type Resolutions struct {
	SchemaVersion int          `json:"schema_version"`
	Results       []Resolution `json:"results"`
}

// ResolveAll looks each name up (Resolve), in the order given.
func (s *Searcher) ResolveAll(names []string, guid format.GUID, gen int) Resolutions {
	out := Resolutions{SchemaVersion: ResolveSchemaVersion, Results: make([]Resolution, 0, len(names))}
	for _, name := range names {
		out.Results = append(out.Results, s.Resolve(name, guid, gen))
	}
	return out
}

// Resolved reports whether every name resolved to a file.
func (rs Resolutions) Resolved() bool {
	for _, r := range rs.Results {
		if r.File == nil {
			return false
		}
	}
	return true
}

// Resolution is one name looked up by Resolve: the file the engine loads
// (relative to the game root; nil when none), the step that found it,
// every candidate tried in order, the files the choice shadows, and
// warnings.
type Resolution struct {
	Name         string   `json:"name"`
	File         *string  `json:"file"`
	Step         string   `json:"step,omitempty"`
	CaseMismatch bool     `json:"case_mismatch"`
	Tried        []string `json:"tried"`
	Shadowed     []string `json:"shadowed"`
	Warnings     []string `json:"warnings"`
	// Via says in words how the file was found: "the name as given",
	// "Paths[1] ../Maps/*.unr", "the download cache", each with
	// ", ignoring case" when only a lookup ignoring case found it.
	Via string `json:"-"`
}

// Resolve looks name up as FindGUID does (guid and gen as there; a zero
// guid is Find) and says how the file was found.
func (s *Searcher) Resolve(name string, guid format.GUID, gen int) Resolution {
	r := s.FindGUID(name, guid, gen)
	out := Resolution{
		Name: name, Step: r.Step, CaseMismatch: r.CaseMismatch,
		Tried: orEmpty(r.Tried), Shadowed: orEmpty(r.Shadowed), Warnings: orEmpty(r.Warnings),
	}
	if !r.Found() {
		return out
	}
	rel := r.Rel
	out.File = &rel
	paths := s.Paths()
	switch {
	case r.Step == StepAsGiven:
		out.Via = "the name as given"
	case r.Step == StepCache:
		out.Via = "the download cache"
	case r.PathIndex >= 0 && r.PathIndex < len(paths):
		out.Via = fmt.Sprintf("Paths[%d] %s", r.PathIndex, paths[r.PathIndex].Raw)
	case r.CaseMismatch:
		out.Via = "the download cache"
	}
	if r.CaseMismatch {
		out.Via += ", ignoring case"
	}
	return out
}

// orEmpty returns s, or an empty slice for nil (a JSON [], not null).
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
