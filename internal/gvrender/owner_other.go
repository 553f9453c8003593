//go:build !unix

package gvrender

import "io/fs"

// ownedByUser reports true: outside Unix the user's cache folder
// (%LocalAppData% on Windows) is the user's own by its access list.
func ownedByUser(fs.FileInfo) bool { return true }
