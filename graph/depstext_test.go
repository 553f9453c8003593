package graph

import (
	"strings"
	"testing"
)

// TestDepsWriteText: the table's package column is as wide as the
// longest name (at least "PACKAGE"), a missing package's file is MISSING.
func TestDepsWriteText(t *testing.T) {
	d := Deps{Package: "Mod", Entries: []DepEntry{
		{Name: "Core", File: "System/Core.u", Depth: 1, Via: "Mod"},
		{Name: "AVeryLongName", Depth: 2, Via: "Core"},
	}}
	var b strings.Builder
	if err := d.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := "DEPTH  PACKAGE        FILE                              VIA\n" +
		"    1  Core           System/Core.u                     Mod\n" +
		"    2  AVeryLongName  MISSING                           Core\n"
	if b.String() != want {
		t.Errorf("have\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	if err := (Deps{}).WriteText(&b); err != nil || b.String() != "DEPTH  PACKAGE  FILE                              VIA\n" {
		t.Errorf("empty: %q, %v", b.String(), err)
	}
}
