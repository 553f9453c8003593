package graph

import (
	"bytes"
	"context"
	"hash/maphash"
	"path/filepath"
	"slices"
	"strings"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/internal/par"
)

// Kind classifies a package by its file extension.
type Kind string

// Package kinds.
const (
	KindCode    Kind = "code"
	KindTexture Kind = "texture"
	KindSound   Kind = "sound"
	KindMusic   Kind = "music"
	KindMap     Kind = "map"
	KindMesh    Kind = "mesh"
	KindOther   Kind = "other"
	KindMissing Kind = "missing"
)

// KindOf returns the kind of a package file from its extension.
func KindOf(file string) Kind {
	switch strings.ToLower(filepath.Ext(file)) {
	case ".u":
		return KindCode
	case ".utx":
		return KindTexture
	case ".uax":
		return KindSound
	case ".umx", ".ogg":
		return KindMusic
	case ".unr", ".ut2", ".dx", ".rom", ".s4m", ".run", ".un2", ".ut3":
		return KindMap
	case ".usx", ".ukx", ".usm", ".upx":
		return KindMesh
	}
	return KindOther
}

// objImport is an object a package imports (not a package or group import).
type objImport struct {
	pkg   string // top-level package imported from, as spelled in the import
	path  string // dotted group path below the package, with the name
	class string // class name
	cpkg  string // class package
}

// exportIndex answers "does this package export path P of class C" with two
// sorted hash sets, a few bytes per export, so that tens of thousands of
// packages fit in memory.
type exportIndex struct {
	byPath      []uint64 // hash(lower path)
	byPathClass []uint64 // hash(lower path + "\x00" + lower class)
}

var hashSeed = maphash.MakeSeed()

func hashKey(path, class string) uint64 {
	var buf [256]byte
	b := appendLower(buf[:0], path)
	if class != "" {
		b = append(b, 0)
		b = appendLower(b, class)
	}
	return maphash.Bytes(hashSeed, b)
}

// appendLower appends s lower-cased, without allocating for ASCII.
func appendLower(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return append(b, strings.ToLower(s[i:])...)
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return b
}

func (x *exportIndex) hasPath(path string) bool {
	_, ok := slices.BinarySearch(x.byPath, hashKey(path, ""))
	return ok
}

// hashKey must hash exactly what scanFile hashes: the lower-cased path,
// then NUL and the lower-cased class.

func (x *exportIndex) has(path, class string) bool {
	_, ok := slices.BinarySearch(x.byPathClass, hashKey(path, class))
	return ok
}

// scanned is what the graph keeps of one package file.
type scanned struct {
	version, licensee uint16
	flags             format.PackageFlags
	guid              format.GUID
	deps              []string // top-level packages imported from
	imports           []objImport
	exports           exportIndex
	classes           []string // exported classes (code packages)
	exportCount       int
}

// interner shares one copy of repeated strings (Engine, Actor, Class, ...)
// across the packages one worker reads, and detaches them from the name
// table text they were sliced from.
type interner map[string]string

// bytes interns the string b holds; it allocates only for a new string.
func (in interner) bytes(b []byte) string {
	if v, ok := in[string(b)]; ok {
		return v
	}
	s := string(b)
	in[s] = s
	return s
}

func (in interner) get(s string) string {
	if v, ok := in[s]; ok {
		return v
	}
	s = strings.Clone(s)
	in[s] = s
	return s
}

// worker is what one scanning goroutine reuses from file to file.
type worker struct {
	in      interner
	rd      format.Reader
	overlay map[string][]byte
}

// open reads a package from the overlay or the disk.
func (w *worker) open(path string) (*format.File, error) {
	if data, ok := w.overlay[path]; ok {
		return openBytes(path, data)
	}
	return w.rd.Open(path)
}

// openBytes parses a package held in memory as the file path.
func openBytes(path string, data []byte) (*format.File, error) {
	f, err := format.NewFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, &format.PathError{Path: path, Err: err}
	}
	base := filepath.Base(path)
	f.PackageName = strings.TrimSuffix(base, filepath.Ext(base))
	return f, nil
}

