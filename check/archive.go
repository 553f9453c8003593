package check

import (
	"github.com/upkdeps/upkdeps/index"
	"github.com/upkdeps/upkdeps/index/unrealarchive"
)

// ArchiveVersion is one version of a package file in the Unreal Archive's
// catalogue, as check --index, find and plan print it.
type ArchiveVersion struct {
	File  string                  `json:"file"`
	Size  int64                   `json:"size"`
	SHA1  string                  `json:"sha1"`
	Items []unrealarchive.Summary `json:"items"` // best first
	// Unfit marks a file that cannot hold what is imported: a sound or
	// texture package of the name of a missing code package.
	Unfit bool `json:"unfit,omitempty"`
}

// ArchiveVersionOf makes the ArchiveVersion of an indexed catalogue
// version.
func ArchiveVersionOf(v index.ArchiveVersion) ArchiveVersion {
	j := ArchiveVersion{File: v.File, Size: v.Size, SHA1: v.SHA1, Items: []unrealarchive.Summary{}}
	for _, it := range v.Items {
		j.Items = append(j.Items, it.Summary())
	}
	return j
}
