package uscript

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// Package is the source side of one package: <GameRoot>/<Name>/Classes.
type Package struct {
	Name       string // the package name as asked for (an EditPackages entry)
	Dir        string // the package folder found, "" when there is none
	ClassesDir string // its Classes folder, "" when there is none
	// HasSources reports whether the Classes folder holds any .uc file.
	// ucc make can rebuild only such packages.
	HasSources bool
	// Classes are the scanned classes, sorted by file name. A file that
	// could not be scanned has a Diagnostic instead.
	Classes []*Class
	HasUpkg bool      // Classes/<Name>.upkg exists
	Flags   UpkgFlags // from the .upkg, or DefaultUpkgFlags
	// Diagnostics are every problem found: files that could not be read or
	// scanned, an unreadable .upkg, and the diagnostics of each class;
	// sorted by file and line.
	Diagnostics []Diagnostic
}

// ScanPackage scans the sources of package pkg under gameRoot: every .uc
// file of <gameRoot>/<pkg>/Classes, in parallel, and Classes/<pkg>.upkg.
// Folder and file names match case-insensitively (Linux installs mix case);
// an exact match wins over the others. A package without a folder or
// without Classes is not an error: HasSources is false. Problems in single
// files are Diagnostics; the error is for a gameRoot or folder that cannot
// be listed and for a pkg that is not a plain name.
func ScanPackage(gameRoot, pkg string) (*Package, error) {
	if pkg == "" || pkg == "." || pkg == ".." || strings.ContainsAny(pkg, `/\`) {
		return nil, fmt.Errorf("uscript: %q is not a package name", pkg)
	}
	p := &Package{Name: pkg, Flags: DefaultUpkgFlags}
	dir, err := findEntry(gameRoot, pkg, true, p)
	if err != nil || dir == "" {
		return p, err
	}
	p.Dir = dir
	classes, err := findEntry(dir, "Classes", true, p)
	if err != nil || classes == "" {
		return p, err
	}
	p.ClassesDir = classes
	entries, err := os.ReadDir(classes)
	if err != nil {
		return p, fmt.Errorf("uscript: %w", err)
	}
	var files []string
	var upkg string
	for _, e := range entries {
		name := e.Name()
		if !isFile(e) {
			continue
		}
		switch {
		case hasSuffixFold(name, ".uc"):
			files = append(files, name)
		case strings.EqualFold(name, pkg+".upkg"):
			if upkg == "" || name == pkg+".upkg" {
				upkg = name
			}
		}
	}
	slices.SortFunc(files, compareNames)
	p.HasSources = len(files) > 0
	sub := subfolderSources(classes, entries)
	if upkg != "" {
		p.HasUpkg = true
		flags, err := ReadUpkg(filepath.Join(classes, upkg))
		if err != nil {
			p.Diagnostics = append(p.Diagnostics, Diagnostic{File: filepath.Join(classes, upkg), Msg: err.Error()})
		}
		p.Flags = flags
	}
	p.Classes = scanFiles(classes, files, p)
	for _, c := range scanFiles(classes, sub, p) {
		c.Subfolder = true
		p.Classes = append(p.Classes, c)
	}
	seen := map[string]*Class{}
	for _, c := range p.Classes {
		p.Diagnostics = append(p.Diagnostics, c.Diagnostics...)
		key := strings.ToLower(c.Name)
		if first, dup := seen[key]; dup {
			p.Diagnostics = append(p.Diagnostics, Diagnostic{File: c.File, Line: c.Line,
				Msg: fmt.Sprintf("class %s is also declared in %s", c.Name, filepath.Base(first.File))})
			continue
		}
		seen[key] = c
	}
	slices.SortStableFunc(p.Diagnostics, func(a, b Diagnostic) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		return a.Line - b.Line
	})
	return p, nil
}

// Bounds of the walk below Classes.
const (
	maxSubfolderDepth = 4
	maxSubfolderFiles = 1 << 14
)

// subfolderSources lists the .uc files in the folders below a Classes
// folder (paths relative to it, sorted), up to maxSubfolderDepth levels
// and maxSubfolderFiles files. Stock ucc make reads Classes/*.uc only;
// some licensee builds compile subfolders too, and whether this game
// does is not known here: their classes count as declared (a name one
// declares is never reported unknown) but their references make no
// dependency and no finding (Class.Subfolder).
func subfolderSources(classes string, entries []fs.DirEntry) []string {
	var out []string
	var walk func(dir, rel string, entries []fs.DirEntry, depth int)
	walk = func(dir, rel string, entries []fs.DirEntry, depth int) {
		for _, e := range entries {
			if len(out) >= maxSubfolderFiles {
				return
			}
			name := e.Name()
			switch {
			case rel != "" && isFile(e) && hasSuffixFold(name, ".uc"):
				out = append(out, filepath.Join(rel, name))
			case depth < maxSubfolderDepth && isDir(dir, e):
				sub := filepath.Join(dir, name)
				if list, err := os.ReadDir(sub); err == nil {
					walk(sub, filepath.Join(rel, name), list, depth+1)
				}
			}
		}
	}
	walk(classes, "", entries, 0)
	slices.SortFunc(out, compareNames)
	return out
}

// scanFiles scans dir/name for each name on all CPUs and returns the
// classes in the order of names; failures become diagnostics of p.
func scanFiles(dir string, names []string, p *Package) []*Class {
	type result struct {
		c   *Class
		err error
	}
	results := make([]result, len(names))
	// Opening a file costs more than scanning it on some systems: keep a
	// few opens in flight beyond the CPUs.
	workers := min(runtime.GOMAXPROCS(0)+4, len(names))
	var next int
	var mu sync.Mutex
	work := func() {
		for {
			mu.Lock()
			i := next
			next++
			mu.Unlock()
			if i >= len(names) {
				return
			}
			c, err := ScanFile(filepath.Join(dir, names[i]))
			results[i] = result{c, err}
		}
	}
	// The caller is one of the workers: a package of one file (most
	// mods' small ones) starts no goroutine, whose stack would grow anew.
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	classes := make([]*Class, 0, len(names))
	for i, r := range results {
		if r.err != nil {
			d := Diagnostic{File: filepath.Join(dir, names[i]), Msg: r.err.Error()}
			var se *Error
			if errors.As(r.err, &se) {
				d = Diagnostic{File: se.File, Line: se.Line, Msg: se.Msg}
			}
			p.Diagnostics = append(p.Diagnostics, d)
			continue
		}
		classes = append(classes, r.c)
	}
	return classes
}

// findEntry returns dir/name, matching name case-insensitively when there
// is no exact match, or "" when nothing matches. Several case variants are
// reported on p.
func findEntry(dir, name string, wantDir bool, p *Package) (string, error) {
	// From the listing, never by opening dir/name: a case-insensitive file
	// system (Windows, macOS) opens "mymod" for "MyMod" and would report
	// the folder in the spelling asked for, not the one on disk.
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", fmt.Errorf("uscript: %w", err)
	}
	var found []string
	for _, e := range entries {
		if e.Name() == name && isDir(dir, e) == wantDir {
			return filepath.Join(dir, name), nil
		}
		if strings.EqualFold(e.Name(), name) && isDir(dir, e) == wantDir {
			found = append(found, e.Name())
		}
	}
	if len(found) == 0 {
		return "", nil
	}
	slices.SortFunc(found, compareNames)
	if len(found) > 1 {
		p.Diagnostics = append(p.Diagnostics, Diagnostic{File: filepath.Join(dir, found[0]),
			Msg: fmt.Sprintf("%d folders match %s ignoring case (%s); using the first", len(found), name, strings.Join(found, ", "))})
	}
	return filepath.Join(dir, found[0]), nil
}

// isDir reports whether the entry is a folder, following a symbolic link.
func isDir(dir string, e fs.DirEntry) bool {
	if e.Type()&fs.ModeSymlink != 0 {
		st, err := os.Stat(filepath.Join(dir, e.Name()))
		return err == nil && st.IsDir()
	}
	return e.IsDir()
}

// isFile reports whether the entry is (or links to) a regular file; the
// check on a link is left to the open.
func isFile(e fs.DirEntry) bool {
	return e.Type().IsRegular() || e.Type()&fs.ModeSymlink != 0
}

func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix)
}

// compareNames orders file names ignoring case, then byte-wise so that the
// order is total.
func compareNames(a, b string) int {
	if c := strings.Compare(strings.ToLower(a), strings.ToLower(b)); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}
