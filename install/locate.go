package install

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"

	"github.com/upkdeps/upkdeps/graph"
)

// Location is where a finding is caused on disk: an ini line, an
// UnrealScript source line, or a package file as a whole (Line 0).
type Location struct {
	File string // absolute
	Line int    // 1-based; 0 for the whole file
}

var (
	// iniEvidence is a root's evidence (graph.Root.Evidence):
	// "Demo.ini:25 ServerPackages=DemoVoices".
	// The localisation files' lines (Foo.int:3 Object=...) are alike.
	iniEvidence = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([^:/\\ ]+\.[A-Za-z0-9_]+):([0-9]+) `) })
	// sourceEvidence is a source line in a chain: "DemoGame/Classes/X.uc:6: text".
	sourceEvidence = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(.+\.[uU][cC]):([0-9]+): `) })
	// fileEvidence is a chain's package: "DM-Demo (Maps/DM-Demo.unr)".
	fileEvidence = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[^ ]+ \((.+)\)$`) })
)

// Locate returns where f is caused, most specific first: the first ini
// line among its roots (the lines that name its package); else the first
// UnrealScript line of its chain; else the file of its package; else the
// last package file its chain names (the importer of a missing package);
// else the first ini line of its chain; else the ini itself.
// Ini evidence names a file in the ini's folder by its base name (an
// .ini, or a localisation file such as Foo.int).
func (in *Install) Locate(f graph.Finding) Location {
	iniPath := in.IniPath
	if abs, err := filepath.Abs(iniPath); err == nil {
		iniPath = abs
	}
	iniDir := filepath.Dir(iniPath)
	root := in.Search.Root()
	fromIni := func(s string) (Location, bool) {
		m := iniEvidence().FindStringSubmatch(s)
		if m == nil {
			return Location{}, false
		}
		n, err := strconv.Atoi(m[2])
		if err != nil {
			return Location{}, false
		}
		return Location{File: filepath.Join(iniDir, m[1]), Line: n}, true
	}
	for _, r := range f.Roots {
		if l, ok := fromIni(r); ok {
			return l
		}
	}
	for _, c := range f.Chain {
		if m := sourceEvidence().FindStringSubmatch(c); m != nil {
			if n, err := strconv.Atoi(m[2]); err == nil {
				file := filepath.FromSlash(m[1])
				if !filepath.IsAbs(file) {
					file = filepath.Join(root, file)
				}
				return Location{File: file, Line: n}
			}
		}
	}
	if f.Package != "" {
		if r := in.Search.Find(f.Package); r.File != "" {
			return Location{File: r.File}
		}
	}
	for i := len(f.Chain) - 1; i >= 0; i-- {
		if m := fileEvidence().FindStringSubmatch(f.Chain[i]); m != nil && m[1] != "missing" {
			file := filepath.Join(root, filepath.FromSlash(m[1]))
			if st, err := os.Stat(file); err == nil && st.Mode().IsRegular() {
				return Location{File: file}
			}
		}
	}
	for _, c := range f.Chain {
		if l, ok := fromIni(c); ok {
			return l
		}
	}
	return Location{File: iniPath}
}
