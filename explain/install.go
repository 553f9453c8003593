package explain

import (
	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/search"
)

// SearchInstall answers through an install's package lookup.
func SearchInstall(s *search.Searcher, iniPath string) Install {
	return searchInstall{s, iniPath}
}

type searchInstall struct {
	s   *search.Searcher
	ini string
}

func (si searchInstall) Find(pkg string) string { return si.s.Find(pkg).File }
func (si searchInstall) FindGUID(pkg string, guid format.GUID, gen int) string {
	return si.s.FindGUID(pkg, guid, gen).File
}
func (si searchInstall) Rel(path string) string { return si.s.Rel(path) }
func (si searchInstall) IniPath() string        { return si.ini }
func (si searchInstall) Generation() int        { return si.s.Generation() }
