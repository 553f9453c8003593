package main

import (
	"io"
	"strings"

	"github.com/upkdeps/upkdeps/index"
	"github.com/upkdeps/upkdeps/index/unrealarchive"
)

// archiveItemJSON is an Unreal Archive item as find, check --index and
// plan print it (README.md).
type archiveItemJSON struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Game        string `json:"game"`
	SHA1        string `json:"sha1"`
	Size        int64  `json:"size"`
	ArchiveName string `json:"archive_name"`
	VariationOf string `json:"variation_of,omitempty"`
	Download    string `json:"download"` // the best working download; "" when none works
	Direct      bool   `json:"direct"`
	Metadata    string `json:"metadata"` // the metadata file, relative to the checkout
	// Refused are the item's download URLs that are not http(s)
	// (javascript:, file:, data:, ...): shown, never offered.
	Refused []string `json:"refused_downloads,omitempty"`
}

func archiveItemOf(it unrealarchive.Item) archiveItemJSON {
	j := archiveItemJSON{Name: it.Name, Type: it.Type, Game: it.Game, SHA1: it.Hash, Size: it.Size,
		ArchiveName: it.ArchiveName, VariationOf: it.VariationOf, Metadata: it.Path}
	if d := unrealarchive.BestDownload(it); d != nil {
		j.Download, j.Direct = d.URL, d.Direct
	}
	for _, d := range it.Downloads {
		if !unrealarchive.WebURL(d.URL) {
			j.Refused = append(j.Refused, d.URL)
		}
	}
	return j
}

// archiveVersionJSON is one version of a package file in the catalogue.
type archiveVersionJSON struct {
	File  string            `json:"file"`
	Size  int64             `json:"size"`
	SHA1  string            `json:"sha1"`
	Items []archiveItemJSON `json:"items"` // best first
	// Unfit marks a file that cannot hold what is imported: a sound or
	// texture package of the name of a missing code package.
	Unfit bool `json:"unfit,omitempty"`
}

func archiveVersionOf(v index.ArchiveVersion) archiveVersionJSON {
	j := archiveVersionJSON{File: v.File, Size: v.Size, SHA1: v.SHA1, Items: []archiveItemJSON{}}
	for _, it := range v.Items {
		j.Items = append(j.Items, archiveItemOf(it))
	}
	return j
}

// writeArchiveVersions prints the catalogue's versions of a package: one
// block per version, the best item first with its download, then how many
// other items ship the same bytes.
func writeArchiveVersions(w io.Writer, vs []archiveVersionJSON) error {
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
