package graph

import (
	"io"
	"strings"

	"github.com/upkdeps/upkdeps/internal/textw"
)

// TextLimit is how many objects, importers or packages a finding's text
// lists when not asked for all of them.
const TextLimit = 10

// WriteText writes the finding as check's text report shows it: a blank
// line, the severity, kind and package, the message, then its objects,
// importers, ini roots, packages and evidence or chain. Without all, each
// list stops at TextLimit items and says how many more there are.
func (f Finding) WriteText(w io.Writer, all bool) error {
	bw := &textw.Writer{W: w}
	f.writeText(bw, all)
	return bw.Err
}

func (f Finding) writeText(bw *textw.Writer, all bool) {
	bw.Printf("\n%s %s: %s\n", strings.ToUpper(string(f.Severity)), f.Kind, f.Package)
	bw.Printf("  %s\n", f.Message)
	list := func(label string, items []string) {
		if len(items) == 0 {
			return
		}
		shown := items
		if !all && len(shown) > TextLimit {
			shown = shown[:TextLimit]
		}
		bw.Printf("  %s (%d):\n", label, len(items))
		for _, it := range shown {
			bw.Printf("    %s\n", it)
		}
		if len(shown) < len(items) {
			bw.Printf("    ... and %d more (--all or --json lists them)\n", len(items)-len(shown))
		}
	}
	list("objects", ObjectStrings(f.Objects))
	list("needed by", f.NeededBy)
	named := "named in the ini"
	for _, r := range f.Roots {
		if strings.HasPrefix(r, CommandLine+" ") {
			named = "named in the ini or on the command line"
		}
	}
	list(named, f.Roots)
	if f.Kind != Cycle {
		list("packages", f.Packages)
	} else {
		bw.Printf("  packages: %s\n", strings.Join(f.Packages, ", "))
	}
	if len(f.Chain) > 0 {
		if f.Kind == Cycle || f.Kind == EditOrder || f.Kind == EditMissing || f.Kind == UnknownClass {
			bw.Printf("  evidence:\n")
			for _, c := range f.Chain {
				bw.Printf("    %s\n", c)
			}
			return
		}
		bw.Printf("  chain:\n")
		for i, c := range f.Chain {
			if i == 0 {
				bw.Printf("    %s\n", c)
			} else {
				bw.Printf("    -> %s\n", c)
			}
		}
	}
}
