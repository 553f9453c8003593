package archive

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"math/bits"

	"github.com/bodgit/sevenzip"
	"github.com/nwaples/rardecode/v2"
)

// listZip lists a .zip with the standard library, which checks each
// member's CRC-32 and declared size as it is read. The member count in the
// end-of-central-directory record is checked against MaxMembers before
// zip.NewReader allocates the directory.
func (w *walker) listZip(r io.ReaderAt, size int64, yield func(entry) error) error {
	if n, ok := zipCount(r, size); ok && n > w.lim.MaxMembers {
		return &Error{w.path, "", fmt.Errorf("the zip directory claims %d members, more than %d: %w", n, w.lim.MaxMembers, ErrLimit)}
	}
	zr, err := zip.NewReader(r, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return err
	}
	for _, f := range zr.File {
		f := f
		e := entry{name: f.Name, size: int64(f.UncompressedSize64), mod: f.Modified, crc: f.CRC32,
			dir: f.FileInfo().IsDir(), open: f.Open}
		if f.UncompressedSize64 > 1<<62 {
			e.size = -1
		}
		if err := yield(e); err != nil {
			return err
		}
	}
	return nil
}

// zipCount reads the member count of the end-of-central-directory record
// (the last 64 KiB + 22 bytes hold it); ok is false when none is found, and
// zip.NewReader then reports the error.
func zipCount(r io.ReaderAt, size int64) (int, bool) {
	n := min(size, 65535+22)
	buf := make([]byte, n)
	if _, err := r.ReadAt(buf, size-n); err != nil && err != io.EOF {
		return 0, false
	}
	i := bytes.LastIndex(buf, []byte("PK\x05\x06"))
	if i < 0 || len(buf)-i < 22 {
		return 0, false
	}
	count := int(binary.LittleEndian.Uint16(buf[i+10:]))
	if count != 0xFFFF {
		return count, true
	}
	// Zip64: the locator just before the record points at the zip64
	// end-of-central-directory record, whose total count is a uint64.
	loc := i - 20
	if loc < 0 || string(buf[loc:loc+4]) != "PK\x06\x07" {
		return 0, false
	}
	off := int64(binary.LittleEndian.Uint64(buf[loc+8:]))
	var rec [40]byte
	if off < 0 || off > size-40 {
		return 0, false
	}
	if _, err := r.ReadAt(rec[:], off); err != nil || string(rec[:4]) != "PK\x06\x06" {
		return 0, false
	}
	total := binary.LittleEndian.Uint64(rec[32:])
	if total > math.MaxInt32 {
		return math.MaxInt32, true
	}
	return int(total), true
}

// list7z lists a .7z through github.com/bodgit/sevenzip (pure Go; LZMA,
// LZMA2, PPMd, BZip2, Deflate, BCJ filters; maintained), which reads
// the header into memory: the archive size bounds it.
func (w *walker) list7z(r io.ReaderAt, size int64, yield func(entry) error) error {
	// The library reads the whole header (the member list) before it
	// says how many members there are, and cannot be asked to stop: the
	// header's size, in the start header, is checked first.
	if n, ok := sevenZipHeaderSize(r, size); ok && n > max7zHeader {
		return &Error{w.path, "", fmt.Errorf("the 7z header is %d bytes, over the %d-byte limit (more members than the %d-member limit could need): %w", n, max7zHeader, w.lim.MaxMembers, ErrLimit)}
	}
	if n, ok := sevenZipEncodedHeaderSize(r, size); ok && n > max7zHeader {
		return &Error{w.path, "", fmt.Errorf("the 7z header unpacks to %d bytes, over the %d-byte limit (more members than the %d-member limit could need): %w", n, max7zHeader, w.lim.MaxMembers, ErrLimit)}
	}
	zr, err := sevenzip.NewReader(r, size)
	if err != nil {
		return err
	}
	if len(zr.File) > w.lim.MaxMembers {
		return &Error{w.path, "", fmt.Errorf("%d members, more than %d: %w", len(zr.File), w.lim.MaxMembers, ErrLimit)}
	}
	for _, f := range zr.File {
		e := entry{name: f.Name, size: int64(f.UncompressedSize), mod: f.Modified, crc: f.CRC32,
			dir: f.FileInfo().IsDir(), open: f.Open}
		if f.UncompressedSize > 1<<62 {
			e.size = -1
		}
		if err := yield(e); err != nil {
			return err
		}
	}
	return nil
}

