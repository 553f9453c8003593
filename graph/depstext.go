package graph

import (
	"io"

	"github.com/upkdeps/upkdeps/internal/textw"
)

// WriteText writes the listing as `upkdeps deps` and `rdeps` print it
// without --json: a table of depth, package, file ("MISSING" for a
// missing package) and the package or ini line it was reached through.
func (d Deps) WriteText(w io.Writer) error {
	bw := &textw.Writer{W: w}
	width := len("PACKAGE")
	for _, e := range d.Entries {
		width = max(width, len(e.Name))
	}
	bw.Printf("%-5s  %-*s  %-32s  %s\n", "DEPTH", width, "PACKAGE", "FILE", "VIA")
	for _, e := range d.Entries {
		file := e.File
		if file == "" {
			file = "MISSING"
		}
		bw.Printf("%5d  %-*s  %-32s  %s\n", e.Depth, width, e.Name, file, e.Via)
	}
	return bw.Err
}
