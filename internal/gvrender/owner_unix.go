//go:build unix

package gvrender

import (
	"io/fs"
	"os"
	"syscall"
)

// ownedByUser reports whether the file of fi belongs to the effective user.
func ownedByUser(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}
