package format

import (
	"errors"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/upkdeps/upkdeps/internal/fsutil"
)

// File is a parsed package: header and tables.
type File struct {
	Header
	Names   []Name
	Imports []Import
	Exports []Export

	// PackageName is the package's own name when known (Open sets it from the
	// file name); ObjectPath uses it to prefix export paths.
	PackageName string

	closer io.Closer

	// names read on access (a View's File): the name table's text and,
	// per name, its end in it (see lazyName); or, read in place, the
	// table's bytes and the offset of each record in them. Names is then
	// empty.
	lazyText  []byte
	lazyEnds  []int32
	lazySrc   []byte
	lazyOffs  []int32
	lazyFlags []uint32
}

// Limits on the tables a package may claim. A count over its limit is a
// *FormatError before anything is read or allocated for the table. They lie
// far above any real package: the largest tables in the test corpus (986
// packages of UT99, UT2004, Killing Floor and others) are Engine.u 469's
// 3,670 names, 5,668 exports and 60 generations and a Killing Floor cache
// file's 1,361 imports; a big UT2004 map has a few tens of thousands of
// names and exports.
const (
	MaxNames       = 1 << 20 // name table records
	MaxImports     = 1 << 20 // import table records
	MaxExports     = 1 << 20 // export table records
	MaxGenerations = 1 << 16 // generation records (version 68 and later)
	MaxHeritage    = 1 << 16 // heritage GUIDs (before version 68)
)

// Smallest encoded size of one table record, used to bound counts and reads.
const (
	minNameRecord   = 1 + 4         // empty string (one byte) + flags
	minImportRecord = 1 + 1 + 4 + 1 // three compact indices + int32 outer
	minExportRecord = 1 + 1 + 4 + 1 + 4 + 1
	fixedHeaderSize = 36
)

// Open opens the named file and reads its header and tables. The returned
// File owns the open file until Close. Errors name the path.
func Open(path string) (*File, error) {
	fh, size, err := openFile(path)
	if err != nil {
		return nil, openError(path, err)
	}
	f := &File{}
	if err := f.parse(fh, size, nil); err != nil {
		fh.Close()
		return nil, &PathError{Path: path, Err: err}
	}
	f.closer = fh
	base := filepath.Base(path)
	f.PackageName = strings.TrimSuffix(base, filepath.Ext(base))
	return f, nil
}

// openError returns err, or for a file that is not a regular file (a named
// pipe, a device: never opened, see fsutil.OpenRegular) a *PathError whose
// cause says what it is.
func openError(path string, err error) error {
	var nr *fsutil.NotRegularError
	if errors.As(err, &nr) {
		return &PathError{Path: path, Err: &fsutil.NotRegularError{Mode: nr.Mode}}
	}
	return err
}

// PathError records the file a read error happened in.
type PathError struct {
	Path string
	Err  error
}

func (e *PathError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *PathError) Unwrap() error { return e.Err }

// Close closes the file opened by Open; for a File from NewFile it does nothing.
func (f *File) Close() error {
	if f.closer == nil {
		return nil
	}
	err := f.closer.Close()
	f.closer = nil
	return err
}

// NewFile reads the header and tables of the package in r, which holds size
// bytes. It reads the header, the three tables and (before version 68) the
// heritage table, and nothing else.
func NewFile(r io.ReaderAt, size int64) (*File, error) {
	f := &File{}
	if err := f.parse(r, size, nil); err != nil {
		return nil, err
	}
	return f, nil
}

// parse reads header and tables into f, reusing f's table slices and sc's
// buffers when they are large enough (sc may be nil).
func (f *File) parse(r io.ReaderAt, size int64, sc *scratch) error {
	var buf []byte
	if sc != nil {
		if sc.head == nil {
			sc.head = make([]byte, headBuf)
		}
		buf = sc.head
	}
	if err := f.readHeader(r, size, buf); err != nil {
		return err
	}
	if sc == nil {
		// A File of its own (Open, NewFile): the tables and the names'
		// text are its own; the rest of the scratch memory (the read-ahead
		// spans the tables are copied out of, the names' ends and flags,
		// the outer walk) goes back to a pool.
		sc = scratchPool.Get().(*scratch)
		sc.text = nil
		defer func() {
			sc.text, sc.dec = nil, decoder{}
			if sc.size() <= maxPooledBuf {
				scratchPool.Put(sc)
			}
		}()
	}
	tc := &sc.cache
	tc.r = r
	sc.spans = tc.prefetch(&f.Header, size, sc.spans)
	err := f.readTables(size, sc)
	tc.r, tc.spans = nil, [2]cachedSpan{}
	if err == nil {
		return nil
	}
	err = f.noteLayout(err, r, size)
	// A licensee we do not know whose tables do not parse as the standard
	// layout is a layout we do not read, not a corrupt file.
	var fe *FormatError
	if errors.As(err, &fe) && !knownLayout(f.Version, f.Licensee) {
		return &UnsupportedError{Version: f.Version, Licensee: f.Licensee,
			Reason: "unknown licensee layout (" + fe.Error() + ")"}
	}
	return err
}

