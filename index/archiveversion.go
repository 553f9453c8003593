package index

import "github.com/upkdeps/upkdeps/index/unrealarchive"

// ArchiveVersionSummary is one version of a package file in the Unreal
// Archive's catalogue as check --index, find and plan print it: an
// ArchiveVersion with each item's summary.
type ArchiveVersionSummary struct {
	File  string                  `json:"file"`
	Size  int64                   `json:"size"`
	SHA1  string                  `json:"sha1"`
	Items []unrealarchive.Summary `json:"items"` // best first
	// Unfit marks a file that cannot hold what is imported: a sound or
	// texture package of the name of a missing code package.
	Unfit bool `json:"unfit,omitempty"`
}

// Summary is v as printed: its items' summaries, best first.
func (v ArchiveVersion) Summary() ArchiveVersionSummary {
	j := ArchiveVersionSummary{File: v.File, Size: v.Size, SHA1: v.SHA1, Items: []unrealarchive.Summary{}}
	for _, it := range v.Items {
		j.Items = append(j.Items, it.Summary())
	}
	return j
}
