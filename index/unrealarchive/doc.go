// Package unrealarchive reads the metadata of the Unreal Archive
// (unrealarchive.org), which it publishes as the public repository
// unreal-archive/unreal-archive-data: one YAML file per content item (map,
// map pack, mutator, skin, model, voice), per gametype (with its releases)
// and per managed file (patches, bonus packs), listing the package files
// each archive ships with their SHA-1 and size, the packages they import
// (the "dependencies" hints) and where the archive can be downloaded.
//
// Walk reads a checkout of that repository in parallel and yields one Item
// per downloadable archive: a content item, each file of a gametype
// release, each download of a managed item. All three generations of the
// download schema are read: the oldest (archive-content/: main, ok,
// repack, deleted), the middle one (main, repack, state) and the newest
// (direct, state).
//
// Plan chooses the fewest items that bring a set of missing packages;
// Verify checks the archives downloaded into a folder against the items'
// SHA-1 and size; Item.Summary is an item as the commands print it.
//
// # Security
//
// The YAML is untrusted input. A file larger than MaxFileSize is not read;
// the decoder's own alias limit refuses billion-laughs documents; custom
// tags (--- !<MAP>) are accepted and ignored; a file that does not parse,
// or an item whose hash is not 40 hex digits, is a Warning naming the
// file, never the end of the walk. Paths are only read, never written.
package unrealarchive
