package graph

import (
	"io"
	"strings"

	"github.com/upkdeps/upkdeps/internal/textw"
)

// WriteText writes the chain as why prints it without --json: one hop
// per line with the objects it imports, or why there is no hop.
func (c Chain) WriteText(w io.Writer) error {
	bw := &textw.Writer{W: w}
	switch {
	case c.Map:
		bw.Printf("%s is a map: the engine loads it by itself\n", c.To)
	case len(c.Hops) == 0 && c.FromRoots:
		bw.Printf("nothing the ini names and no map needs %s\n", c.To)
	case len(c.Hops) == 0:
		bw.Printf("%s does not need %s\n", c.From, c.To)
	}
	for _, h := range c.Hops {
		bw.Printf("%s -> %s\n", h.From, h.To)
		for _, o := range h.Objects {
			bw.Printf("    %s.%s (%s.%s)\n", h.To, o.Path, o.ClassPackage, o.Class)
		}
		if len(h.Objects) == 0 && !strings.Contains(h.From, ".ini:") {
			bw.Printf("    (the package itself)\n")
		}
	}
	return bw.Err
}
