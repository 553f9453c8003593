package explain

import (
	"io"

	"github.com/upkdeps/upkdeps/internal/textw"
)

// WriteText writes the report as explain prints it without --json: the
// header and counts, each explained line with what, why, the chain that
// loaded its package and the fix, then the lines not understood.
func (rep *Report) WriteText(w io.Writer) error {
	bw := &textw.Writer{W: w}
	bw.Printf("upkdeps explain: %s (%s, %d lines", rep.Log, rep.Encoding, rep.Lines)
	if rep.LinesTruncated > 0 {
		bw.Printf(", %d cut at %d bytes", rep.LinesTruncated, MaxLineLength)
	}
	bw.Printf(")\n")
	if rep.Install != "" {
		bw.Printf("answered against %s\n", rep.Install)
	}
	bw.Printf("%d line(s) explained, %d problem(s), %d not understood\n", len(rep.Explained), rep.Problems, len(rep.NotUnderstood))
	if rep.Dropped > 0 {
		bw.Printf("%d more line(s) over the listing bounds, not listed\n", rep.Dropped)
	}
	for _, l := range rep.Explained {
		mark := "ok"
		if l.Problem {
			mark = "PROBLEM"
		}
		bw.Printf("\nline %d: %s %s %s\n  %s\n  what: %s\n", l.Number, mark, l.Kind, l.Package, l.Text, l.What)
		if l.Why != "" {
			bw.Printf("  why: %s\n", l.Why)
		}
		for i, c := range l.Chain {
			if i == 0 {
				bw.Printf("  loaded because: %s\n", c)
			} else {
				bw.Printf("    %s\n", c)
			}
		}
		if l.Fix != "" {
			bw.Printf("  fix: %s\n", l.Fix)
		}
	}
	for _, l := range rep.NotUnderstood {
		bw.Printf("\nline %d: NOT UNDERSTOOD\n  %s\n", l.Number, l.Text)
	}
	return bw.Err
}
