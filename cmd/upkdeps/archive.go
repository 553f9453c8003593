package main

import (
	"io"
	"strings"

	"github.com/upkdeps/upkdeps/index"
	"github.com/upkdeps/upkdeps/internal/textw"
)

// writeArchiveVersions prints the catalogue's versions of a package: one
// block per version, the best item first with its download, then how many
// other items ship the same bytes.
func writeArchiveVersions(w io.Writer, vs []index.ArchiveVersionSummary) error {
	bw := &textw.Writer{W: w}
	if len(vs) == 0 {
		return nil
	}
	bw.Printf("In the Unreal Archive: %d version(s)\n", len(vs))
	for _, v := range vs {
		bw.Printf("  %s  %d bytes  sha1 %s  in %d item(s)\n", v.File, v.Size, v.SHA1, len(v.Items))
		best := v.Items[0]
		dl := best.Download
		if dl == "" {
			dl = "no working download"
		}
		bw.Printf("    best: %s (%s, %s, %d bytes): %s\n", best.Name, strings.ToLower(best.Type), best.ArchiveName, best.Size, dl)
		for _, u := range best.Refused {
			bw.Printf("      refused download (not http or https): %s\n", u)
		}
		for _, it := range v.Items[1:] {
			bw.Printf("    also: %s (%s)\n", it.Name, it.ArchiveName)
		}
	}
	return bw.Err
}
