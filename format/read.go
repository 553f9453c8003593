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

// headerReader serves header reads from one read of the file's first
// bytes: the tag and version first, then the header as long as the layout
// makes it with one generation. It never reads past that, so it touches no
// serial data.
type headerReader struct {
	r    io.ReaderAt
	size int64
	pre  []byte
	buf  []byte // memory to read into (a Reader's), or nil
}

func newHeaderReader(r io.ReaderAt, size int64, buf []byte) (*headerReader, error) {
	hr := &headerReader{r: r, size: size, buf: buf}
	return hr, hr.prefetch(firstRead)
}

// firstRead is the size of the first read: the whole header of the usual
// UE1 package (one generation), so that it takes one read.
const firstRead = 64

// prefetch extends the bytes read from the start of the file to n (fewer
// at the end of the file), reading only what is not there yet.
func (hr *headerReader) prefetch(n int64) error {
	n = min(hr.size, n)
	have := int64(len(hr.pre))
	if n <= have {
		return nil
	}
	var pre []byte
	if int64(cap(hr.buf)) >= n {
		pre = hr.buf[:n] // hr.pre, when not empty, is its start
	} else {
		pre = make([]byte, n)
	}
	copy(pre, hr.pre)
	if k, err := hr.r.ReadAt(pre[have:], have); have+int64(k) < n {
		if err != nil && err != io.EOF {
			return err
		}
		pre = pre[:have+int64(k)]
	}
	hr.pre = pre
	return nil
}

// at returns n bytes at off, like readAt. A range that starts within the
// bytes read so far (the generation table after a longer header) extends
// them.
func (hr *headerReader) at(off int64, n int, what string) ([]byte, error) {
	end := off + int64(n)
	if off >= 0 && off <= int64(len(hr.pre)) && end > int64(len(hr.pre)) && end <= hr.size && n <= 64<<10 {
		if err := hr.prefetch(end); err != nil {
			return nil, err
		}
	}
	if off >= 0 && end <= int64(len(hr.pre)) {
		return hr.pre[off:end], nil
	}
	return readAt(hr.r, hr.size, off, n, what)
}

// readHeader reads the header into f, reading into buf when it has room
// (a Reader's memory: the header's GUIDPrefix may alias it).
func (f *File) readHeader(r io.ReaderAt, size int64, buf []byte) error {
	if size == 0 {
		return ErrEmpty
	}
	if size < 4 {
		return ErrNotPackage
	}
	hr, err := newHeaderReader(r, size, buf)
	if err != nil {
		return err
	}
	if len(hr.pre) < 4 {
		return formatErr(int64(len(hr.pre)), "header truncated")
	}
	t := binary.LittleEndian.Uint32(hr.pre)
	switch t {
	case Tag, TagKF:
	case tagSwapped:
		return &UnsupportedError{Reason: "big-endian (console) package"}
	default:
		if hdr := lineage2Header(r, size); hdr != "" {
			return &UnsupportedError{Reason: "encrypted Lineage 2 package (its header reads " + hdr + "; decrypt it to read it)"}
		}
		if real, ok := fsutil.LFSPointer(r, size); ok {
			return &LFSPointerError{Size: real}
		}
		return ErrNotPackage
	}
	h := &f.Header
	h.Tag = t
	vb, err := hr.at(4, 4, "header")
	if err != nil {
		return err
	}
	h.Version = binary.LittleEndian.Uint16(vb)
	h.Licensee = binary.LittleEndian.Uint16(vb[2:])
	if reason := unsupported(h.Version, h.Licensee); reason != "" {
		return &UnsupportedError{Version: h.Version, Licensee: h.Licensee, Reason: reason}
	}
	lay := layoutOf(h.Version, h.Licensee)
	return f.noteLayout(f.readHeaderFields(hr, size, lay), r, size)
}

// noteLayout adds to a *FormatError of a file whose version was read the
// version and header layout it was read with, and a hint when the bytes
// fit the other header layout better. Other errors pass unchanged.
func (f *File) noteLayout(err error, r io.ReaderAt, size int64) error {
	if err == nil {
		return nil // before errors.As, whose target would escape: an allocation per file
	}
	var fe *FormatError
	if !errors.As(err, &fe) || fe.Header != "" {
		return err
	}
	h := &f.Header
	lay := layoutOf(h.Version, h.Licensee)
	fe.Header = h.layoutNote(lay)
	if fe.Hint == "" && !h.HasHeritage() && lay.IsStandard() && fitsHeritage(r, size) {
		fe.Hint = "its bytes fit the header of versions before 68 (a heritage table): the version field does not match the layout"
	}
	return err
}

