package check

import (
	"io"
	"strings"

	"github.com/upkdeps/upkdeps/internal/textw"
)

// WriteText says in text what the baseline and the disabled kinds left
// out of the report, as check prints it after the findings.
func (s *Suppressed) WriteText(w io.Writer) error {
	bw := &textw.Writer{W: w}
	if s.Baseline != "" {
		bw.Printf("\nBaseline %s: %d finding(s) left out as known", s.Baseline, s.InBaseline)
		if s.Fixed > 0 {
			bw.Printf(", %d of its finding(s) gone (write it again with --write-baseline)", s.Fixed)
		}
		bw.Printf("\n")
	}
	if len(s.Disabled) > 0 {
		kinds := make([]string, len(s.Disabled))
		for i, k := range s.Disabled {
			kinds[i] = string(k)
		}
		bw.Printf("Disabled kinds (%s): %d finding(s) left out\n", strings.Join(kinds, ", "), s.DisabledFindings)
	}
	return bw.Err
}
