package search

import (
	"io"
	"io/fs"
	"os"
	"sort"
	"strings"

	"github.com/upkdeps/upkdeps/internal/fsutil"
)

// FS is the file system a Searcher reads. Names are operating-system paths
// as filepath builds them. A Searcher lists each folder at most once and
// opens a file only to read a package header.
type FS interface {
	// ReadDir lists a folder, in any order. An error means the folder
	// cannot be read; a Searcher treats it as empty (a missing Paths folder
	// is not an error).
	ReadDir(dir string) ([]fs.DirEntry, error)
	// Open opens a file for reading its package header. It must not block:
	// OS refuses anything but a regular file (fsutil.OpenRegular).
	Open(name string) (File, error)
}

// File is an open file as FS returns it; *os.File is one.
type File interface {
	io.ReaderAt
	io.Closer
	Stat() (fs.FileInfo, error)
}

// OS is the operating system's file system.
var OS FS = osFS{}

type osFS struct{}

// ReadDir is os.ReadDir without its sort (a listing sorts its names).
func (osFS) ReadDir(dir string) ([]fs.DirEntry, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadDir(-1)
}

func (osFS) Open(name string) (File, error) {
	f, err := fsutil.OpenRegular(name)
	if err != nil {
		return nil, err // not a typed nil in the interface
	}
	return f, nil
}

// listing is one folder's file names, read once.
type listing struct {
	ok    bool                // the folder could be read
	files map[string]struct{} // exact names of the entries that are not folders
	fold  map[string][]string // lower-cased name -> names, sorted
	names []string            // every name, sorted
	dirs  map[string][]string // lower-cased name -> names of the subfolders, sorted
}

func newListing(entries []fs.DirEntry, err error) *listing {
	l := &listing{ok: err == nil, files: make(map[string]struct{}, len(entries)), fold: make(map[string][]string)}
	for _, e := range entries {
		// A link is taken for a file: telling would cost a stat per link.
		if e.IsDir() {
			if l.dirs == nil {
				l.dirs = make(map[string][]string)
			}
			k := strings.ToLower(e.Name())
			l.dirs[k] = append(l.dirs[k], e.Name())
			continue
		}
		n := e.Name()
		if _, dup := l.files[n]; dup {
			continue
		}
		l.files[n] = struct{}{}
		l.names = append(l.names, n)
	}
	sort.Strings(l.names)
	for _, ds := range l.dirs {
		sort.Strings(ds)
	}
	for _, n := range l.names {
		k := strings.ToLower(n)
		l.fold[k] = append(l.fold[k], n)
	}
	return l
}

func (l *listing) has(name string) bool {
	_, ok := l.files[name]
	return ok
}

// folded returns the names equal to name ignoring case (name itself
// included when present), sorted.
func (l *listing) folded(name string) []string {
	var out []string
	for _, n := range l.fold[strings.ToLower(name)] {
		if strings.EqualFold(n, name) {
			out = append(out, n)
		}
	}
	return out
}

// foldedDirs returns the subfolders named name ignoring case, sorted, name
// itself first when present.
func (l *listing) foldedDirs(name string) []string {
	var out []string
	for _, n := range l.dirs[strings.ToLower(name)] {
		switch {
		case n == name:
			out = append([]string{n}, out...)
		case strings.EqualFold(n, name):
			out = append(out, n)
		}
	}
	return out
}