// layoutNote says which version and header layout a package was read
// with, for errors.
func (h *Header) layoutNote(lay Layout) string {
	what := "the header of versions 68 and later, with a GUID and a generation table"
	if h.HasHeritage() {
		what = "the header of versions before 68, with a heritage table"
	}
	if !lay.IsStandard() {
		what += "; licensee layout: " + lay.String()
	}
	return fmt.Sprintf("read as version %d, licensee %d: %s", h.Version, h.Licensee, what)
}

// fitsHeritage reports whether the standard header's bytes after the table
// offsets read as a heritage count and offset (the pre-68 header) that fit
// in the file: a count from 1 to MaxHeritage and a table inside the file.
func fitsHeritage(r io.ReaderAt, size int64) bool {
	b := make([]byte, 8)
	if size < 44 {
		return false
	}
	if n, err := r.ReadAt(b, 36); n < len(b) && err != nil {
		return false
	}
	n := int64(int32(binary.LittleEndian.Uint32(b)))
	at := int64(int32(binary.LittleEndian.Uint32(b[4:])))
	return n >= 1 && n <= MaxHeritage && at >= 44 && at <= size && n <= (size-at)/16
}

// readHeaderFields reads the header after the tag, version and licensee,
// in the layout lay.
func (f *File) readHeaderFields(hr *headerReader, size int64, lay Layout) error {
	h := &f.Header
	if err := hr.prefetch(lay.headerSize(h.Version)); err != nil {
		return err
	}
	off := int64(8)
	if lay.FlagsPrefix {
		b, err := hr.at(off, 4, "header")
		if err != nil {
			return err
		}
		h.FlagsPrefix = binary.LittleEndian.Uint32(b)
		off += 4
	}
	b, err := hr.at(off, 28, "header")
	if err != nil {
		return err
	}
	h.Flags = PackageFlags(binary.LittleEndian.Uint32(b))
	get := func(i int) int32 { return int32(binary.LittleEndian.Uint32(b[4+4*i:])) }
	h.NameCount, h.NameOffset = get(0), get(1)
	h.ExportCount, h.ExportOffset = get(2), get(3)
	h.ImportCount, h.ImportOffset = get(4), get(5)
	off += 28

	if h.HasHeritage() {
		b, err := hr.at(off, 8, "header")
		if err != nil {
			return err
		}
		h.HeritageCount = int32(binary.LittleEndian.Uint32(b))
		h.HeritageOffset = int32(binary.LittleEndian.Uint32(b[4:]))
		if err := checkTable(size, off+8, "heritage", off, h.HeritageCount, h.HeritageOffset, 16, MaxHeritage); err != nil {
			return err
		}
		hb, err := hr.at(int64(h.HeritageOffset), int(h.HeritageCount)*16, "heritage table")
		if err != nil {
			return err
		}
		h.Heritage, h.Generations = resize(h.Heritage, int(h.HeritageCount)), nil
		for i := range h.Heritage {
			h.Heritage[i] = getGUID(hb[16*i:])
		}
		if len(h.Heritage) > 0 {
			h.GUID = h.Heritage[len(h.Heritage)-1]
		}
		return nil
	}
	prefix, err := readGUIDPrefix(hr, off, lay)
	if err != nil {
		return err
	}
	h.GUIDPrefix = prefix
	off += int64(len(prefix))
	if !lay.NoGUID {
		b, err := hr.at(off, 16, "header")
		if err != nil {
			return err
		}
		h.GUID = getGUID(b)
		off += 16
	}
	b, err = hr.at(off, 4, "header")
	if err != nil {
		return err
	}
	n := int32(binary.LittleEndian.Uint32(b))
	genOff := off + 4
	if n < 0 || int64(n) > (size-genOff)/8 {
		return formatErr(off, "generation count %d does not fit in the file (size %d)", n, size)
	}
	if n > MaxGenerations {
		return formatErr(off, "generation count %d is over the limit of %d", n, MaxGenerations)
	}
	gb, err := hr.at(genOff, int(n)*8, "generation table")
	if err != nil {
		return err
	}
	h.Generations, h.Heritage = resize(h.Generations, int(n)), nil
	for i := range h.Generations {
		h.Generations[i] = Generation{
			ExportCount: int32(binary.LittleEndian.Uint32(gb[8*i:])),
			NameCount:   int32(binary.LittleEndian.Uint32(gb[8*i+4:])),
		}
	}
	return nil
}

