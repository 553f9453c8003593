package check

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/ini"
)

// Bounds of the look for a package file outside Paths: the folders of the
// game root and the files of each that are read.
const (
	outsideMaxDirs  = 256
	outsideMaxFiles = 100_000
)

// packageFilesOutside returns the package files (an extension IsPackageExt
// knows) named name, any case, in root and in the folders directly below
// it, as paths relative to root with "/", sorted: where a package that no
// Paths entry finds may yet be in the install. The look is bounded
// (outsideMaxDirs folders, outsideMaxFiles names in all); unreadable
// folders are skipped.
func packageFilesOutside(root, name string) []string {
	var out []string
	seen := 0
	look := func(dir, rel string) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			if seen++; seen > outsideMaxFiles {
				return
			}
			n := e.Name()
			ext := filepath.Ext(n)
			if !e.Type().IsRegular() || !ini.IsPackageExt(ext) || !strings.EqualFold(strings.TrimSuffix(n, ext), name) {
				continue
			}
			out = append(out, strings.TrimPrefix(rel+"/"+n, "./"))
		}
	}
	look(root, ".")
	entries, err := os.ReadDir(root)
	if err != nil {
		return out
	}
	dirs := 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if dirs++; dirs > outsideMaxDirs {
			break
		}
		look(filepath.Join(root, e.Name()), e.Name())
	}
	slices.Sort(out)
	return out
}

// noteOutsidePaths tells, in each edit_missing finding whose package file
// is in the install but where no Paths entry reaches it, where the file is
// and that Paths does not reach it (the message said no such file was
// present).
func noteOutsidePaths(fs []graph.Finding, root string) {
	for i := range fs {
		f := &fs[i]
		if f.Kind != graph.EditMissing {
			continue
		}
		files := packageFilesOutside(root, f.Package)
		if len(files) == 0 {
			continue
		}
		where := fmt.Sprintf("%s is in the install, but no Paths entry reaches it", strings.Join(files, ", "))
		if len(files) > 1 {
			where = fmt.Sprintf("%s are in the install, but no Paths entry reaches them", strings.Join(files, ", "))
		}
		if before, ok := strings.CutSuffix(f.Message, ", and no package file of that name is present"); ok {
			f.Message = before + ": " + where
		} else {
			f.Message += ": " + where
		}
	}
}
