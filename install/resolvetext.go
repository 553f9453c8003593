package install

import (
	"io"
	"strings"

	"github.com/upkdeps/upkdeps/internal/textw"
	"github.com/upkdeps/upkdeps/search"
)

// WriteResolveText writes the resolutions as resolve prints them without
// --json: the install's header, its Paths folders that do not exist, then
// per name the file found and how, its warnings, every path tried and
// the files it shadows.
func (in *Install) WriteResolveText(w io.Writer, rs search.Resolutions) error {
	bw := &textw.Writer{W: w}
	bw.Printf("upkdeps resolve: %s (%s; %s)\n", in.IniPath, in.GameLabel(), in.RulesLabel())
	if missing := in.Search.MissingPaths(); len(missing) > 0 {
		raw := make([]string, len(missing))
		for i, p := range missing {
			raw[i] = p.Raw
		}
		bw.Printf("Paths folders that do not exist: %s\n", strings.Join(raw, ", "))
	}
	for _, r := range rs.Results {
		if r.File == nil {
			bw.Printf("\n%s: NOT FOUND\n", r.Name)
		} else {
			bw.Printf("\n%s: %s (%s)\n", r.Name, *r.File, r.Via)
		}
		for _, warn := range r.Warnings {
			bw.Printf("  warning: %s\n", warn)
		}
		bw.Printf("  tried (%d):\n", len(r.Tried))
		for _, t := range r.Tried {
			bw.Printf("    %s\n", t)
		}
		if len(r.Shadowed) > 0 {
			bw.Printf("  shadows (never loaded under this name):\n")
			for _, s := range r.Shadowed {
				bw.Printf("    %s\n", s)
			}
		}
	}
	return bw.Err
}