// scratchPool recycles the scratch memory of Files read without a Reader.
var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// size returns the bytes sc's buffers hold.
func (sc *scratch) size() int {
	return cap(sc.spans[0]) + cap(sc.spans[1]) + 4*(cap(sc.ends)+cap(sc.offs)+cap(sc.flags)+cap(sc.walk))
}

// headBuf is the header memory a Reader keeps: the headers of any real
// package, whose generation tables hold a few tens of records.
const headBuf = 512

// resize returns s with n elements, in its own memory when it has room (a
// Reader's previous header), never nil.
func resize[T any](s []T, n int) []T {
	if s != nil && cap(s) >= n {
		return s[:n]
	}
	return make([]T, n)
}

// scratch holds the buffers a Reader reuses from one file to the next.
type scratch struct {
	head  []byte // the header's bytes
	lazy  bool   // names stay as text and ends, decoded on access (View)
	ends  []int32
	offs  []int32 // names read in place
	flags []uint32
	text  []byte
	walk  []int32
	dec   decoder
	cache tableCache
	spans [2][]byte // the cache's memory
}

// initialBytes bounds the memory a table slice starts with: a table grows
// by append as its records decode, so the memory a file costs follows the
// bytes it really holds, not the count its header claims (the way the
// standard library's internal/saferio sizes slices from untrusted counts).
// 1 MiB holds the tables of any real package without growing.
const initialBytes = 1 << 20

// reuse returns s emptied when it can hold n elements, else a new empty
// slice with room for n of them, or for what initialBytes holds when n is
// more.
func reuse[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:0]
	}
	var zero T
	return make([]T, 0, min(n, max(initialBytes/int(max(1, unsafe.Sizeof(zero))), cap(s))))
}

// grow makes room for one more element in s, which will hold at most n:
// when s is full its capacity doubles (append alone grows a large slice by
// a quarter, allocating five times its final size along the way).
func grow[T any](s []T, n int) []T {
	if len(s) < cap(s) {
		return s
	}
	return slices.Grow(s, max(1, min(cap(s), n-len(s))))
}

// reused returns an empty File that reuses the memory of f's tables and
// header slices (a Reader's previous File).
func (f *File) reused() File {
	return File{Header: Header{Generations: f.Generations[:0], Heritage: f.Heritage[:0]},
		Names: f.Names[:0], Imports: f.Imports[:0], Exports: f.Exports[:0]}
}

// Reader reads many packages one after another, reusing the memory of the
// previous File for the next: for scans of thousands of files that keep
// only a summary of each. It is not safe for concurrent use; give each
// goroutine its own.
type Reader struct {
	f  File
	v  View
	sc scratch
	fh rawFile // the file being read
}

// Open reads the header and tables of the package at path, like Open, and
// closes the file before returning. The returned File, its tables and its
// name strings belong to the Reader: they are valid only until the next
// call of Open (copy what must outlive it, e.g. with strings.Clone), and
// so are the header's slices.
func (rd *Reader) Open(path string) (*File, error) {
	fh, size, err := rd.openFile(path)
	if err != nil {
		return nil, openError(path, err)
	}
	defer fh.Close()
	rd.f = rd.f.reused()
	if err := rd.f.parse(fh, size, &rd.sc); err != nil {
		return nil, &PathError{Path: path, Err: err}
	}
	base := filepath.Base(path)
	rd.f.PackageName = strings.TrimSuffix(base, filepath.Ext(base))
	return &rd.f, nil
}

// lineage2Header returns the UTF-16 "Lineage2Ver" header of an encrypted
// Lineage 2 package with its version digits ("Lineage2Ver121"), or "".
func lineage2Header(r io.ReaderAt, size int64) string {
	const prefix = "Lineage2Ver"
	b := make([]byte, 2*(len(prefix)+3))
	n, _ := r.ReadAt(b[:min(int64(len(b)), max(size, 0))], 0)
	if n < 2*len(prefix) {
		return ""
	}
	out := make([]byte, 0, len(prefix)+3)
	for i := 0; i+1 < n; i += 2 {
		c := b[i]
		if b[i+1] != 0 || i/2 >= len(prefix) && (c < '0' || c > '9') {
			break
		}
		out = append(out, c)
	}
	if len(out) < len(prefix) || string(out[:len(prefix)]) != prefix {
		return ""
	}
	return string(out)
}
