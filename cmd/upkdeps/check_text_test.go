package main

import (
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/graph"
)

// TestKindTableSplitsSeverity: a kind with errors and warnings shows both
// counts, so the table adds up to the header's totals.
func TestKindTableSplitsSeverity(t *testing.T) {
	var b strings.Builder
	writeKindTable(&errWriter{w: &b}, []graph.Finding{
		{Kind: graph.MissingPackage, Severity: graph.Error},
		{Kind: graph.MissingPackage, Severity: graph.Warning},
		{Kind: graph.MissingPackage, Severity: graph.Warning},
		{Kind: graph.Cycle, Severity: graph.Error},
	})
	want := "\n  kind               errors warnings\n" +
		"  cycle                   1        0\n" +
		"  missing_package         1        2\n"
	if b.String() != want {
		t.Errorf("have\n%s\nwant\n%s", b.String(), want)
	}
}
