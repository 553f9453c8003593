package format

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/upkdeps/upkdeps/internal/fsutil"
)

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
