package main

import (
	"io"
	"strings"

	"github.com/upkdeps/upkdeps/index"
)

// writeArchiveVersions prints the catalogue's versions of a package: one
// block per version, the best item first with its download, then how many
// other items ship the same bytes.
func writeArchiveVersions(w io.Writer, vs []index.ArchiveVersionSummary) error {
	bw := &errWriter{w: w}
	if len(vs) == 0 {
		return nil
	}
	bw.printf("In the Unreal Archive: %d version(s)\n", len(vs))
	for _, v := range vs {
		bw.printf("  %s  %d bytes  sha1 %s  in %d item(s)\n", v.File, v.Size, v.SHA1, len(v.Items))
		best := v.Items[0]
		dl := best.Download
		if dl == "" {
			dl = "no working download"
		}
		bw.printf("    best: %s (%s, %s, %d bytes): %s\n", best.Name, strings.ToLower(best.Type), best.ArchiveName, best.Size, dl)
		for _, u := range best.Refused {
			bw.printf("      refused download (not http or https): %s\n", u)
		}
		for _, it := range v.Items[1:] {
			bw.printf("    also: %s (%s)\n", it.Name, it.ArchiveName)
		}
	}
	return bw.err
}