// scanFile reads one package's header and tables into a scanned summary.
// Everything kept is copied out of the Reader's memory (the interner
// clones).
func scanFile(path string, w *worker) (*scanned, error) {
	in := w.in
	f, err := w.open(path)
	if err != nil {
		return nil, err
	}
	s := &scanned{
		version: f.Version, licensee: f.Licensee, flags: f.Flags, guid: f.GUID,
		exportCount: len(f.Exports),
	}
	for _, d := range f.Dependencies() {
		s.deps = append(s.deps, in.get(d))
	}
	var buf []byte
	for i, im := range f.Imports {
		if im.Outer.IsNull() {
			continue // the package itself
		}
		ref := format.ImportRef(i)
		class, cpkg := f.ClassOf(ref)
		if strings.EqualFold(class, "Package") && strings.EqualFold(cpkg, "Core") {
			continue // a group: implied by the objects inside it
		}
		buf = appendPath(buf[:0], f, ref, false)
		s.imports = append(s.imports, objImport{
			pkg:   in.get(f.ImportPackage(ref)),
			path:  in.bytes(buf),
			class: in.get(class),
			cpkg:  in.get(cpkg),
		})
	}
	s.exports.byPath = make([]uint64, len(f.Exports))
	s.exports.byPathClass = make([]uint64, len(f.Exports))
	for i, ex := range f.Exports {
		ref := format.ExportRef(i)
		class, _ := f.ClassOf(ref)
		buf = appendPath(buf[:0], f, ref, true)
		s.exports.byPath[i] = maphash.Bytes(hashSeed, buf)
		buf = appendLower(append(buf, 0), class)
		s.exports.byPathClass[i] = maphash.Bytes(hashSeed, buf)
		if ex.Class.IsNull() && ex.Outer.IsNull() {
			s.classes = append(s.classes, in.get(f.ObjectName(ref)))
		}
	}
	slices.Sort(s.exports.byPath)
	slices.Sort(s.exports.byPathClass)
	return s, nil
}

// appendPath appends the dotted group path of ref below its package — what
// File.GroupPath joins with "." — lower-cased when lower is set, without
// allocating for the usual short chains.
func appendPath(b []byte, f *format.File, ref format.Ref, lower bool) []byte {
	var stack [16]format.Ref
	chain := stack[:0]
	for cur, n := ref, 0; !cur.IsNull() && n <= len(f.Imports)+len(f.Exports); n++ {
		chain = append(chain, cur)
		cur = f.Outer(cur)
	}
	if ref.IsImport() && len(chain) > 0 {
		chain = chain[:len(chain)-1] // the top-level package
	}
	for i := len(chain) - 1; i >= 0; i-- {
		name := f.ObjectName(chain[i])
		if lower {
			b = appendLower(b, name)
		} else {
			b = append(b, name...)
		}
		if i > 0 {
			b = append(b, '.')
		}
	}
	return b
}

// exportClass re-reads a package to find the class of the export at path:
// only needed to explain a class mismatch, which is rare.
func (gr *Graph) exportClass(file, path string) string {
	var f *format.File
	var err error
	if data, ok := gr.overlay[file]; ok {
		f, err = openBytes(file, data)
	} else {
		f, err = format.Open(file)
	}
	if err != nil {
		return "?"
	}
	defer f.Close()
	var classes []string
	for i := range f.Exports {
		ref := format.ExportRef(i)
		if strings.EqualFold(strings.Join(f.GroupPath(ref), "."), path) {
			c, p := f.ClassOf(ref)
			if p != "" {
				c = p + "." + c
			}
			classes = append(classes, c)
		}
	}
	slices.Sort(classes)
	return strings.Join(classes, ", ")
}

// scanAll reads files with jobs workers; done is called after each file.
// A file not read because ctx was cancelled gets ctx's error.
func scanAll(ctx context.Context, files []string, jobs int, done func(), overlay map[string][]byte) ([]*scanned, []error) {
	out := make([]*scanned, len(files))
	errs := make([]error, len(files))
	workers := make([]worker, par.Workers(len(files), jobs))
	for w := range workers {
		workers[w].in = interner{}
		workers[w].overlay = overlay
	}
	if err := par.ForEach(ctx, len(files), jobs, func(w, i int) {
		out[i], errs[i] = scanFile(files[i], &workers[w])
		if done != nil {
			done()
		}
	}); err != nil {
		for i := range errs {
			if out[i] == nil && errs[i] == nil {
				errs[i] = err
			}
		}
	}
	return out, errs
}