// readGUIDPrefix returns the raw licensee fields at off, before the GUID:
// lay.GUIDPrefix bytes, or Splinter Cell's magic with its byte array when
// the magic is there. It returns nil when the layout has none.
func readGUIDPrefix(hr *headerReader, off int64, lay Layout) ([]byte, error) {
	if lay.GUIDPrefix > 0 {
		return hr.at(off, lay.GUIDPrefix, "header")
	}
	if !lay.SCMagic {
		return nil, nil
	}
	// The magic, then a byte array: a compact index count and the bytes.
	n := min(int64(4+5), hr.size-off)
	if n < 4 {
		return nil, formatErr(off, "header truncated")
	}
	b, err := hr.at(off, int(n), "header")
	if err != nil {
		return nil, err
	}
	if binary.LittleEndian.Uint32(b) != scMagic {
		return nil, nil
	}
	d := &decoder{b: b[:n], pos: 4, base: off}
	count := d.index()
	switch {
	case d.err != nil:
		return nil, d.err
	case d.short > 0:
		return nil, formatErr(off+4, "header truncated")
	case count < 0 || count > maxSCArray:
		return nil, formatErr(off+4, "splinter cell header array of %d bytes (want 0 to %d)", count, maxSCArray)
	}
	return hr.at(off, d.pos+int(count), "header")
}

// headerSize returns the length of a header of the layout with one
// generation and no optional fields.
func (l Layout) headerSize(version uint16) int64 {
	n := int64(8 + 28)
	if l.FlagsPrefix {
		n += 4
	}
	if version < 68 {
		return n + 8
	}
	n += int64(l.GUIDPrefix) + 4 + 8
	if !l.NoGUID {
		n += 16
	}
	return n
}

// tableFields returns the header offset of NameCount (the table counts and
// offsets follow it), for error messages.
func (h *Header) tableFields() int64 {
	if layoutOf(h.Version, h.Licensee).FlagsPrefix {
		return 16
	}
	return 12
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
		return f.tableFields() + 24 + 8
	}
	return f.headerEndOf(f.tableFields())
}

// headerEndOf returns the end of a header (version >= 68) whose table
// counts start at fields.
func (h *Header) headerEndOf(fields int64) int64 {
	end := fields + 24 + int64(len(h.GUIDPrefix)) + 4 + 8*int64(len(h.Generations))
	if !layoutOf(h.Version, h.Licensee).NoGUID {
		end += 16
	}
	return end
}

// readTables reads the three tables through sc's cache, which prefetch has
// filled.
func (f *File) readTables(size int64, sc *scratch) error {
	h := &f.Header
	end := f.headerEnd()
	field := h.tableFields()
	minName, minImport, minExport := layoutOf(h.Version, h.Licensee).minRecords()
	if err := checkTable(size, end, "name", field, h.NameCount, h.NameOffset, int64(minName), MaxNames); err != nil {
		return err
	}
	if err := checkTable(size, end, "import", field+16, h.ImportCount, h.ImportOffset, int64(minImport), MaxImports); err != nil {
		return err
	}
	if err := checkTable(size, end, "export", field+8, h.ExportCount, h.ExportOffset, int64(minExport), MaxExports); err != nil {
		return err
	}
	tr := tableReader{f: f, size: size, tc: &sc.cache, dec: &sc.dec, lay: layoutOf(h.Version, h.Licensee),
		limits: [3]int32{h.NameCount, h.ImportCount, h.ExportCount}}
	tr.std = tr.lay.IsStandard()

	// When the import and export tables were read ahead, the export table
	// decodes first: its serial offsets bound the name table, which is then
	// read at once too. Errors keep table order: names, imports, exports.
	var exportErr error
	early := sc.cache.spans[0].b != nil
	if early {
		if exportErr = tr.exports(); exportErr == nil {
			sc.spans = sc.cache.prefetchNames(h, tr.serial.lo, sc.spans)
		}
	}
	if err := tr.names(sc); err != nil {
		return err
	}
	if err := tr.imports(); err != nil {
		return err
	}
	if !early {
		exportErr = tr.exports()
	}
	if exportErr != nil {
		return exportErr
	}
	return f.checkOuterChains(sc)
}

// tableReader decodes one file's tables into f.
type tableReader struct {
	f      *File
	size   int64
	tc     *tableCache
	dec    *decoder // readTable's, in the scratch memory
	lay    Layout
	std    bool     // the standard layout: the fast paths apply
	limits [3]int32 // name, import and export counts
	serial serialLow
}

