package archive

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"math"
	"slices"
)

// nestedZipTail is how many bytes at the end of a nested zip are kept to
// read its directory from: 16 MiB holds the directory of 20,000 members
// (MaxMembers) with names of 255 characters and every common extra field
// several times over, and the 64 KiB comment the end record may carry. A
// test lowers it to stream small zips.
var nestedZipTail int64 = 16<<20 + 128<<10

// nestedZip walks a zip nested in member m without holding it: a first
// read of m keeps only the zip's last nestedZipTail bytes, which hold its
// directory (the only record of the members the standard reader trusts);
// a second read streams the members in the order they are stored, each
// found at the offset the directory gives. A zip no longer than the tail
// is walked from the tail, read once. Memory: the tail, counted against
// NestedBudget, and one member's decompressor.
func (w *walker) nestedZip(m *Member) error {
	n := min(m.Size, nestedZipTail)
	if err := nested.acquire(w.ctx, n); err != nil {
		return callerErr{err}
	}
	defer nested.release(n)
	tail, err := m.readTail(n)
	if cerr := w.ctx.Err(); cerr != nil {
		return callerErr{cerr}
	}
	if err != nil {
		m.Err = err
		return w.call(m)
	}
	if n == m.Size {
		return w.nestedDone(m, w.walk(Zip, bytes.NewReader(tail), n, m.Name))
	}
	err = w.walkList(func(yield func(entry) error) error { return w.listZipStream(m, tail, yield) }, m.Name)
	return w.nestedDone(m, err)
}