// listRAR lists a .rar (RAR 1.5 to 5) through
// github.com/nwaples/rardecode/v2 (pure Go, streaming, the RAR reader most
// Go archivers use). RAR is read sequentially: a member can be opened only
// while the walk function runs for it. The decoder's dictionary is capped
// so that a crafted header cannot make it allocate gigabytes.
func (w *walker) listRAR(r io.ReaderAt, size int64, yield func(entry) error) error {
	return w.listRARStream(io.NewSectionReader(r, 0, size), yield)
}

// listRARStream lists a .rar read front to back from r.
func (w *walker) listRARStream(r io.Reader, yield func(entry) error) error {
	rr, err := rarSafe(func() (*rardecode.Reader, error) {
		return rardecode.NewReader(r, rardecode.MaxDictionarySize(MaxDictionary))
	})
	if err != nil {
		return err
	}
	for {
		h, err := rarSafe(rr.Next)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		e := entry{name: h.Name, size: h.UnPackedSize, mod: h.ModificationTime, dir: h.IsDir,
			open: func() (io.ReadCloser, error) { return io.NopCloser(rarReader{rr}), nil }, once: true}
		switch {
		case h.Encrypted:
			e.bad = errors.New("encrypted")
		case h.UnKnownSize:
			e.bad = errors.New("unknown size")
		case h.LinkType != 0:
			e.dir = true // a link is no file: skip it
		}
		if err := yield(e); err != nil {
			return err
		}
	}
}

// rarSafe calls f, a call into the .rar decoder, and returns a panic in it
// as an error: rardecode v2.4.6 (the latest) indexes past a block's bytes
// for some crafted headers (an old-style service block shorter than two
// bytes, found by FuzzWalk7zRar), and a hostile archive must be an error
// of its own, not the end of the process.
func rarSafe[T any](f func() (T, error)) (v T, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("corrupt .rar: the decoder failed (%v)", p)
		}
	}()
	return f()
}

// rarReader reads a .rar member, a panic of the decoder as an error.
type rarReader struct{ rr *rardecode.Reader }

func (r rarReader) Read(p []byte) (int, error) {
	return rarSafe(func() (int, error) { return r.rr.Read(p) })
}

// max7zHeader caps the size of a .7z's header (its member list, as stored)
// that is parsed: 20,000 members with 255-character names and every time
// and attribute field take under 12 MiB.
const max7zHeader = 16 << 20

// sevenZipHeaderSize reads the header size (NextHeaderSize) of the first
// valid start header, where the library looks for one (a signature in the
// first MiB whose start-header CRC matches); ok is false when there is
// none, and the library then reports the error.
func sevenZipHeaderSize(r io.ReaderAt, size int64) (uint64, bool) {
	_, n, ok := sevenZipStart(r, size)
	return n, ok
}