// serialLow notes the least serial offset of the exports at or after base
// (the name table's offset), as a distance from base, which bounds the
// name table (prefetchNames): one unsigned comparison takes both ends, an
// offset before base wrapping above any distance in the file. The export
// decoders note it as they go, so that the table is not read again for it.
type serialLow struct{ base, lo uint32 }

// note notes ex's serial offset when it has serial data.
func (sl *serialLow) note(ex *Export) {
	if d := uint32(ex.SerialOffset) - sl.base; ex.SerialSize > 0 && d < sl.lo {
		sl.lo = d
	}
}

// names decodes the name table into one buffer of text, the end of each
// name in it and its flags: the text of a plain ASCII record as the file
// holds it (its end >= 0), that of any other converted to UTF-8 now (its
// end < 0, complemented). A View keeps these and slices a name out when
// asked (nameAt); a File makes Names of them at once, slices of one string:
// one allocation for the whole table instead of one per name.
func (tr *tableReader) names(sc *scratch) error {
	f, h := tr.f, &tr.f.Header
	n := int(h.NameCount)
	f.Names = reuse(f.Names, n)
	if sc.lazy && tr.std && h.Version >= 64 && tr.namesInPlace(sc) {
		return nil
	}
	ends := reuse(sc.ends, n)
	text := reuse(sc.text, n*12)
	oldNames := h.Version < 64
	var bulk func(d *decoder, left int) int
	flags := reuse(sc.flags, n)
	if tr.std && !oldNames {
		bulk = func(d *decoder, left int) int {
			var k int
			text, ends, flags, d.pos, k = bulkNames(text, ends, flags, n, d.b, d.pos, left)
			return k
		}
	}
	minName, _, _ := tr.lay.minRecords()
	err := readTable(tr.tc, tr.dec, tr.size, int64(h.NameOffset), n, minName, "name", tr.limits, bulk, func(d *decoder) {
		var raw []byte
		wide := false
		switch {
		case oldNames:
			raw = d.cstring()
		case tr.std:
			raw, wide = d.fstring()
		default:
			raw, wide = d.nameString(tr.lay, false)
		}
		fl := d.u32()
		if !d.failed() {
			text = appendText(text, raw, wide)
			ends = append(grow(ends, n), ^int32(len(text))) // converted already
			flags = append(grow(flags, n), fl)
		}
	})
	if err != nil {
		return err
	}
	// text is not written again while the names live (a Reader reuses it
	// for its next file, when its File's names are dead by contract): the
	// names alias it instead of copying.
	sc.ends, sc.text, sc.flags = ends, text, flags
	if sc.lazy {
		f.lazyText, f.lazyEnds, f.lazyFlags = text, ends, flags
		f.lazySrc, f.lazyOffs = nil, nil
		return nil
	}
	// The eager File: every name decoded now.
	if cap(f.Names) < len(ends) {
		f.Names = make([]Name, len(ends)) // the records are there: no more trust needed
	}
	f.Names = f.Names[:len(ends)]
	all, start := unsafe.String(unsafe.SliceData(text), len(text)), int32(0)
	for i, end := range ends {
		if end < 0 { // converted when read
			end = ^end
		}
		f.Names[i] = Name{Name: all[start:end], Flags: flags[i]}
		start = end
	}
	return nil
}

// namesInPlace reads the name table of a View where it lies, when the
// table cache holds all of it and every record is one rawName reads: each
// name is kept as the offset of its record in the cache's memory, which
// the Reader keeps until its next call, as long as the View lives;
// nothing is copied. It reports false, having kept nothing, for any other
// table (not read ahead, or a record rawName leaves to the careful path,
// which reports what is wrong with it).
func (tr *tableReader) namesInPlace(sc *scratch) bool {
	f, h := tr.f, &tr.f.Header
	n := int(h.NameCount)
	w := tr.tc.window(int64(h.NameOffset))
	if w == nil {
		return false
	}
	offs, flags, _, k, conv := bulkNameOffsets(reuse(sc.offs, n), reuse(sc.flags, n), n, w, 0, n)
	sc.offs, sc.flags = offs, flags
	if k < n {
		return false
	}
	f.lazySrc, f.lazyOffs, f.lazyFlags = w, offs, flags
	f.lazyText, f.lazyEnds = nil, nil
	if conv > 0 {
		// The few names that are not plain ASCII, converted now into text
		// and ends as names converts them; the record's offset becomes the
		// index of its text there (still negative), so that NameAt only
		// slices.
		text, ends := reuse(sc.text, 0), reuse(sc.ends, conv)
		for i, o := range offs {
			if o < 0 {
				r := w[^o+1 : ^o+int32(w[^o])]
				text = appendText(text, r, false)
				offs[i] = ^int32(len(ends))
				ends = append(ends, ^int32(len(text)))
			}
		}
		sc.text, sc.ends = text, ends
		f.lazyText, f.lazyEnds = text, ends
	}
	return true
}

