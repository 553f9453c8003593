package header

import (
	"fmt"
	"io"
	"path"

	"github.com/upkdeps/upkdeps/internal/textw"
)

// WriteText writes the report as headers prints it without --json: one
// line per package with a header to report (with verbose, every package),
// its changes class by class or its first differing line, then the count
// of stale or written headers.
func (rep *SyncReport) WriteText(w io.Writer, verbose bool) error {
	bw := &textw.Writer{W: w}
	bw.Printf("upkdeps headers: %s (layout %s, %s)\n", rep.Root, rep.Layout, rep.Mode)
	for _, p := range rep.Packages {
		switch p.Status {
		case StatusNone:
			if verbose {
				bw.Printf("%s: no native class, no header\n", p.Package)
			}
			continue
		case StatusNoSources:
			if verbose || p.Header != "" {
				bw.Printf("%s: no sources (Classes/*.uc): header not generated or checked\n", p.Package)
			}
			continue
		case StatusCurrent, StatusUnchanged:
			if verbose {
				bw.Printf("%s: %s up to date (%d classes)\n", p.Package, p.Header, p.Classes)
			}
			continue
		}
		switch p.Status {
		case StatusStale:
			bw.Printf("%s: %s is STALE (%d classes)\n", p.Package, p.Header, p.Classes)
		case StatusMissing:
			bw.Printf("%s: %s is MISSING (%d classes)\n", p.Package, p.Header, p.Classes)
		case StatusOrphaned:
			bw.Printf("%s: %s: %s\n", p.Package, p.Header, p.Diagnostic)
		case StatusWritten:
			bw.Printf("%s: wrote %s (%d classes)\n", p.Package, p.Header, p.Classes)
		case StatusWouldWrite:
			bw.Printf("%s: would write %s (%d classes)\n", p.Package, p.Header, p.Classes)
		case StatusRefused:
			bw.Printf("%s: not writing %s: %s\n", p.Package, p.Header, p.Diagnostic)
		}
		class := ""
		for _, c := range p.Changes {
			if c.Class != class && c.Class != "" {
				class = c.Class
				bw.Printf("  %s:\n", class)
			}
			bw.Printf("    %s\n", changeText(c, p.Header))
		}
		switch {
		case p.Status == StatusStale && len(p.Changes) == 0:
			bw.Printf("    layout differs at line %d (order or spelling):\n      want: %s\n      have: %s\n", p.FirstDiff, p.FirstWant, p.FirstHave)
		case p.Status == StatusStale:
			bw.Printf("    first differing line %d:\n      want: %s\n      have: %s\n", p.FirstDiff, p.FirstWant, p.FirstHave)
		}
	}
	switch rep.Mode {
	case ModeCheck:
		if rep.Stale == 0 {
			bw.Printf("All headers match their sources.\n")
		} else {
			bw.Printf("%d header(s) stale.\n", rep.Stale)
		}
	case ModeWrite:
		bw.Printf("%d header(s) written.\n", rep.Written)
	}
	return bw.Err
}

// changeText formats one change: where, what, want and have.
func changeText(c SyncChange, hdr string) string {
	var at string
	switch {
	case c.File != "":
		at = fmt.Sprintf("%s:%d: ", c.File, c.Line)
	case c.HeaderLine > 0:
		at = fmt.Sprintf("%s:%d: ", hdr, c.HeaderLine)
	}
	s := at + c.Kind + ": " + c.Name
	switch c.Kind {
	case NamesChanged:
		s = at + c.Kind + ":"
		if c.Want != "" {
			s += " added " + c.Want
		}
		if c.Have != "" {
			if c.Want != "" {
				s += ";"
			}
			s += " removed " + c.Have
		}
		return s
	case OrderChanged:
		return s + " (the same, in another order)"
	case PackingChanged:
		s += fmt.Sprintf(": want %s, have %s", c.Want, c.Have)
		if c.File != "" && c.HeaderLine > 0 {
			s += fmt.Sprintf(" [%s:%d]", path.Base(hdr), c.HeaderLine)
		}
		return s
	}
	switch {
	case c.Want != "" && c.Have != "":
		s += fmt.Sprintf(" (want %s, have %s)", c.Want, c.Have)
	case c.Want != "":
		s += " (" + c.Want + ")"
	case c.Have != "":
		s += " (was " + c.Have + ")"
	}
	if c.File != "" && c.HeaderLine > 0 {
		s += fmt.Sprintf(" [%s:%d]", path.Base(hdr), c.HeaderLine)
	}
	return s
}
