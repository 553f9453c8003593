package check

import (
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/internal/textw"
)

// TestKindTableSplitsSeverity: a kind with errors and warnings shows both
// counts, so the table adds up to the header's totals.
func TestKindTableSplitsSeverity(t *testing.T) {
	var b strings.Builder
	writeKindTable(&textw.Writer{W: &b}, Summary{
		ByKind:         map[graph.FindingKind]int{graph.MissingPackage: 3, graph.Cycle: 1},
		ErrorsByKind:   map[graph.FindingKind]int{graph.MissingPackage: 1, graph.Cycle: 1},
		WarningsByKind: map[graph.FindingKind]int{graph.MissingPackage: 2},
	})
	want := "\n  kind               errors warnings\n" +
		"  cycle                   1        0\n" +
		"  missing_package         1        2\n"
	if b.String() != want {
		t.Errorf("have\n%s\nwant\n%s", b.String(), want)
	}
}