// sevenZipEncodedHeaderSize returns the largest size a compressed
// ("encoded") header unpacks to, as its streams info declares it (7-Zip's
// 7zFormat.txt: PackInfo, then the folders and their unpack sizes); ok is
// false when the header is not encoded or not understood, and the library
// then reads it or reports the error. A few hundred KiB of compressed
// header can list millions of members.
func sevenZipEncodedHeaderSize(r io.ReaderAt, size int64) (uint64, bool) {
	at, n, ok := sevenZipStart(r, size)
	if !ok || n == 0 || at < 0 || at >= size {
		return 0, false
	}
	buf := make([]byte, min(n, 64<<10, uint64(size-at)))
	if k, err := r.ReadAt(buf, at); err != nil && err != io.EOF {
		return 0, false
	} else {
		buf = buf[:k]
	}
	d := &sevenZipDecoder{b: buf, ok: true}
	if d.byte() != 0x17 { // kEncodedHeader
		return 0, false
	}
	id := d.byte()
	if id == 0x06 { // kPackInfo: pack position, stream count, sizes, CRCs
		d.number()
		streams := d.number()
		for id = d.byte(); id != 0x00 && d.ok; id = d.byte() {
			switch id {
			case 0x09: // kSize
				for i := uint64(0); i < streams && d.ok; i++ {
					d.number()
				}
			case 0x0A: // kCRC
				d.digests(streams)
			default:
				return 0, false
			}
		}
		id = d.byte()
	}
	if id != 0x07 || d.byte() != 0x0B { // kUnPackInfo, kFolder
		return 0, false
	}
	folders := d.number()
	if d.byte() != 0 || folders > 64 { // external folders: not read here
		return 0, false
	}
	var outs uint64
	for f := uint64(0); f < folders && d.ok; f++ {
		coders := d.number()
		if coders > 64 {
			return 0, false
		}
		var in, out uint64
		for c := uint64(0); c < coders && d.ok; c++ {
			flags := d.byte()
			d.skip(uint64(flags & 0x0F))
			if flags&0x10 != 0 {
				in += d.number()
				out += d.number()
			} else {
				in, out = in+1, out+1
			}
			if flags&0x20 != 0 {
				d.skip(d.number())
			}
		}
		if out == 0 || out > 64 || in > 64 || in+1 < out {
			return 0, false
		}
		for b := uint64(0); b < 2*(out-1); b++ { // bind pairs
			d.number()
		}
		if packed := in - (out - 1); packed > 1 {
			for p := uint64(0); p < packed; p++ {
				d.number()
			}
		}
		outs += out
	}
	if d.byte() != 0x0C { // kCodersUnPackSize
		return 0, false
	}
	var most uint64
	for i := uint64(0); i < outs && d.ok; i++ {
		most = max(most, d.number())
	}
	return most, d.ok
}

// sevenZipDecoder reads the numbers of a 7z header from bytes; ok turns
// false at the first read past them.
type sevenZipDecoder struct {
	b  []byte
	p  int
	ok bool
}

func (d *sevenZipDecoder) byte() byte {
	if !d.ok || d.p >= len(d.b) {
		d.ok = false
		return 0
	}
	d.p++
	return d.b[d.p-1]
}

func (d *sevenZipDecoder) skip(n uint64) {
	if n > uint64(len(d.b)-d.p) {
		d.ok = false
		return
	}
	d.p += int(n)
}

// number reads a 7z NUMBER: the first byte's leading one bits count the
// little-endian bytes that follow, its other bits are the highest.
func (d *sevenZipDecoder) number() uint64 {
	first := d.byte()
	var v uint64
	mask := byte(0x80)
	for i := 0; i < 8; i++ {
		if first&mask == 0 {
			return v | uint64(first&(mask-1))<<(8*i)
		}
		v |= uint64(d.byte()) << (8 * i)
		mask >>= 1
	}
	return v
}

// digests skips a CRC list of n streams: all-defined or a bit vector,
// then a uint32 per defined stream.
func (d *sevenZipDecoder) digests(n uint64) {
	defined := n
	if d.byte() == 0 {
		defined = 0
		for i := uint64(0); i < (n+7)/8 && d.ok; i++ {
			defined += uint64(bits.OnesCount8(d.byte()))
		}
	}
	if defined > uint64(len(d.b)) {
		d.ok = false
		return
	}
	d.skip(4 * defined)
}

// sevenZipStart returns where the header starts and its size, from the
// first valid start header (see sevenZipHeaderSize).
func sevenZipStart(r io.ReaderAt, size int64) (at int64, n uint64, ok bool) {
	buf := make([]byte, min(size, 1<<20+32))
	if n, err := r.ReadAt(buf, 0); err != nil && err != io.EOF {
		return 0, 0, false
	} else {
		buf = buf[:n]
	}
	sig := []byte{'7', 'z', 0xbc, 0xaf, 0x27, 0x1c}
	for off := 0; ; off++ {
		i := bytes.Index(buf[off:], sig)
		if i < 0 {
			return 0, 0, false
		}
		off += i
		if len(buf)-off < 32 {
			return 0, 0, false
		}
		h := buf[off : off+32]
		if crc32.ChecksumIEEE(h[12:32]) == binary.LittleEndian.Uint32(h[8:]) {
			next := binary.LittleEndian.Uint64(h[12:])
			if next > math.MaxInt64-uint64(off+32) {
				return -1, binary.LittleEndian.Uint64(h[20:]), true
			}
			return int64(off+32) + int64(next), binary.LittleEndian.Uint64(h[20:]), true
		}
	}
}
