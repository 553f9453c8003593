package cache

import (
	"bufio"
	"crypto/sha256"
	"errors"
	"io"
	"os"
	"slices"

	"github.com/upkdeps/upkdeps/internal/fsutil"
	"github.com/upkdeps/upkdeps/search"
	"github.com/upkdeps/upkdeps/uz"
)

// CleanOptions say what PlanClean removes. With none of Orphans, Tmp and
// Installed set it considers all three.
type CleanOptions struct {
	Orphans   bool // cache files with no cache.ini name
	Tmp       bool // stray download files and interrupted upkdeps writes
	Installed bool // entries whose package is installed (installed_same)
	// Installation, when set, is searched for copies of orphans and of what
	// stray downloads hold; nil looks in the cache only.
	Installation *search.Searcher
}

// PlanClean plans removing what is provably redundant, and only that:
//
//   - an installed_same entry whose installed file has the same bytes (the
//     cache file is removed and its cache.ini value emptied, as after the
//     engine's own move);
//   - an orphan file that is not a package, or whose bytes exist in another
//     file of the cache or the installation;
//   - a stray download that is not usable (not a package nor a compressed
//     one, a package cut short, compressed data that does not decompress)
//     or whose content, decompressed when compressed, exists in another
//     file; and every temporary file of an interrupted upkdeps write.
//
// Anything that may be the only copy of a package is kept, with a skip line
// saying so. "Another file" is never the same file under another name (a
// hard link). Classify first, for installed_same.
func (c *Cache) PlanClean(opt CleanOptions) *Plan {
	if !opt.Orphans && !opt.Tmp && !opt.Installed {
		opt.Orphans, opt.Tmp, opt.Installed = true, true, true
	}
	p := c.newWritePlan()
	cp := c.newCopies(opt.Installation)
	for i := range c.entries {
		e := &c.entries[i]
		switch {
		case opt.Installed && e.State == StateInstalledSame:
			if cp.identical(e.File, e.InstalledFile) {
				p.Actions = append(p.Actions,
					Action{Op: OpRemove, Src: e.File, Why: becausePath("installed as ", e.InstalledFile, "")},
					c.iniAction(e.Key, "", e.Name, false))
			} else {
				p.Actions = append(p.Actions, Action{Op: OpSkip, Subject: subject(e),
					Why: becausePath("installed as ", e.InstalledFile, " with the same GUID but other bytes: kept")})
			}
		case opt.Installed && e.State == StateMissingFile && e.InstalledGUID == e.GUID:
			// The second half of the removal above, interrupted after the
			// file went: the package is installed, the line names nothing.
			p.Actions = append(p.Actions, c.iniAction(e.Key, "", e.Name, false))
		case opt.Orphans && e.Orphan():
			switch other := cp.ofFile(e.File, e.Size); {
			case e.State == StateNotAPackage:
				p.Actions = append(p.Actions, Action{Op: OpRemove, Src: e.File, Why: because("orphan, not a package")})
			case other != "":
				p.Actions = append(p.Actions, Action{Op: OpRemove, Src: e.File, Why: becausePath("orphan, same bytes as ", other, "")})
			default:
				p.Actions = append(p.Actions, Action{Op: OpSkip, Subject: subject(e),
					Why: because("orphan, but the only copy of its package: kept")})
			}
		}
	}
	if opt.Tmp {
		for _, s := range c.strays {
			if s.Kind == KindOwnTemp {
				continue // newWritePlan removed it
			}
			a := cp.strayAction(s)
			p.Actions = append(p.Actions, a)
		}
	}
	return p
}

// copies finds files with given bytes among the cache's files and the
// installation's packages, by size first.
type copies struct {
	bySize  map[int64][]string
	hashes  map[string][sha256.Size]byte
	workers int // goroutines of a decoder: strays are decompressed one after another
}

func (c *Cache) newCopies(s *search.Searcher) *copies {
	cp := &copies{bySize: map[int64][]string{}, hashes: map[string][sha256.Size]byte{}, workers: c.jobs}
	add := func(path string) {
		if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
			cp.bySize[st.Size()] = append(cp.bySize[st.Size()], path)
		}
	}
	for _, e := range c.entries {
		if e.File != "" {
			add(e.File)
		}
	}
	if s != nil {
		for _, pkg := range s.Packages() {
			add(pkg.File)
		}
	}
	for _, paths := range cp.bySize {
		slices.SortFunc(paths, fsutil.ComparePaths)
	}
	return cp
}

