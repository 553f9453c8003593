package check

import (
	"context"
	"testing"

	"github.com/upkdeps/upkdeps/install"
)

// TestNativesOf: on the demo (no binaries: the game's built-in table),
// each package's classes split into native-only and scripted, a package
// with a file names it, and the JSON lists are [] not null.
func TestNativesOf(t *testing.T) {
	in := openDemo(t)
	nat, err := in.Natives()
	if err != nil {
		t.Fatal(err)
	}
	g, err := in.Graph(context.Background(), install.GraphOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rep := NativesOf(in, g, nat)
	if rep.SchemaVersion != NativesSchemaVersion || len(rep.Packages) == 0 || rep.Ignored == nil || len(rep.Ignored) != len(rep.IgnoredFor) {
		t.Fatalf("report: %+v", rep)
	}
	withFile := 0
	for _, p := range rep.Packages {
		if len(p.NativeOnly)+len(p.Scripted) != len(p.Classes) || p.NativeOnly == nil || p.Scripted == nil {
			t.Errorf("%s: %d classes, %d native-only + %d scripted", p.Package, len(p.Classes), len(p.NativeOnly), len(p.Scripted))
		}
		if p.Source.Kind != "table" || p.Source.Table == "" {
			t.Errorf("%s: source %+v, want the built-in table", p.Package, p.Source)
		}
		if p.File != "" {
			withFile++
		}
	}
	if withFile == 0 {
		t.Errorf("no package with native code has its file in the demo: %+v", rep.Packages)
	}
}