// nameWindow is the most bytes a name record rawName accepts takes: a
// length byte, 63 bytes of text with the NUL, the flags.
const nameWindow = 1 + 63 + 4

// extendPair extends a name table's per-record slices (ends or offsets,
// and flags) by as many records as both have room for, at most want,
// growing either toward n records when it is full; m is how many.
func extendPair(a []int32, flags []uint32, n, want int) (_ []int32, _ []uint32, m int) {
	if len(a) == cap(a) {
		a = grow(a, n)
	}
	if len(flags) == cap(flags) {
		flags = grow(flags, n)
	}
	m = min(want, cap(a)-len(a), cap(flags)-len(flags))
	return a[:len(a)+m], flags[:len(flags)+m], m
}

// bulkNameOffsets is bulkNames for namesInPlace: it appends the offset of
// each record in b, not its text; ^offset (negative) for a record whose text
// is not plain ASCII (Latin-1, or a NUL inside), which namesInPlace
// converts, and returns how many of those it marked in conv. It accepts
// the records rawName accepts (TestNameOffsetsAgree), read here without
// making the text's slice rawName returns, which is most of the work.
func bulkNameOffsets(offs []int32, flags []uint32, n int, b []byte, p, left int) (_ []int32, _ []uint32, next, k, conv int) {
	for k < left {
		j := len(offs)
		var m int
		offs, flags, m = extendPair(offs, flags, n, left-k)
		for i := j; i < j+m; i++ {
			d, np, dc := windowNameOffsets(offs[i:j+m], flags[i:j+m], b, p)
			i, p, conv = i+d, np, conv+dc
			if i == j+m {
				break
			}
			// A record less than a window before the end of b, or one
			// the window declines.
			if p >= len(b) {
				return offs[:i], flags[:i], p, k + i - j, conv
			}
			c := int(b[p])
			end := p + 1 + c
			if c == 0 || c&0xc0 != 0 || end+4 > len(b) || b[end-1] != 0 {
				return offs[:i], flags[:i], p, k + i - j, conv
			}
			o := int32(p)
			if !plainASCII(b[p+1 : end-1]) {
				o, conv = ^o, conv+1
			}
			offs[i], flags[i] = o, binary.LittleEndian.Uint32(b[end:end+4])
			p = end + 4
		}
		k += m
	}
	return offs, flags, p, k, conv
}

// windowNameOffsets is bulkNameOffsets' loop over the records that lie a
// whole window (the largest record) before the end of b, the most: it
// stores the offsets and flags of records from p on, for as long as they
// are accepted, at most len(offs) of them, and returns how many, the
// offset after them and how many it marked. A loop of its own, with few
// values live in it: in bulkNameOffsets's, the compiler kept them on the
// stack, loading and storing them on every record.
func windowNameOffsets(offs []int32, flags []uint32, b []byte, p int) (k, next, conv int) {
	last := len(b) - nameWindow // the last offset a window starts at
	flags = flags[:len(offs)]
	for i := range offs {
		if p > last || p < 0 {
			return i, p, conv
		}
		// The largest record fits in the window: no bounds checks.
		a := (*[nameWindow]byte)(b[p : p+nameWindow])
		c := int(a[0])
		if c == 0 || c&0xc0 != 0 || a[c&63] != 0 {
			return i, p, conv
		}
		c &= 63
		o := int32(p)
		if !plain32(a, c-1) || c > 33 && !plainASCII(a[33:c]) {
			o, conv = ^o, conv+1
		}
		offs[i], flags[i] = o, binary.LittleEndian.Uint32(a[c+1:c+5])
		p += c + 5
	}
	return len(offs), p, conv
}

// imports decodes the import table.
func (tr *tableReader) imports() error {
	f, h := tr.f, &tr.f.Header
	n, limits := int(h.ImportCount), tr.limits
	f.Imports = reuse(f.Imports, n)
	var bulk func(d *decoder, left int) int
	if tr.std {
		bulk = func(d *decoder, left int) int {
			var k int
			f.Imports, d.pos, k = bulkImports(f.Imports, n, d.b, d.pos, left, &limits)
			return k
		}
	}
	_, minImport, _ := tr.lay.minRecords()
	return readTable(tr.tc, tr.dec, tr.size, int64(h.ImportOffset), n, minImport, "import", limits, bulk, func(d *decoder) {
		f.Imports = grow(f.Imports, n)
		if !tr.std {
			if im, ok := d.importRecord(tr.lay); ok {
				f.Imports = append(f.Imports, im)
			}
		} else if im, ok := d.stdImport(); ok {
			f.Imports = append(f.Imports, im)
		}
	})
}