// identical reports whether a and b are two files (not one file under two
// names) with the same bytes.
func (cp *copies) identical(a, b string) bool {
	if a == "" || b == "" || samePath(a, b) {
		return false
	}
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	if err1 != nil || err2 != nil || os.SameFile(sa, sb) {
		return false
	}
	same, err := fsutil.SameContent(a, b)
	return err == nil && same
}

// ofFile returns another file with the bytes of path (size bytes), or "".
func (cp *copies) ofFile(path string, size int64) string {
	for _, other := range cp.bySize[size] {
		if cp.identical(path, other) {
			return other
		}
	}
	return ""
}

// ofStream returns a file holding the n bytes whose SHA-256 is sum, or "".
func (cp *copies) ofStream(n int64, sum [sha256.Size]byte) string {
	for _, other := range cp.bySize[n] {
		h, ok := cp.hashes[other]
		if !ok {
			f, err := fsutil.OpenRegular(other)
			if err != nil {
				continue
			}
			d := sha256.New()
			_, err = io.Copy(d, f)
			f.Close()
			if err != nil {
				continue
			}
			copy(h[:], d.Sum(nil))
			cp.hashes[other] = h
		}
		if h == sum {
			return other
		}
	}
	return ""
}

// strayAction decides whether a stray download may go: a removal, or a
// skip saying why it is kept.
func (cp *copies) strayAction(s Stray) Action {
	remove := func(reason string) Action { return Action{Op: OpRemove, Src: s.File, Why: because(reason)} }
	keep := func(reason string) Action { return Action{Op: OpSkip, Src: s.File, Why: because(reason)} }
	switch s.Kind {
	case KindOwnTemp:
		return remove("left by an interrupted upkdeps write")
	case KindUnknown:
		if s.Size == 0 {
			return remove("empty download file")
		}
		return remove("download file holding neither a package nor compressed data")
	case KindPartial:
		if headerGUID(s.File) == "" {
			return remove("package download cut short (its tables are not all there)")
		}
		if other := cp.ofFile(s.File, s.Size); other != "" {
			return Action{Op: OpRemove, Src: s.File, Why: becausePath("finished download, same bytes as ", other, "")}
		}
		return keep("a complete package that may be the only copy: kept")
	}
	f, err := fsutil.OpenRegular(s.File)
	if err != nil {
		return keep("cannot read it: " + err.Error())
	}
	defer f.Close()
	// Decompress it all (the output is only hashed): a stream that does not
	// decode to its end is an interrupted download, whatever its size.
	const limit = 0 // uz.DefaultLimit
	var r io.ReadCloser
	if s.Kind == KindUZ {
		zr, err := uz.NewReader(bufio.NewReader(f), limit)
		if err != nil {
			return remove(".uz download that does not decompress: " + err.Error())
		}
		zr.SetWorkers(cp.workers)
		r = zr
	} else {
		zr := uz.NewReader2(bufio.NewReader(f), limit)
		zr.SetWorkers(cp.workers)
		r = zr
	}
	defer r.Close()
	d := sha256.New()
	n, err := io.Copy(d, r)
	what := "." + s.Kind
	if s.Original != "" {
		what += " of " + Printable(s.Original)
	}
	switch {
	case errors.Is(err, uz.ErrLimit):
		return keep(what + ": decompresses to more than 1 GiB: kept")
	case err != nil && !errors.Is(err, uz.ErrNonCanonical):
		return remove(what + " that does not decompress (an interrupted download): " + err.Error())
	}
	var sum [sha256.Size]byte
	copy(sum[:], d.Sum(nil))
	if other := cp.ofStream(n, sum); other != "" {
		return Action{Op: OpRemove, Src: s.File, Why: becausePath(what+", decompresses to the bytes of ", other, "")}
	}
	return keep(what + ": decompresses to a package found nowhere else: kept")
}
