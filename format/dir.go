package format

import (
	"os"
	"strings"
)

// Dir is a folder whose packages a Reader reads by name (ViewIn). Where
// the platform allows it (Linux, macOS) the folder is held open and each
// package's stat and open are made relative to it: the kernel then looks
// up one name a file, not every folder of its path again (a scan reads
// tens of thousands of packages from a few folders). Elsewhere, or when
// the folder cannot be opened, its packages are read by path; either way
// they are checked as View checks them (a pipe or device named like a
// package is never opened).
type Dir struct {
	path string
	fd   int // the open folder; -1: read by path
}

// OpenDir returns the Dir of the folder path. It does not fail: a folder
// that cannot be opened is read by path, and its files' errors say why.
func OpenDir(path string) *Dir { return &Dir{path: path, fd: openDirFD(path)} }

// Path returns the folder's path.
func (d *Dir) Path() string { return d.path }

// Close lets the folder go; the Dir reads by path afterwards.
func (d *Dir) Close() {
	if d.fd >= 0 {
		closeDirFD(d.fd)
		d.fd = -1
	}
}

// ViewIn is View for path, a package file in d: read relative to d when
// path is d's path, a separator and a file name; else by path.
func (rd *Reader) ViewIn(d *Dir, path string) (*View, error) {
	fd, name := -1, ""
	if rest, ok := strings.CutPrefix(path, d.path); ok && len(rest) > 1 && os.IsPathSeparator(rest[0]) {
		name = rest[1:]
		if name != "." && name != ".." && !strings.ContainsAny(name, `/\`) {
			fd = d.fd
		}
	}
	fh, size, err := rd.openFileIn(fd, name, path)
	if err != nil {
		return nil, openError(path, err)
	}
	defer fh.Close()
	return rd.ViewAt(fh, size, path)
}
