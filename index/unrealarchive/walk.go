package unrealarchive

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/upkdeps/upkdeps/internal/fsutil"
	"github.com/upkdeps/upkdeps/internal/par"
)

// Result is what Walk found in a checkout.
type Result struct {
	Items    []Item    // one per archive, deduplicated by hash, sorted by hash then name
	Warnings []Warning // sorted by path
	Files    int       // metadata files read
}

// Walk reads every .yml file under root (a checkout of
// unreal-archive-data, or any folder of such files) with jobs workers.
// The same archive described twice (the old archive-content/ layout and
// the newer content/ one) is kept once: the newer description wins.
// Unreadable files are warnings; only a root that cannot be listed, or a
// cancelled ctx, is an error.
func Walk(ctx context.Context, root string, jobs int) (*Result, error) {
	var paths []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			return nil // an unreadable sub-folder: its files are simply not there
		}
		if d.Type().IsRegular() && strings.EqualFold(filepath.Ext(p), ".yml") {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(paths)
	type parsed struct {
		items []Item
		warns []Warning
	}
	out := make([]parsed, len(paths))
	if err := par.ForEach(ctx, len(paths), jobs, func(_, i int) {
		rel, _ := filepath.Rel(root, paths[i])
		rel = filepath.ToSlash(rel)
		data, err := readLimited(paths[i])
		if err != nil {
			out[i].warns = []Warning{{rel, err.Error()}}
			return
		}
		items, warns, err := Parse(rel, data)
		if err != nil {
			warns = append(warns, Warning{rel, strings.TrimPrefix(err.Error(), rel+": ")})
		}
		out[i] = parsed{items, warns}
	}); err != nil {
		return nil, err
	}
	res := &Result{Files: len(paths)}
	byHash := map[string]int{} // index in res.Items
	for _, p := range out {
		res.Warnings = append(res.Warnings, p.warns...)
		for _, it := range p.items {
			if it.Hash == "" {
				res.Items = append(res.Items, it)
				continue
			}
			if j, ok := byHash[it.Hash]; ok {
				if newer(it.Path, res.Items[j].Path) {
					res.Items[j] = it
				}
				continue
			}
			byHash[it.Hash] = len(res.Items)
			res.Items = append(res.Items, it)
		}
	}
	slices.SortFunc(res.Items, func(a, b Item) int {
		if c := strings.Compare(a.Hash, b.Hash); c != 0 {
			return c
		}
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return strings.Compare(a.Path, b.Path)
	})
	slices.SortStableFunc(res.Warnings, func(a, b Warning) int { return strings.Compare(a.Path, b.Path) })
	return res, nil
}

// newer reports whether metadata file a is a newer description than b:
// the content/ layout replaced archive-content/.
func newer(a, b string) bool {
	oldA, oldB := strings.HasPrefix(a, "archive-content/"), strings.HasPrefix(b, "archive-content/")
	if oldA != oldB {
		return oldB
	}
	return a < b
}

// readLimited reads a regular file of at most MaxFileSize bytes.
func readLimited(path string) ([]byte, error) {
	b, err := fsutil.ReadRegular(path, MaxFileSize)
	if errors.Is(err, fsutil.ErrTooBig) {
		return nil, &os.PathError{Op: "read", Path: path, Err: errSize}
	}
	return b, err
}
