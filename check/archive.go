package check

import (
	"github.com/upkdeps/upkdeps/index"
	"github.com/upkdeps/upkdeps/index/unrealarchive"
)

// ArchiveItem is an Unreal Archive item as find, check --index and plan
// print it.
type ArchiveItem struct {
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

// ArchiveItemOf makes the ArchiveItem of a catalogue item.
func ArchiveItemOf(it unrealarchive.Item) ArchiveItem {
	j := ArchiveItem{Name: it.Name, Type: it.Type, Game: it.Game, SHA1: it.Hash, Size: it.Size,
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

// ArchiveVersion is one version of a package file in the catalogue.
type ArchiveVersion struct {
	File  string        `json:"file"`
	Size  int64         `json:"size"`
	SHA1  string        `json:"sha1"`
	Items []ArchiveItem `json:"items"` // best first
	// Unfit marks a file that cannot hold what is imported: a sound or
	// texture package of the name of a missing code package.
	Unfit bool `json:"unfit,omitempty"`
}

// ArchiveVersionOf makes the ArchiveVersion of an indexed catalogue
// version.
func ArchiveVersionOf(v index.ArchiveVersion) ArchiveVersion {
	j := ArchiveVersion{File: v.File, Size: v.Size, SHA1: v.SHA1, Items: []ArchiveItem{}}
	for _, it := range v.Items {
		j.Items = append(j.Items, ArchiveItemOf(it))
	}
	return j
}
