package graph

import (
	"fmt"
	"strings"
	"testing"
)

// TestFindingWriteText: the lists stop at TextLimit without all and say
// how many more there are; a cycle's packages are one line and its chain
// is evidence, not a chain of imports.
func TestFindingWriteText(t *testing.T) {
	var needed []string
	for i := range TextLimit + 2 {
		needed = append(needed, fmt.Sprintf("P%02d", i))
	}
	f := Finding{Severity: Error, Kind: MissingPackage, Package: "Gone", Message: "not found",
		NeededBy: needed, Chain: []string{"A", "Gone"}}
	var b strings.Builder
	if err := f.WriteText(&b, false); err != nil {
		t.Fatal(err)
	}
	want := "\nERROR missing_package: Gone\n  not found\n  needed by (12):\n" +
		"    P00\n    P01\n    P02\n    P03\n    P04\n    P05\n    P06\n    P07\n    P08\n    P09\n" +
		"    ... and 2 more (--all or --json lists them)\n  chain:\n    A\n    -> Gone\n"
	if b.String() != want {
		t.Errorf("have\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	c := Finding{Severity: Error, Kind: Cycle, Package: "A", Message: "cycle",
		Packages: []string{"A", "B"}, Chain: []string{"A imports B", "B imports A"}}
	if err := c.WriteText(&b, true); err != nil {
		t.Fatal(err)
	}
	want = "\nERROR cycle: A\n  cycle\n  packages: A, B\n  evidence:\n    A imports B\n    B imports A\n"
	if b.String() != want {
		t.Errorf("have\n%s\nwant\n%s", b.String(), want)
	}
}
