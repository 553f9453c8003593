package install

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/upkdeps/upkdeps/internal/textw"
)

// WriteText writes the report as order prints it without --json: the
// EditPackages line, what was read from sources or compiled packages, the
// verdict and findings, the suggested order and, with explain, every
// constraint with the import that imposes it.
func (rep OrderReport) WriteText(w io.Writer, explain bool) error {
	bw := &textw.Writer{W: w}
	res := rep.OrderResult
	bw.Printf("upkdeps order: %s\n", rep.Ini)
	bw.Printf("EditPackages (%d): %s\n", len(res.EditPackages), strings.Join(res.EditPackages, " "))
	if len(rep.Sources) > 0 {
		bw.Printf("Read from sources (Classes/*.uc): %s\n", strings.Join(rep.Sources, " "))
	} else {
		bw.Printf("No sources found\n")
	}
	if len(rep.Compiled) > 0 {
		bw.Printf("Read from the compiled .u: %s\n", strings.Join(rep.Compiled, " "))
	}
	checked := fmt.Sprintf("Checked %d of %d entries", res.Checked, res.Checked+len(res.Unchecked))
	if len(res.Rebuilt) > 0 {
		checked += fmt.Sprintf("; ucc make rebuilds %d: %s", len(res.Rebuilt), strings.Join(res.Rebuilt, " "))
	}
	bw.Printf("%s\n", checked)
	for _, u := range res.Unchecked {
		bw.Printf("  unchecked: %s: %s\n", u.Package, u.Reason)
	}
	bw.Printf("%s\n", res.Verdict)
	if u := res.UncheckedNames; u != nil {
		bw.Printf("Note: %s\n", u.Message)
	}
	for _, f := range res.Findings {
		bw.Do(func(w io.Writer) error { return f.WriteText(w, true) })
	}
	switch {
	case res.Suggested == nil:
		bw.Printf("\nNo order can work until the cycle above is broken.\n")
	case !res.Valid && !slices.Equal(res.Suggested, res.EditPackages):
		bw.Printf("\nSuggested order (paste into [Editor.EditorEngine]):\n")
		for _, n := range res.Suggested {
			bw.Printf("EditPackages=%s\n", n)
		}
	}
	if explain {
		bw.Printf("\nConstraints (%d):\n", len(res.Constraints))
		for _, c := range res.Constraints {
			bw.Printf("  %s needs %s: %s\n", c.Package, c.On, c.Evidence)
		}
	}
	return bw.Err
}
