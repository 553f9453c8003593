package header

import (
	"fmt"
	"path/filepath"

	"github.com/upkdeps/upkdeps/check/cifmt"
)

// headerRules are the problems `headers --check` reports, as CI rules.
var headerRules = []cifmt.Rule{
	{ID: "header_stale", Level: cifmt.Error, Short: "Stale C++ header",
		Full: "The generated header (<Pkg>/Inc/<Pkg>Classes.h) differs from what ucc make -h writes from the package's sources.",
		Help: "Run upkdeps headers (or ucc make -h) to write it again, and rebuild the native module."},
	{ID: "header_missing", Level: cifmt.Error, Short: "Missing C++ header",
		Full: "The package has native classes but no generated header on disk.",
		Help: "Run upkdeps headers (or ucc make -h) to write it."},
	{ID: "header_orphaned", Level: cifmt.Error, Short: "Orphaned C++ header",
		Full: "A generated header is on disk but the package has no native class any more.",
		Help: "Remove the header, or make the classes native again."},
	{ID: "header_refused", Level: cifmt.Error, Short: "Not a generated header",
		Full: "The file where the header belongs is not one ucc make -h generated.",
		Help: "Move the file away, or run upkdeps headers --force to replace it."},
}

// CILog turns a check's report into a cifmt.Log: a result per change of a
// stale header, at the source line that causes it (else the header's
// line), and one per missing, orphaned or refused header. root is the
// folder file names are made relative to.
func (r *SyncReport) CILog(version, root string) *cifmt.Log {
	l := &cifmt.Log{Tool: "upkdeps", Version: version, URI: "https://github.com/upkdeps/upkdeps", Root: root,
		Rules: append([]cifmt.Rule(nil), headerRules...)}
	for _, p := range r.Packages {
		hdr := filepath.Join(r.Output, filepath.FromSlash(p.Header))
		if p.Header == "" {
			hdr = headerPath(r.Output, p.Package)
		}
		add := func(rule, msg, file string, line int) {
			l.Results = append(l.Results, cifmt.Result{Rule: rule, Level: cifmt.Error, Message: p.Package + ": " + msg, File: file, Line: line})
		}
		switch p.Status {
		case StatusStale:
			if len(p.Changes) == 0 {
				add("header_stale", "the header differs from the sources", hdr, p.FirstDiff)
			}
			for _, c := range p.Changes {
				msg := fmt.Sprintf("%s %s %s", c.Class, c.Kind, c.Name)
				if c.Want != "" || c.Have != "" {
					msg += fmt.Sprintf(" (sources: %s; header: %s)", orNone(c.Want), orNone(c.Have))
				}
				if f := filepath.FromSlash(c.File); f != "" {
					if !filepath.IsAbs(f) {
						f = filepath.Join(r.Output, f)
					}
					add("header_stale", msg, f, c.Line)
				} else {
					add("header_stale", msg, hdr, c.HeaderLine)
				}
			}
		case StatusMissing:
			add("header_missing", "no generated header", hdr, 0)
		case StatusOrphaned:
			add("header_orphaned", "a header but no native class", hdr, 0)
		case StatusRefused:
			add("header_refused", "not a generated header: "+p.Diagnostic, hdr, 0)
		}
	}
	return l
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