// exports decodes the export table.
func (tr *tableReader) exports() error {
	f, h := tr.f, &tr.f.Header
	n, limits, size := int(h.ExportCount), tr.limits, tr.size
	f.Exports = reuse(f.Exports, n)
	tr.serial = serialLow{base: uint32(h.NameOffset), lo: ^uint32(0)}
	sl := &tr.serial
	var bulk func(d *decoder, left int) int
	if tr.std {
		bulk = func(d *decoder, left int) int {
			var k int
			f.Exports, d.pos, k = bulkExports(f.Exports, n, d.b, d.pos, left, &limits, size, sl)
			return k
		}
	}
	_, _, minExport := tr.lay.minRecords()
	return readTable(tr.tc, tr.dec, size, int64(h.ExportOffset), n, minExport, "export", limits, bulk, func(d *decoder) {
		f.Exports = grow(f.Exports, n)
		ex, ok := Export{}, false
		if !tr.std {
			ex, ok = d.exportRecord(tr.lay, size)
		} else {
			ex, ok = d.stdExport(size)
		}
		if ok {
			f.Exports = append(f.Exports, ex)
			sl.note(&ex)
		}
	})
}

// bulkNames is readTable's bulk step for a standard name table of n
// records: it decodes whole records from b at p with rawName, for as long
// as it accepts them and at most left of them, appending each one's text
// (converted when it is not plain ASCII), end and flags (see
// tableReader.names), and returns the slices, the offset after the last
// record and how many it decoded.
func bulkNames(text []byte, ends []int32, flags []uint32, n int, b []byte, p, left int) ([]byte, []int32, []uint32, int, int) {
	k := 0
	for k < left {
		j := len(ends)
		var m int
		ends, flags, m = extendPair(ends, flags, n, left-k)
		for i := j; i < j+m; i++ {
			raw, fl, next, ok := rawName(b, p)
			if !ok {
				return text, ends[:i], flags[:i], p, k
			}
			l := len(text)
			if len(raw) <= 16 && p+17 <= len(b) && cap(text)-l >= 16 {
				// Most names: one 16-byte move (the bytes after the name
				// are overwritten by the next one), not a call of memmove.
				*(*[16]byte)(text[l : l+16]) = *(*[16]byte)(b[p+1 : p+17])
				text = text[:l+len(raw)]
			} else {
				text = append(text, raw...)
			}
			end := int32(len(text))
			if !plainASCII(raw) {
				// Latin-1, or a NUL inside: converted now, as the careful
				// path converts every record it reads.
				text = appendText(text[:l], raw, false)
				end = ^int32(len(text))
			}
			ends[i], flags[i] = end, fl
			p = next
			k++
		}
	}
	return text, ends, flags, p, k
}

// bulkImports is readTable's bulk step for a standard import table of n
// records (bulkRecords with fastImports and fastImportLong).
func bulkImports(s []Import, n int, b []byte, p, left int, limits *[3]int32) ([]Import, int, int) {
	return bulkRecords(s, n, p, left,
		func(s []Import, p int) (int, int) { return fastImports(s, b, p, limits) },
		func(r *Import, p int) (int, bool) { return fastImportLong(r, b, p, limits) })
}

// bulkExports is bulkImports for the export table, with fastExports and
// fastExportLong; size is the file size that serial data must lie within;
// sl notes the records' serial offsets.
func bulkExports(s []Export, n int, b []byte, p, left int, limits *[3]int32, size int64, sl *serialLow) ([]Export, int, int) {
	return bulkRecords(s, n, p, left,
		func(s []Export, p int) (int, int) { return fastExports(s, b, p, limits, size, sl) },
		func(r *Export, p int) (int, bool) {
			next, ok := fastExportLong(r, b, p, limits, size)
			if ok {
				sl.note(r)
			}
			return next, ok
		})
}