// readTail reads member m to its end and returns its last n bytes (n is
// at most m.Size), read through a ring buffer of n bytes.
func (m *Member) readTail(n int64) ([]byte, error) {
	rc, err := m.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	buf := make([]byte, n)
	var p int
	var read int64
	for {
		k, err := rc.Read(buf[p:])
		p += k
		read += int64(k)
		if p == len(buf) {
			p = 0
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if read < m.Size {
		return nil, &Error{m.arch, m.Path(), fmt.Errorf("member is shorter than its declared %d bytes", m.Size)}
	}
	// The oldest byte is at p: rotate it to the front in place.
	slices.Reverse(buf[:p])
	slices.Reverse(buf[p:])
	slices.Reverse(buf)
	return buf, nil
}

// errBeforeTail is the error of a read of a streamed nested zip before
// the tail that was kept.
var errBeforeTail = errors.New("before the kept tail")

// tailReaderAt reads the last bytes of a zip of size bytes, kept in b,
// and notes the offset of each read: zip.File.DataOffset reads a member's
// local header at its offset, which the standard reader does not export.
type tailReaderAt struct {
	b     []byte
	base  int64 // the offset of b[0]
	asked int64 // the offset of the last read
}

func (t *tailReaderAt) ReadAt(p []byte, off int64) (int, error) {
	t.asked = off
	if off < t.base {
		return 0, errBeforeTail
	}
	if off-t.base >= int64(len(t.b)) {
		return 0, io.EOF
	}
	n := copy(p, t.b[off-t.base:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// headerOffset returns where f's local header starts, asked of the
// reader it was listed from: its DataOffset reads the local header
// there first (zip's APPNOTE: the directory records that offset).
func (t *tailReaderAt) headerOffset(f *zip.File) int64 {
	t.asked = math.MinInt64
	f.DataOffset()
	return t.asked
}

// listZipStream lists the zip nested in member m, whose last bytes are
// tail, from the directory in the tail, and opens each member from a
// second read of m, front to back: in the order the members are stored.
// A member that starts before the end of the one before it (two entries
// of one stored file, or overlapping ones: a bomb's layout) cannot be
// read; a member whose local header is not there is an error of its own.
// A member can be opened once, while the walk function runs for it.
func (w *walker) listZipStream(m *Member, tail []byte, yield func(entry) error) error {
	size := m.Size
	at := &tailReaderAt{b: tail, base: size - int64(len(tail))}
	if n, ok := zipCount(at, size); ok && n > w.lim.MaxMembers {
		return fmt.Errorf("the zip directory claims %d members, more than %d: %w", n, w.lim.MaxMembers, ErrLimit)
	}
	zr, err := zip.NewReader(at, size)
	if errors.Is(err, errBeforeTail) {
		// An error of this member (not ErrLimit, which would end the
		// walk of the outer archive).
		return fmt.Errorf("the zip directory starts more than %d bytes before the end of the nested zip, over the limit of a nested zip's directory", len(tail))
	}
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return err
	}
	type stored struct {
		f   *zip.File
		off int64
	}
	files := make([]stored, len(zr.File))
	for i, f := range zr.File {
		files[i] = stored{f, at.headerOffset(f)}
	}
	slices.SortStableFunc(files, func(a, b stored) int {
		switch {
		case a.off < b.off:
			return -1
		case a.off > b.off:
			return 1
		}
		return 0
	})
	rc, err := m.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	s := &countingReader{r: bufio.NewReaderSize(rc, 64<<10)}
	for _, sf := range files {
		f := sf.f
		e := entry{name: f.Name, size: int64(f.UncompressedSize64), mod: f.Modified, crc: f.CRC32,
			dir: f.FileInfo().IsDir(), once: true}
		if f.UncompressedSize64 > 1<<62 {
			e.size = -1
		}
		var data *io.LimitedReader
		switch {
		case sf.off < s.n || sf.off >= size:
			e.bad = fmt.Errorf("stored at offset %d, inside the member before it or past the end of the nested zip: not read", sf.off)
		default:
			if _, err := io.CopyN(io.Discard, s, sf.off-s.n); err != nil {
				return streamErr(err)
			}
			var h [30]byte
			if _, err := io.ReadFull(s, h[:]); err != nil {
				return streamErr(err)
			}
			if string(h[:4]) != "PK\x03\x04" {
				e.bad = fmt.Errorf("no local file header at offset %d", sf.off)
				break
			}
			skip := int64(binary.LittleEndian.Uint16(h[26:])) + int64(binary.LittleEndian.Uint16(h[28:]))
			if _, err := io.CopyN(io.Discard, s, skip); err != nil {
				return streamErr(err)
			}
			data = &io.LimitedReader{R: s, N: int64(min(f.CompressedSize64, math.MaxInt64))}
			e.open = zipStreamOpener(f, data)
		}
		if err := yield(e); err != nil {
			return err
		}
		if data != nil {
			// Whatever the walk function left unread.
			if _, err := io.Copy(io.Discard, data); err != nil {
				return streamErr(err)
			}
		}
	}
	return nil
}

// streamErr is the error of a read of a nested zip's bytes: an unexpected
// end says the directory points past them.
func streamErr(err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return errors.New("the zip directory points past the end of the nested zip")
	}
	return err
}

// zipStreamOpener returns the open function of a streamed member f whose
// compressed bytes data reads: once, as the standard reader would (stored
// or deflated, the CRC-32 checked at the end).
func zipStreamOpener(f *zip.File, data io.Reader) func() (io.ReadCloser, error) {
	opened := false
	return func() (io.ReadCloser, error) {
		if opened {
			return nil, errors.New("a member of a nested zip is read once, in order")
		}
		opened = true
		var r io.ReadCloser
		switch f.Method {
		case zip.Store:
			r = io.NopCloser(data)
		case zip.Deflate:
			r = flate.NewReader(data)
		default:
			return nil, zip.ErrAlgorithm
		}
		return &crcReader{r: r, want: f.CRC32, hash: crc32.NewIEEE()}, nil
	}
}

// crcReader fails at the end of a member whose CRC-32 is not the one its
// directory entry declares (0: none declared).
type crcReader struct {
	r    io.ReadCloser
	want uint32
	hash hash.Hash32
}

func (c *crcReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.hash.Write(p[:n])
	if err == io.EOF && c.want != 0 && c.hash.Sum32() != c.want {
		return n, zip.ErrChecksum
	}
	return n, err
}

func (c *crcReader) Close() error { return c.r.Close() }

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
