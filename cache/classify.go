package cache

import (
	"context"
	"errors"
	"path/filepath"
	"strings"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/internal/par"
	"github.com/upkdeps/upkdeps/search"
)

// Classify looks up every named entry in the installation s describes, the
// way the engine does for a package of a server's package map (by name and
// GUID, the cache last), and records the installed file the engine would
// load instead of the cache file. An ok entry becomes installed_same when
// that file has the entry's GUID (the cache copy is redundant) and
// installed_other when it has another (the engine loads the installed
// version and the client fails with a version mismatch). Entries in other
// states keep them but still get Installed, InstalledFile and
// InstalledGUID, which extract and clean use. Headers are read with the
// Cache's jobs.
func (c *Cache) Classify(s *search.Searcher) {
	if s == nil {
		return
	}
	par.ForEach(context.Background(), len(c.entries), c.jobs, func(_, i int) {
		if c.entries[i].Name != "" {
			c.classify(s, &c.entries[i])
		}
	})
}

func (c *Cache) classify(s *search.Searcher, e *Entry) {
	guid, err := format.ParseGUID(e.GUID)
	if err != nil {
		return
	}
	r := s.FindGUID(PackageName(e.Name), guid, e.Generation)
	if !r.Found() || r.Step == search.StepCache || samePath(filepath.Dir(r.File), c.Dir) {
		return
	}
	e.Installed, e.InstalledFile, e.installedIndex = r.Rel, r.File, r.PathIndex
	f, err := format.Open(r.File)
	if err != nil {
		var pe *format.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		e.InstalledGUID = ""
		if e.State == StateOK {
			e.State = StateInstalledOther
			e.Detail = "installed file unreadable: " + err.Error()
		}
		return
	}
	e.InstalledGUID = f.GUID.String()
	f.Close()
	if e.State != StateOK {
		return
	}
	if e.InstalledGUID == e.GUID {
		e.State = StateInstalledSame
	} else {
		e.State = StateInstalledOther
		e.Detail = "installed GUID " + e.InstalledGUID
	}
}

// PackageName is the package a cache entry's file name holds: the name
// without its extension ("Nexgen112.u" holds Nexgen112).
func PackageName(fileName string) string {
	if i := strings.LastIndexByte(fileName, '.'); i > 0 {
		return fileName[:i]
	}
	return fileName
}

// samePath compares two cleaned absolute paths as the file system would.
func samePath(a, b string) bool {
	return filepath.Clean(a) == filepath.Clean(b)
}