// bulkRecords decodes whole records from p on, in place at the end of s
// (grown toward n records): runs with fast, which decodes records into a
// slice and returns how many it took and the offset after them, and a
// record fast stops at with long, which decodes one record with an index
// of any length, for as long as they are accepted and at most left of
// them. It returns s, the offset after the last record and how many it
// decoded. (fast and long are called once a run, not once a record.)
func bulkRecords[T any](s []T, n, p, left int, fast func(s []T, p int) (int, int), long func(r *T, p int) (int, bool)) ([]T, int, int) {
	k := 0
	for k < left {
		if len(s) == cap(s) {
			s = grow(s, n)
		}
		m := min(left-k, cap(s)-len(s))
		j := len(s)
		d, next := fast(s[j:j+m], p)
		s, p, k = s[:j+d], next, k+d
		if d == m {
			continue
		}
		next, ok := long(&s[:j+d+1][j+d], p)
		if !ok {
			return s, p, k
		}
		s, p, k = s[:j+d+1], next, k+1
	}
	return s, p, k
}

// bufPool recycles table read buffers across tables and files; buffers
// larger than maxPooledBuf are left to the garbage collector.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

const maxPooledBuf = 4 << 20

// readTable decodes count records starting at off with d. It reads the file in
// steps that never go past the bytes the remaining records need at the least
// (remaining × minRecord, or more once a record's own length is known), so it
// touches only the table's own span. When r is a tableCache holding the
// table, the records decode from its memory in place.
//
// bulk, when not nil, decodes as many whole records as it can from d.b at
// d.pos in one tight loop (the fast path of well-formed records, never
// reading past d.b) and returns how many, at most left; record decodes one
// record carefully, reporting what is wrong with it, and is called for the
// record bulk stopped at.
func readTable(r io.ReaderAt, d *decoder, size, off int64, count, minRecord int, what string, limits [3]int32, bulk func(d *decoder, left int) int, record func(*decoder)) error {
	if count == 0 {
		return nil
	}
	*d = decoder{base: off, names: limits[0], imports: limits[1], exports: limits[2]}
	next := off // file offset of the first byte not yet read
	if tc, ok := r.(*tableCache); ok {
		if w := tc.window(off); w != nil {
			d.b = w
			next = off + int64(len(w))
		}
	}
	// The pooled buffer is taken when a read needs it: a table the cache
	// holds (most) decodes without one.
	var pooled *[]byte
	var buf []byte
	defer func() {
		if pooled != nil && cap(buf) <= maxPooledBuf {
			*pooled = buf[:0]
			bufPool.Put(pooled)
		}
	}()
	for done := 0; done < count; {
		if bulk != nil {
			if done += bulk(d, count-done); done == count {
				break
			}
		}
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
		have := int64(len(d.b) - start)
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
		// Move the unconsumed tail to the front of buf (from the cache's
		// memory, or within buf), then read the new bytes after it, growing
		// buf only when it is too small.
		tail := len(d.b) - start
		if pooled == nil {
			pooled = bufPool.Get().(*[]byte)
			buf = (*pooled)[:0]
		}
		if need := tail + int(more); need > cap(buf) {
			nb := make([]byte, need, max(need, 2*cap(buf)))
			copy(nb, d.b[start:])
			buf = nb
		} else {
			copy(buf[:need], d.b[start:])
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
	if f.outerChainsEnd(sc) {
		return nil
	}
	return f.walkOuterChains(sc)
}

// outerChainsEnd reports whether every outer chain ends, for the tables
// the engine writes, where an import's outer is an import and an export's
// an export: each table apart, with chainsEnd. It reports false, for
// walkOuterChains to decide and name the record, when a chain crosses
// tables or may loop.
func (f *File) outerChainsEnd(sc *scratch) bool {
	imports, exports := f.Imports, f.Exports
	next := reuse(sc.walk, max(len(imports), len(exports))+1)
	sc.walk = next
	// The outer of each record as an index in its table, the table's
	// length (root) for none; open collects the bits of every outer that
	// is not root.
	root := int32(len(imports))
	next = next[:root+1]
	open := int32(0)
	for i := range imports {
		o := int32(imports[i].Outer)
		if o > 0 {
			return false // an export: a chain across tables
		}
		v := -o - 1
		if o == 0 {
			v = root
		}
		next[i], open = v, open|(v^root)
	}
	next[root] = root
	if !chainsEnd(next, open) {
		return false
	}
	root = int32(len(exports))
	next = next[:root+1]
	open = 0
	for i := range exports {
		o := int32(exports[i].Outer)
		if o < 0 {
			return false
		}
		v := o - 1
		if o == 0 {
			v = root
		}
		next[i], open = v, open|(v^root)
	}
	next[root] = root
	return chainsEnd(next, open)
}

// chainsEnd reports whether every chain of links next (next[i] the record
// after i; the last element is the root, its own next) reaches the root,
// open being 0 when every link goes there already. It doubles the links
// (each record then links to the one two links on) until every one is the
// root, or until they span more links than there are records, when a chain
// loops: a few passes over the table, none with a branch that depends on
// the chains, where a walk of each chain branches on each record's outer,
// unpredictably (forward and backward references are mixed in real
// tables).
func chainsEnd(next []int32, open int32) bool {
	root := len(next) - 1
	if open != 0 && fourHops(next) {
		return true
	}
	for span := 1; open != 0; span *= 2 {
		if span >= root {
			return false // a chain longer than the table: a loop
		}
		open = 0
		for i, j := range next[:root] {
			k := next[j]
			next[i], open = k, open|(k^int32(root))
		}
	}
	return true
}

// fourHops reports whether every chain of links next (as chainsEnd takes
// them) reaches the root within four links, as the engine's tables do (a
// state's function's parameter is four from the package): one pass of
// loads, where doubling the links takes two passes that store them.
func fourHops(next []int32) bool {
	root := int32(len(next) - 1)
	open := int32(0)
	for _, j := range next {
		open |= next[next[next[j]]] ^ root
	}
	return open == 0
}

// walkOuterChains is checkOuterChains by walking each chain, through both
// tables; it names the record that closes a loop.
func (f *File) walkOuterChains(sc *scratch) error {
	ni := len(f.Imports)
	// Sized by the records read, not by a count from the header. walk[i]
	// is 0 until a walk reaches record i (imports first, then exports),
	// then that walk's number: a walk that meets its own number has
	// looped; one that meets an earlier walk's has joined a chain already
	// known to end.
	n := ni + len(f.Exports)
	walk := sc.walk[:0]
	if cap(walk) < n {
		walk = make([]int32, n)
	}
	walk = walk[:n]
	clear(walk)
	sc.walk = walk
	// Imports inside imports and exports inside exports, the engine's
	// tables, walk within one table, without asking at each step which
	// table the outer is in; a walk that crosses to the other table is
	// left to walkOuter, which follows both.
	imports, exports := f.Imports, f.Exports
	iw, ew := walk[:ni], walk[ni:]
	for start := range imports {
		if iw[start] != 0 {
			continue
		}
		id := int32(start + 1)
		cur := start
		for {
			iw[cur] = id
			o := imports[cur].Outer
			if o >= 0 {
				if o > 0 && !f.walkOuter(walk, o, id) {
					return f.loopErr(walk, id)
				}
				break
			}
			if cur = int(-o) - 1; iw[cur] != 0 {
				if iw[cur] == id {
					return formatErr(int64(f.ImportOffset), "outer chain of import %d loops", cur)
				}
				break
			}
		}
	}
	for start := range exports {
		if ew[start] != 0 {
			continue
		}
		id := int32(ni + start + 1)
		cur := start
		for {
			ew[cur] = id
			o := exports[cur].Outer
			if o <= 0 {
				if o < 0 && !f.walkOuter(walk, o, id) {
					return f.loopErr(walk, id)
				}
				break
			}
			if cur = int(o) - 1; ew[cur] != 0 {
				if ew[cur] == id {
					return formatErr(int64(f.ExportOffset), "outer chain of export %d loops", cur)
				}
				break
			}
		}
	}
	return nil
}

// walkOuter continues walk id of checkOuterChains at outer, through both
// tables, and reports whether it ends; when it loops, the record that
// closes the loop is left marked -id for loopErr.
func (f *File) walkOuter(walk []int32, outer Ref, id int32) bool {
	ni := len(f.Imports)
	for !outer.IsNull() {
		cur := outer.Index()
		if !outer.IsImport() {
			cur += ni
		}
		if w := walk[cur]; w != 0 {
			if w == id {
				walk[cur] = -id
				return false
			}
			return true
		}
		walk[cur] = id
		if cur < ni {
			outer = f.Imports[cur].Outer
		} else {
			outer = f.Exports[cur-ni].Outer
		}
	}
	return true
}

// loopErr returns the error for the loop walkOuter found on walk id.
func (f *File) loopErr(walk []int32, id int32) error {
	ni := len(f.Imports)
	cur := slices.Index(walk, -id)
	if cur < ni {
		return formatErr(int64(f.ImportOffset), "outer chain of import %d loops", cur)
	}
	return formatErr(int64(f.ExportOffset), "outer chain of export %d loops", cur-ni)
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
