package format

import (
	"encoding/binary"
	"errors"
	"fmt"
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
	fh, err := fsutil.OpenRegular(path)
	if err != nil {
		return nil, openError(path, err)
	}
	st, err := fh.Stat()
	if err != nil {
		fh.Close()
		return nil, err
	}
	f, err := NewFile(fh, st.Size())
	if err != nil {
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
	if err := f.readHeader(r, size); err != nil {
		return err
	}
	err := f.readTables(r, size, sc)
	if err == nil {
		return nil
	}
	// A licensee we do not know whose tables do not parse as the standard
	// layout is a layout we do not read, not a corrupt file.
	var fe *FormatError
	if errors.As(err, &fe) && !knownLicensee(f.Version, f.Licensee) {
		return &UnsupportedError{Version: f.Version, Licensee: f.Licensee,
			Reason: "unknown licensee layout (" + fe.Error() + ")"}
	}
	return err
}

// scratch holds the buffers a Reader reuses from one file to the next.
type scratch struct {
	ends  []int32
	text  []byte
	state []uint8
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

// Reader reads many packages one after another, reusing the memory of the
// previous File for the next: for scans of thousands of files that keep
// only a summary of each. It is not safe for concurrent use; give each
// goroutine its own.
type Reader struct {
	f  File
	sc scratch
}

// Open reads the header and tables of the package at path, like Open, and
// closes the file before returning. The returned File, its tables and its
// name strings belong to the Reader: they are valid only until the next
// call of Open (copy what must outlive it, e.g. with strings.Clone).
func (rd *Reader) Open(path string) (*File, error) {
	fh, err := fsutil.OpenRegular(path)
	if err != nil {
		return nil, openError(path, err)
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return nil, err
	}
	rd.f = File{Names: rd.f.Names[:0], Imports: rd.f.Imports[:0], Exports: rd.f.Exports[:0]}
	if err := rd.f.parse(fh, st.Size(), &rd.sc); err != nil {
		return nil, &PathError{Path: path, Err: err}
	}
	base := filepath.Base(path)
	rd.f.PackageName = strings.TrimSuffix(base, filepath.Ext(base))
	return &rd.f, nil
}

func readAt(r io.ReaderAt, size int64, off int64, n int, what string) ([]byte, error) {
	if off < 0 || off > size || int64(n) > size-off {
		return nil, formatErr(off, "%s (%d bytes) runs past the end of the file (size %d)", what, n, size)
	}
	b := make([]byte, n)
	if k, err := r.ReadAt(b, off); k < n {
		if err == nil || err == io.EOF {
			return nil, formatErr(off+int64(k), "%s truncated", what)
		}
		return nil, err
	}
	return b, nil
}

func (f *File) readHeader(r io.ReaderAt, size int64) error {
	if size < 4 {
		return ErrNotPackage
	}
	var tag [4]byte
	if _, err := r.ReadAt(tag[:], 0); err != nil && err != io.EOF {
		return err
	}
	t := binary.LittleEndian.Uint32(tag[:])
	switch t {
	case Tag, TagKF:
	case tagSwapped:
		return &UnsupportedError{Reason: "big-endian (console) package"}
	default:
		if isLineage2(r, size) {
			return &UnsupportedError{Reason: "encrypted Lineage 2 package"}
		}
		return ErrNotPackage
	}
	b, err := readAt(r, size, 0, fixedHeaderSize, "header")
	if err != nil {
		return err
	}
	h := &f.Header
	h.Tag = t
	h.Version = binary.LittleEndian.Uint16(b[4:])
	h.Licensee = binary.LittleEndian.Uint16(b[6:])
	h.Flags = PackageFlags(binary.LittleEndian.Uint32(b[8:]))
	get := func(i int) int32 { return int32(binary.LittleEndian.Uint32(b[12+4*i:])) }
	h.NameCount, h.NameOffset = get(0), get(1)
	h.ExportCount, h.ExportOffset = get(2), get(3)
	h.ImportCount, h.ImportOffset = get(4), get(5)
	if reason := unsupported(h.Version, h.Licensee); reason != "" {
		return &UnsupportedError{Version: h.Version, Licensee: h.Licensee, Reason: reason}
	}

	if h.HasHeritage() {
		b, err := readAt(r, size, fixedHeaderSize, 8, "header")
		if err != nil {
			return err
		}
		h.HeritageCount = int32(binary.LittleEndian.Uint32(b))
		h.HeritageOffset = int32(binary.LittleEndian.Uint32(b[4:]))
		if err := checkTable(size, fixedHeaderSize+8, "heritage", 36, h.HeritageCount, h.HeritageOffset, 16, MaxHeritage); err != nil {
			return err
		}
		hb, err := readAt(r, size, int64(h.HeritageOffset), int(h.HeritageCount)*16, "heritage table")
		if err != nil {
			return err
		}
		h.Heritage = make([]GUID, h.HeritageCount)
		for i := range h.Heritage {
			h.Heritage[i] = getGUID(hb[16*i:])
		}
		if len(h.Heritage) > 0 {
			h.GUID = h.Heritage[len(h.Heritage)-1]
		}
		return nil
	}
	b, err = readAt(r, size, fixedHeaderSize, 20, "header")
	if err != nil {
		return err
	}
	h.GUID = getGUID(b)
	n := int32(binary.LittleEndian.Uint32(b[16:]))
	const genOff = fixedHeaderSize + 20
	if n < 0 || int64(n) > (size-genOff)/8 {
		return formatErr(fixedHeaderSize+16, "generation count %d does not fit in the file (size %d)", n, size)
	}
	if n > MaxGenerations {
		return formatErr(fixedHeaderSize+16, "generation count %d is over the limit of %d", n, MaxGenerations)
	}
	gb, err := readAt(r, size, genOff, int(n)*8, "generation table")
	if err != nil {
		return err
	}
	h.Generations = make([]Generation, n)
	for i := range h.Generations {
		h.Generations[i] = Generation{
			ExportCount: int32(binary.LittleEndian.Uint32(gb[8*i:])),
			NameCount:   int32(binary.LittleEndian.Uint32(gb[8*i+4:])),
		}
	}
	return nil
}

// checkTable validates a table's count and offset against its limit and the
// file size before anything is allocated for it.
// field is the header offset of the count, followed by the offset.
func checkTable(size, headerEnd int64, what string, field int64, count, off int32, minRecord int64, limit int32) error {
	if count < 0 {
		return formatErr(field, "%s count %d is negative", what, count)
	}
	if count == 0 {
		return nil
	}
	if int64(off) < headerEnd || int64(off) >= size {
		return formatErr(field+4, "%s offset %d outside the file (header ends at %d, size %d)", what, off, headerEnd, size)
	}
	if int64(count) > (size-int64(off))/minRecord {
		return formatErr(int64(off), "%s count %d does not fit in the %d bytes after offset %d", what, count, size-int64(off), off)
	}
	if count > limit {
		return formatErr(field, "%s count %d is over the limit of %d", what, count, limit)
	}
	return nil
}

func (f *File) headerEnd() int64 {
	if f.HasHeritage() {
		return fixedHeaderSize + 8
	}
	return fixedHeaderSize + 20 + 8*int64(len(f.Generations))
}

func (f *File) readTables(r io.ReaderAt, size int64, sc *scratch) error {
	if sc == nil {
		sc = &scratch{}
	}
	h := &f.Header
	end := f.headerEnd()
	if err := checkTable(size, end, "name", 12, h.NameCount, h.NameOffset, minNameRecord, MaxNames); err != nil {
		return err
	}
	if err := checkTable(size, end, "import", 28, h.ImportCount, h.ImportOffset, minImportRecord, MaxImports); err != nil {
		return err
	}
	if err := checkTable(size, end, "export", 20, h.ExportCount, h.ExportOffset, minExportRecord, MaxExports); err != nil {
		return err
	}
	nNames, nImports, nExports := h.NameCount, h.ImportCount, h.ExportCount
	limits := [3]int32{nNames, nImports, nExports}

	// Names are decoded into one buffer and become slices of one string: one
	// allocation for the whole table instead of one per name.
	f.Names = reuse(f.Names, int(nNames))
	ends := reuse(sc.ends, int(nNames))
	text := reuse(sc.text, int(nNames)*12)
	oldNames := h.Version < 64
	err := readTable(r, size, int64(h.NameOffset), int(nNames), minNameRecord, "name", limits, func(d *decoder) {
		var raw []byte
		wide := false
		if oldNames {
			raw = d.cstring()
		} else {
			raw, wide = d.fstring()
		}
		flags := d.u32()
		if !d.failed() {
			text = appendText(text, raw, wide)
			ends = append(grow(ends, int(nNames)), int32(len(text)))
			f.Names = append(grow(f.Names, int(nNames)), Name{Flags: flags})
		}
	})
	if err != nil {
		return err
	}
	// text is not written again while the names live (a Reader reuses it
	// for its next file, when its File's names are dead by contract): the
	// names alias it instead of copying.
	sc.ends, sc.text = ends, text
	all, start := unsafe.String(unsafe.SliceData(text), len(text)), int32(0)
	for i, end := range ends {
		f.Names[i].Name = all[start:end]
		start = end
	}

	f.Imports = reuse(f.Imports, int(nImports))
	err = readTable(r, size, int64(h.ImportOffset), int(nImports), minImportRecord, "import", limits, func(d *decoder) {
		f.Imports = grow(f.Imports, int(nImports))
		if im, n, ok := fastImport(d.b, d.pos, limits); ok {
			f.Imports = append(f.Imports, im)
			d.pos = n
			return
		}
		start := d.pos
		var im Import
		im.ClassPackage = d.name(start)
		im.ClassName = d.name(start)
		at := d.pos
		im.Outer = d.ref(d.i32(), at, "outer")
		im.ObjectName = d.name(start)
		if !d.failed() {
			f.Imports = append(f.Imports, im)
		}
	})
	if err != nil {
		return err
	}

	f.Exports = reuse(f.Exports, int(nExports))
	err = readTable(r, size, int64(h.ExportOffset), int(nExports), minExportRecord, "export", limits, func(d *decoder) {
		f.Exports = grow(f.Exports, int(nExports))
		if ex, n, ok := fastExport(d.b, d.pos, limits, size); ok {
			f.Exports = append(f.Exports, ex)
			d.pos = n
			return
		}
		start := d.pos
		var ex Export
		ex.Class = d.ref(d.index(), start, "class")
		at := d.pos
		ex.Super = d.ref(d.index(), at, "super")
		at = d.pos
		ex.Outer = d.ref(d.i32(), at, "outer")
		ex.ObjectName = d.name(start)
		ex.ObjectFlags = d.u32()
		at = d.pos
		ex.SerialSize = d.index()
		if ex.SerialSize > 0 {
			ex.SerialOffset = d.index()
		}
		if !d.failed() && (ex.SerialSize < 0 || ex.SerialOffset < 0 || int64(ex.SerialOffset)+int64(ex.SerialSize) > size) {
			d.err = formatErr(d.base+int64(at), "serial data (offset %d, size %d) outside the file (size %d)", ex.SerialOffset, ex.SerialSize, size)
		}
		if !d.failed() {
			f.Exports = append(f.Exports, ex)
		}
	})
	if err != nil {
		return err
	}
	return f.checkOuterChains(sc)
}

// bufPool recycles table read buffers across tables and files; buffers
// larger than maxPooledBuf are left to the garbage collector.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

const maxPooledBuf = 4 << 20

// readTable decodes count records starting at off. It reads the file in
// steps that never go past the bytes the remaining records need at the least
// (remaining × minRecord, or more once a record's own length is known), so it
// touches only the table's own span.
func readTable(r io.ReaderAt, size, off int64, count, minRecord int, what string, limits [3]int32, record func(*decoder)) error {
	if count == 0 {
		return nil
	}
	d := &decoder{base: off, names: limits[0], imports: limits[1], exports: limits[2]}
	next := off // file offset of the first byte not yet read
	scratch := bufPool.Get().(*[]byte)
	buf := (*scratch)[:0]
	defer func() {
		if cap(buf) <= maxPooledBuf {
			*scratch = buf[:0]
			bufPool.Put(scratch)
		}
	}()
	for done := 0; done < count; {
		start := d.pos
		d.short = 0
		record(d)
		if d.err != nil {
			return d.err
		}
		if d.short == 0 {
			done++
			continue
		}
		// Not enough bytes for this record: read what it needs now plus the
		// least the records after it can occupy.
		want := int64(d.short-start) + int64(count-done-1)*int64(minRecord)
		have := int64(len(buf) - start)
		more := want - have
		if more < 1 {
			more = 1
		}
		if next+more > size {
			more = size - next
			if more <= 0 {
				return formatErr(d.base+int64(start), "%s table truncated: record %d of %d runs past the end of the file", what, done, count)
			}
		}
		// Move the unconsumed tail to the front, then read the new bytes
		// after it, growing the buffer only when it is too small.
		tail := len(buf) - start
		if need := tail + int(more); need > cap(buf) {
			nb := make([]byte, need, max(need, 2*cap(buf)))
			copy(nb, buf[start:])
			buf = nb
		} else {
			copy(buf[:cap(buf)], buf[start:])
			buf = buf[:need]
		}
		k, err := r.ReadAt(buf[tail:], next)
		if k < int(more) {
			if err != nil && err != io.EOF {
				return err
			}
			return formatErr(next+int64(k), "%s table truncated", what)
		}
		d.base += int64(start)
		next += more
		d.b = buf
		d.pos = 0
	}
	return nil
}

// checkOuterChains verifies that every outer chain ends at the package, so
// that resolving paths cannot loop. The error gives the offset of the table
// and the record that closes the loop.
func (f *File) checkOuterChains(sc *scratch) error {
	const (
		unseen = iota
		active
		done
	)
	ni := len(f.Imports)
	// Sized by the records read, not by a count from the header.
	n := ni + len(f.Exports)
	state := sc.state[:0]
	if cap(state) < n {
		state = make([]uint8, n)
	}
	state = state[:n]
	clear(state)
	sc.state = state
	slot := func(r Ref) int {
		if r.IsImport() {
			return r.Index()
		}
		return ni + r.Index()
	}
	var stack []int
	for start := range state {
		if state[start] != unseen {
			continue
		}
		stack = stack[:0]
		cur := start
		for {
			if state[cur] == done {
				break
			}
			if state[cur] == active {
				if cur < ni {
					return formatErr(int64(f.ImportOffset), "outer chain of import %d loops", cur)
				}
				return formatErr(int64(f.ExportOffset), "outer chain of export %d loops", cur-ni)
			}
			state[cur] = active
			stack = append(stack, cur)
			var outer Ref
			if cur < ni {
				outer = f.Imports[cur].Outer
			} else {
				outer = f.Exports[cur-ni].Outer
			}
			if outer.IsNull() {
				break
			}
			cur = slot(outer)
		}
		for _, s := range stack {
			state[s] = done
		}
	}
	return nil
}

// isLineage2 recognises the UTF-16 "Lineage2Ver" prefix of encrypted
// Lineage 2 packages.
func isLineage2(r io.ReaderAt, size int64) bool {
	const prefix = "Lineage2Ver"
	if size < int64(len(prefix)*2) {
		return false
	}
	b := make([]byte, len(prefix)*2)
	if _, err := r.ReadAt(b, 0); err != nil {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if b[2*i] != prefix[i] || b[2*i+1] != 0 {
			return false
		}
	}
	return true
}

// unsupported returns why a version/licensee is refused, or "".
func unsupported(version, licensee uint16) string {
	switch {
	case version < 61:
		return "older than any known Unreal package version (61)"
	case version >= 178:
		return "Unreal Engine 3 package"
	case version > 129:
		return "post-UE2 layout (versions 130-177) is not read"
	case version == 100 && licensee >= 9 && licensee <= 17:
		return "Splinter Cell header layout"
	}
	return ""
}

// knownLicensee reports whether the version/licensee pair is one whose
// tables are known to use the standard layout.
func knownLicensee(version, licensee uint16) bool {
	if licensee == 0 {
		return true
	}
	return version >= 100 && licensee >= 25 && licensee <= 29
}

// Game suggests the game a version/licensee pair comes from, for display.
func Game(version, licensee uint16) string {
	switch {
	case version < 64:
		return "Unreal (early)"
	case version < 68:
		return "Unreal"
	case version <= 69 && licensee == 0:
		return "UT99 / Unreal / Deus Ex / Rune"
	case version < 100:
		return "UE1 licensee game"
	case version >= 119 && version <= 120 && licensee >= 25 && licensee <= 28:
		return "UT2003"
	case version == 129 && licensee == 27:
		return "SWAT 4"
	case version >= 118 && version <= 128 && licensee == 29:
		return "UT2004 / Killing Floor / Red Orchestra"
	case version <= 129:
		return "UE2"
	}
	return fmt.Sprintf("unknown (%d/%d)", version, licensee)
}
