package cache

import (
	"fmt"
	"strings"
)

// VerifySchemaVersion is the version of VerifyReport's JSON form (what
// `upkdeps cache verify --json` prints; docs/json.md).
const VerifySchemaVersion = 1

// VerifyReport is what is wrong in a cache: errors first, then warnings,
// each in entry order, bad cache.ini lines and strays last.
type VerifyReport struct {
	SchemaVersion int           `json:"schema_version"`
	Cache         string        `json:"cache"`
	Problems      []Problem     `json:"problems"`
	Summary       VerifySummary `json:"summary"`
}

// Problem is one thing wrong in the cache. Severity is "error" for what
// breaks a client (a file that is not a package, a file whose header GUID
// is not its name, an entry the install's own copy shadows) and "warning"
// for what only wastes space or a line (a cache.ini line without its file,
// a file without a line, a line that is not a cache key, a stray download).
type Problem struct {
	Severity   string  `json:"severity"`
	State      string  `json:"state"` // an entry's State, or bad_key, stray
	GUID       *string `json:"guid"`
	Generation int     `json:"generation"`
	Name       *string `json:"name"`
	File       *string `json:"file"`
	Message    string  `json:"message"`
	// Subject names an entry's problem in text: its cache.ini key and
	// package name ("" for a bad line or a stray, which File names).
	Subject string `json:"-"`
}

// VerifySummary counts the entries read and the problems found.
type VerifySummary struct {
	Entries  int `json:"entries"`
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
}

// Verify reports what is wrong in the cache.
func (c *Cache) Verify() VerifyReport {
	rep := VerifyReport{SchemaVersion: VerifySchemaVersion, Cache: c.Dir, Problems: []Problem{}}
	entries := c.Entries()
	rep.Summary.Entries = len(entries)
	var errs, warns []Problem
	for _, e := range entries {
		p := Problem{State: string(e.State), GUID: ptr(e.GUID), Generation: e.Generation, Name: ptr(e.Name), File: ptr(e.File),
			Subject: strings.TrimSpace(e.Key + " " + Printable(e.Name))}
		switch e.State {
		case StateNotAPackage:
			p.Message = "not a package: " + e.Detail
		case StateGUIDMismatch:
			p.Message = fmt.Sprintf("the file is named %s but its header says %s", e.GUID, e.HeaderGUID)
		case StateInstalledOther:
			p.Message = fmt.Sprintf("the engine loads %s (%s) instead: clients get a version mismatch", e.Installed, e.Detail)
		case StateMissingFile:
			p.Message = "cache.ini names it but the file is gone (purged?)"
		case StateOrphanFile:
			p.Message = "the file has no name in cache.ini"
		default:
			continue
		}
		if e.State.IsProblem() {
			p.Severity = "error"
			errs = append(errs, p)
		} else {
			p.Severity = "warning"
			warns = append(warns, p)
		}
	}
	for _, b := range c.BadLines() {
		warns = append(warns, Problem{Severity: "warning", State: "bad_key", File: ptr(c.IniPath()),
			Message: fmt.Sprintf("line %d: key %s is not a cache key", b.Line, Printable(b.Key))})
	}
	for _, s := range c.Strays() {
		msg := "stray download file: " + s.Kind
		if s.Original != "" {
			msg += " of " + Printable(s.Original)
		}
		warns = append(warns, Problem{Severity: "warning", State: "stray", File: ptr(s.File), Message: msg})
	}
	rep.Problems = append(append(rep.Problems, errs...), warns...)
	rep.Summary.Errors, rep.Summary.Warnings = len(errs), len(warns)
	return rep
}

// ptr returns a pointer to v, or nil for the zero value (a JSON null).
func ptr[T comparable](v T) *T {
	var zero T
	if v == zero {
		return nil
	}
	return &v
}
