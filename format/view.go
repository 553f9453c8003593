package format

import (
	"io"
	"iter"
	"path/filepath"
	"strings"
	"unsafe"
)

// View is a scan-oriented reading of a package: the header, the import
// and export tables, and the name table kept as its text, no string made
// until a name is asked for. A scan of thousands of packages uses a few
// of each file's names (those its imports and exports name) and never
// pays for the others; a map's name table is mostly names its serial data
// uses. Where the table is the usual one-byte-length records and was read
// in one piece, a name is only the offset of its record in the bytes
// read: nothing is copied. The few names that are not plain ASCII
// (Latin-1, or a NUL inside) are converted as the table is read, so that
// NameAt only slices.
//
// Validation is the same as File's: every record of the three tables,
// its name indices and object references and the outer chains are
// checked before the View is returned.
//
// A View belongs to the Reader that made it and is valid until that
// Reader's next call; the strings its methods return alias the Reader's
// memory for as long (strings.Clone what must outlive it).
type View struct {
	f *File
}

// View reads the header and tables of the package at path, like Open,
// into a View, and closes the file before returning. Errors name the path.
func (rd *Reader) View(path string) (*View, error) {
	fh, size, err := rd.openFile(path)
	if err != nil {
		return nil, openError(path, err)
	}
	defer fh.Close()
	return rd.ViewAt(fh, size, path)
}

// ViewAt is View for the package held in r (size bytes), read as the file
// path (which names the package and its errors).
func (rd *Reader) ViewAt(r io.ReaderAt, size int64, path string) (*View, error) {
	rd.f = rd.f.reused()
	rd.sc.lazy = true
	err := rd.f.parse(r, size, &rd.sc)
	rd.sc.lazy = false
	if err != nil {
		return nil, &PathError{Path: path, Err: err}
	}
	if rd.f.lazyEnds == nil && rd.f.lazyOffs == nil {
		rd.f.lazyEnds = []int32{} // no names: still a View's File
	}
	base := filepath.Base(path)
	rd.f.PackageName = strings.TrimSuffix(base, filepath.Ext(base))
	rd.v = View{f: &rd.f}
	return &rd.v, nil
}

// lazyName returns name i of a View's name table: for a table read in
// place (see tableReader.namesInPlace), the text of the record at
// lazyOffs[i] in lazySrc, a length byte that counts the NUL after the text,
// which is plain ASCII, or for a negative offset, name ^offset of lazyText
// and lazyEnds, converted when the table was read; for any other table,
// name i of lazyText and lazyEnds. It returns "" when i is out of range.
// One call, no loop: graph's scan asks for a name several times per
// import.
func (f *File) lazyName(i int32) string {
	if f.lazyOffs == nil {
		return nameAt(f.lazyText, f.lazyEnds, i)
	}
	if uint(i) >= uint(len(f.lazyOffs)) {
		return ""
	}
	o := f.lazyOffs[i]
	if o < 0 {
		return nameAt(f.lazyText, f.lazyEnds, ^o)
	}
	r := f.lazySrc[o:] // the record: its length, its text, a NUL
	b := r[1:r[0]]
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// isView reports whether f is a View's File, its names read on access.
func (f *File) isView() bool { return f.lazyEnds != nil || f.lazyOffs != nil }

// nameCount returns the number of names of a View's File.
func (f *File) nameCount() int { return max(len(f.lazyEnds), len(f.lazyOffs)) }

// nameAt returns name i of a name table read into text and ends (see
// tableReader.names): the text of a plain ASCII record as it was in the
// file (ends[i] >= 0), that of any other record converted when it was read
// (ends[i] < 0). It returns "" when i is out of range.
func nameAt(text []byte, ends []int32, i int32) string {
	if uint(i) >= uint(len(ends)) {
		return ""
	}
	start := int32(0)
	if i > 0 {
		if start = ends[i-1]; start < 0 {
			start = ^start
		}
	}
	end := ends[i]
	if end < 0 {
		end = ^end
	}
	if start == end {
		return "" // not a pointer past the end of text
	}
	b := text[start:end]
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// NameFlags returns the flags of name-table entry i, or 0 when i is out of
// range.
func (v *View) NameFlags(i int32) uint32 {
	if i < 0 || int(i) >= len(v.f.lazyFlags) {
		return 0
	}
	return v.f.lazyFlags[i]
}

// Header returns the package header.
func (v *View) Header() *Header { return &v.f.Header }

// PackageName returns the package's name, from its file name.
func (v *View) PackageName() string { return v.f.PackageName }

// NameCount returns the number of names in the name table.
func (v *View) NameCount() int { return v.f.nameCount() }

// NameAt returns name-table entry i, or "" when i is out of range.
func (v *View) NameAt(i int32) string { return v.f.lazyName(i) }

// Imports returns the import table; the slice belongs to the Reader.
func (v *View) Imports() []Import { return v.f.Imports }

// Exports returns the export table; the slice belongs to the Reader.
func (v *View) Exports() []Export { return v.f.Exports }

// AllImports iterates over the imports with their references.
func (v *View) AllImports() iter.Seq2[Ref, *Import] {
	return func(yield func(Ref, *Import) bool) {
		for i := range v.f.Imports {
			if !yield(ImportRef(i), &v.f.Imports[i]) {
				return
			}
		}
	}
}

// AllExports iterates over the exports with their references.
func (v *View) AllExports() iter.Seq2[Ref, *Export] {
	return func(yield func(Ref, *Export) bool) {
		for i := range v.f.Exports {
			if !yield(ExportRef(i), &v.f.Exports[i]) {
				return
			}
		}
	}
}

// ObjectName is File.ObjectName.
func (v *View) ObjectName(r Ref) string { return v.f.ObjectName(r) }

// Outer is File.Outer.
func (v *View) Outer(r Ref) Ref { return v.f.Outer(r) }

// ClassOf is File.ClassOf.
func (v *View) ClassOf(r Ref) (class, pkg string) { return v.f.ClassOf(r) }

// ImportPackage is File.ImportPackage.
func (v *View) ImportPackage(r Ref) string { return v.f.ImportPackage(r) }

// GroupPath is File.GroupPath.
func (v *View) GroupPath(r Ref) []string { return v.f.GroupPath(r) }

// ClassDefaultBool is File.ClassDefaultBool for export i of the View's
// package, read from r, the package file (a View keeps no file open).
func (v *View) ClassDefaultBool(r io.ReaderAt, i int, name string) (value, found bool, err error) {
	return v.f.ClassDefaultBool(r, i, name)
}

// ObjectPath is File.ObjectPath.
func (v *View) ObjectPath(r Ref) string { return v.f.ObjectPath(r) }
