package format

import (
	"bytes"
	"encoding/binary"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// maxNameBytes caps the encoded length of one name-table string. The engine's
// names are at most 64 characters (NAME_SIZE); the cap leaves room for odd
// builds while keeping a hostile length from driving allocation.
const maxNameBytes = 4096

// decoder reads little-endian primitives from a byte slice that holds part of
// a table. When the slice ends before a value does, it records in short how
// many bytes (counted from the start of the slice) it needs and every further
// read returns zero; the caller then reads more of the file and decodes the
// record again. A malformed value sets err.
type decoder struct {
	b     []byte
	pos   int
	short int   // > 0: the slice must hold at least this many bytes
	err   error // set once, at the first malformed value
	base  int64 // file offset of b[0], for errors

	// Table sizes for range checks of name indices and object references.
	names, imports, exports int32
}

// name reads a name index and checks its range; at is the record start.
func (d *decoder) name(at int) int32 {
	v := d.index()
	if uint32(v) >= uint32(d.names) {
		d.badName(v, at)
	}
	return v
}

func (d *decoder) badName(v int32, at int) {
	if d.failed() {
		return // a short read: the record is decoded again
	}
	d.err = formatErr(d.base+int64(at), "name index %d out of range (%d names)", v, d.names)
}

// ref checks an object reference's range; at is where it was read.
func (d *decoder) ref(v int32, at int, what string) Ref {
	if v < -d.imports || v > d.exports {
		d.badRef(v, at, what)
	}
	return Ref(v)
}

func (d *decoder) badRef(v int32, at int, what string) {
	if d.failed() {
		return // a short read: the record is decoded again
	}
	d.err = formatErr(d.base+int64(at), "%s reference %d out of range (%d imports, %d exports)", what, v, d.imports, d.exports)
}

func (d *decoder) failed() bool { return d.short > 0 || d.err != nil }

func (d *decoder) need(n int) bool {
	if d.failed() {
		return false
	}
	if len(d.b)-d.pos < n {
		d.short = d.pos + n
		return false
	}
	return true
}

func (d *decoder) u32() uint32 {
	if d.pos+4 > len(d.b) || d.short != 0 {
		d.need(4)
		return 0
	}
	v := binary.LittleEndian.Uint32(d.b[d.pos:])
	d.pos += 4
	return v
}

func (d *decoder) i32() int32 { return int32(d.u32()) }

// index reads a compact index (FCompactIndex): 1 to 5 bytes, sign and
// "more" bits in the first byte, 7 value bits with a "more" bit in the next
// three, and a final byte whose bits complete a 32-bit magnitude.
func (d *decoder) index() int32 {
	// Fast path, small enough to inline: most indices are one byte. (After
	// a short read the record is decoded again, so values read past that
	// point do not matter.)
	if p := d.pos; p < len(d.b) && d.b[p]&0x40 == 0 {
		b0 := d.b[p]
		d.pos = p + 1
		return int32(b0&0x3f) * (1 - int32(b0>>7)*2)
	}
	return d.indexSlow()
}

func (d *decoder) indexSlow() int32 {
	start := d.pos
	if d.short == 0 && d.err == nil && len(d.b)-d.pos >= 5 {
		// All five bytes are there: no bounds bookkeeping per byte.
		b := d.b[d.pos : d.pos+5]
		v := uint32(b[0] & 0x3f)
		n := 1
		if b[0]&0x40 != 0 {
			v |= uint32(b[1]&0x7f) << 6
			n = 2
			if b[1]&0x80 != 0 {
				v |= uint32(b[2]&0x7f) << 13
				n = 3
				if b[2]&0x80 != 0 {
					v |= uint32(b[3]&0x7f) << 20
					n = 4
					if b[3]&0x80 != 0 {
						if b[4]&0x80 != 0 {
							d.err = formatErr(d.base+int64(start), "compact index longer than 5 bytes")
							return 0
						}
						if b[4] > 0x0f {
							d.err = formatErr(d.base+int64(start), "compact index overflows 32 bits")
							return 0
						}
						v |= uint32(b[4]) << 27
						n = 5
					}
				}
			}
		}
		d.pos += n
		if b[0]&0x80 != 0 {
			return -int32(v)
		}
		return int32(v)
	}
	if !d.need(1) {
		return 0
	}
	b0 := d.b[d.pos]
	d.pos++
	v := uint32(b0 & 0x3f)
	if b0&0x40 != 0 {
		shift := uint(6)
		for i := 1; ; i++ {
			if !d.need(1) {
				return 0
			}
			b := d.b[d.pos]
			d.pos++
			if i == 4 {
				if b&0x80 != 0 {
					d.err = formatErr(d.base+int64(start), "compact index longer than 5 bytes")
					return 0
				}
				if b > 0x0f {
					d.err = formatErr(d.base+int64(start), "compact index overflows 32 bits")
					return 0
				}
				v |= uint32(b) << shift
				break
			}
			v |= uint32(b&0x7f) << shift
			shift += 7
			if b&0x80 == 0 {
				break
			}
		}
	}
	if b0&0x80 != 0 {
		return -int32(v)
	}
	return int32(v)
}

// fstring reads an FString: a compact index length that counts the trailing
// NUL, then that many Latin-1 bytes, or -length UTF-16LE code units. It
// returns the raw bytes (aliasing the decoder's buffer) and whether they are
// UTF-16.
func (d *decoder) fstring() (raw []byte, wide bool) {
	start := d.pos
	return d.fstringBody(d.index(), start)
}

// fstringBody reads the characters of an FString whose length n was read
// at start.
func (d *decoder) fstringBody(n int32, start int) (raw []byte, wide bool) {
	if d.failed() || n == 0 {
		return nil, false
	}
	size, wide := int64(n), false
	if n < 0 {
		size, wide = -2*int64(n), true
	}
	if size > maxNameBytes {
		d.err = formatErr(d.base+int64(start), "string length %d exceeds limit %d", n, maxNameBytes)
		return nil, false
	}
	if !d.need(int(size)) {
		return nil, false
	}
	raw = d.b[d.pos : d.pos+int(size)]
	d.pos += int(size)
	return raw, wide
}

// cstring reads a NUL-terminated Latin-1 string (name tables before version
// 64) and returns its bytes, NUL included, aliasing the decoder's buffer.
func (d *decoder) cstring() []byte {
	if d.failed() {
		return nil
	}
	rest := d.b[d.pos:]
	if i := indexNUL(rest[:min(len(rest), maxNameBytes)]); i >= 0 {
		d.pos += i + 1
		return rest[:i+1]
	}
	if len(rest) >= maxNameBytes {
		d.err = formatErr(d.base+int64(d.pos), "unterminated name longer than %d bytes", maxNameBytes)
		return nil
	}
	d.short = len(d.b) + 1
	return nil
}

// appendText appends the UTF-8 form of a Latin-1 or UTF-16LE string, which
// may end in NUL, to dst.
func appendText(dst, raw []byte, wide bool) []byte {
	if wide {
		u := make([]uint16, 0, len(raw)/2)
		for i := 0; i+1 < len(raw); i += 2 {
			c := binary.LittleEndian.Uint16(raw[i:])
			if c == 0 {
				break
			}
			u = append(u, c)
		}
		for _, r := range utf16.Decode(u) {
			dst = utf8.AppendRune(dst, r)
		}
		return dst
	}
	if i := indexNUL(raw); i >= 0 {
		raw = raw[:i]
	}
	ascii := true
	for _, c := range raw {
		ascii = ascii && c < 0x80
	}
	if ascii {
		return append(dst, raw...)
	}
	for _, c := range raw {
		if c < 0x80 {
			dst = append(dst, c)
		} else {
			dst = utf8.AppendRune(dst, rune(c))
		}
	}
	return dst
}

func indexNUL(b []byte) int { return bytes.IndexByte(b, 0) }

// isLatin1 reports whether every rune of s fits in one Latin-1 byte.
func isLatin1(s string) bool {
	for _, r := range s {
		if r > 0xff {
			return false
		}
	}
	return true
}

// Largest encoded table records: compact indices take at most 5 bytes.
const (
	maxImportRecord = 5 + 5 + 4 + 5
	maxExportRecord = 5 + 5 + 4 + 5 + 4 + 5 + 5
)

// badIndex is what fastIndexLong returns for a malformed compact index: no
// well-formed index decodes to it (the largest magnitude is 2^31-1), and it
// fails every range check a record makes of its fields (a name index, an
// object reference, a serial size or offset), so a record that holds one
// is declined as a whole and the careful path reports it.
const badIndex = -1 << 31

// shortIndex decodes a compact index of one to three bytes (most of them:
// name indices, serial sizes and offsets under 2^20) from its first four
// bytes, w, little-endian, and returns it with its length, or n = 0 for a
// longer one, which fastIndexLong decodes. The record decoders call it for
// each index: it inlines, where one function handling every length would
// hold a call and be over the compiler's inlining budget.
func shortIndex(w uint32) (v int32, n int) {
	u := w & 0x3f
	switch {
	case w&0x40 == 0:
		n = 1
	case w&0x8000 == 0:
		u, n = u|w>>2&(0x7f<<6), 2
	case w&0x800000 == 0:
		u, n = u|w>>2&(0x7f<<6)|w>>3&(0x7f<<13), 3
	default:
		return 0, 0
	}
	if w&0x80 != 0 {
		return -int32(u), n
	}
	return int32(u), n
}

// shortCount is shortIndex for a field that cannot be negative (a name
// index, a serial size or offset): it returns the index's magnitude and
// length for a non-negative index of one to three bytes, else n = 0 (a
// longer index, or a negative one, which is malformed there, or the rare
// "-0"), leaving it to the long decoders. Testing the sign with the
// continuation bits, it makes one test per length and none for the sign.
func shortCount(w uint32) (u uint32, n int) {
	switch {
	case w&0xc0 == 0:
		return w & 0x3f, 1
	case w&0x80c0 == 0x40:
		return w&0x3f | w>>2&(0x7f<<6), 2
	case w&0x8080c0 == 0x8040:
		return w&0x3f | w>>2&(0x7f<<6) | w>>3&(0x7f<<13), 3
	}
	return 0, 0
}

// fastIndexLong decodes a compact index of two to five bytes at b[p:],
// which must hold 5 bytes, and returns it with the offset after it:
// badIndex and p+5 for a malformed one.
func fastIndexLong(b []byte, p int) (v int32, next int) {
	b = b[p : p+5]
	b0 := b[0]
	u := uint32(b0&0x3f) | uint32(b[1]&0x7f)<<6
	if b[1]&0x80 == 0 {
		return sign(b0, u), p + 2
	}
	u |= uint32(b[2]&0x7f) << 13
	if b[2]&0x80 == 0 {
		return sign(b0, u), p + 3
	}
	u |= uint32(b[3]&0x7f) << 20
	if b[3]&0x80 == 0 {
		return sign(b0, u), p + 4
	}
	if b[4] > 0x0f {
		return badIndex, p + 5
	}
	return sign(b0, u|uint32(b[4])<<27), p + 5
}

// rawName decodes one standard name record at b[p:] when b holds all of
// it and it has a one-byte length and a terminating NUL (any text of 1 to
// 62 bytes and 8-bit characters): it returns the text without its NUL, as
// the file holds it (bulkNames converts it when it is not plain ASCII),
// and the flags. ok is false for anything else (UTF-16 text, a
// name of 63 or more bytes, a record past the end of b), which the careful
// path decodes.
func rawName(b []byte, p int) (text []byte, flags uint32, next int, ok bool) {
	if p >= len(b) {
		return nil, 0, p, false
	}
	n := int(b[p])
	end := p + 1 + n
	if n == 0 || n&0xc0 != 0 || end+4 > len(b) || b[end-1] != 0 {
		return nil, 0, p, false
	}
	return b[p+1 : end-1], binary.LittleEndian.Uint32(b[end:]), end + 4, true
}

// plainASCII reports whether every byte of s is in 1..0x7f, eight at a
// time: a byte's high bit is set in v when it is 0x80 or more, and in v -
// 0x01...01 when it is 0 (the borrow it starts only follows a byte
// already caught).
func plainASCII(s []byte) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for len(s) >= 8 {
		v := binary.LittleEndian.Uint64(s)
		if (v|(v-ones))&highs != 0 {
			return false
		}
		s = s[8:]
	}
	for _, c := range s {
		if c-1 >= 0x7f {
			return false
		}
	}
	return true
}

// plain32 reports whether the first min(n, 32) bytes of the text of the
// name record in a (after its length byte) are plain ASCII, as plainASCII
// tests them: four 8-byte words, masked to the text, without a branch on
// the length (a loop over the words, or a branch for longer names,
// mispredicts as lengths vary). windowNameOffsets tests the rest of a
// longer name (62 of the corpus's 83,000) with plainASCII. Two words and a
// branch for the names over 16 bytes (one in nine) made the View's reading
// of the corpus take about 15% more CPU time than these four words do,
// though fewer instructions: that branch, and the loops of plainASCII after
// it, mispredicted.
func plain32(a *[nameWindow]byte, n int) bool {
	m := &textMasks[n&63]
	return nonPlain(a[1:9], m[0])|nonPlain(a[9:17], m[1])|nonPlain(a[17:25], m[2])|nonPlain(a[25:33], m[3]) == 0
}

// nonPlain returns the high bits of the bytes of the word in b that are
// not plain ASCII (a NUL, or 0x80 or more), of those mask selects. The
// word's bytes past the text are its high ones, where a borrow from a NUL
// in the text may reach but the mask does not.
func nonPlain(b []byte, mask uint64) uint64 {
	w := binary.LittleEndian.Uint64(b)
	return (w | (w - 0x0101010101010101)) & mask
}

// textMasks[n] masks the high bit of each of the first n bytes of four
// words (plain32).
var textMasks = func() (t [64][4]uint64) {
	for n := range t {
		for i := range min(n, 32) {
			t[n][i/8] |= 0x80 << (8 * (i % 8))
		}
	}
	return t
}()

func sign(b0 byte, u uint32) int32 {
	if b0&0x80 != 0 {
		return -int32(u)
	}
	return int32(u)
}

// recordWindow is the bytes the fast record decoders see at once: the
// largest export record (33 bytes) and the 3 more that let every read in
// it be a 4-byte load at an offset masked to 0..31, which the compiler
// then knows to be in bounds (no check per field). A record that starts
// fewer bytes before the end of the buffer takes the careful path.
const recordWindow = 36

// le32 returns the 4 bytes at q&31 of a, little-endian. The decoders'
// offsets stay under 32 (the last field of the largest record starts at
// 28), so the mask changes nothing but the bounds checks.
func le32(a *[recordWindow]byte, q int) uint32 {
	q &= 31
	return binary.LittleEndian.Uint32(a[q : q+4])
}

// fastImport decodes one import record at b[p:] into im when the buffer
// holds recordWindow bytes there and every value is valid; otherwise ok is
// false, im is not to be used, and the caller takes the careful path,
// which reports any error. (im is written in place: returning the record
// costs more than decoding it.)
func fastImport(im *Import, b []byte, p int, limits *[3]int32) (next int, ok bool) {
	if k, next := fastImports(unsafe.Slice(im, 1), b, p, limits); k == 1 {
		return next, true
	}
	return fastImportLong(im, b, p, limits)
}

// Deliberate copies: each record is decoded three times over in this
// file, by the careful decoder (decoder.index and friends, which report
// errors), by the run decoders fastImports/fastExports (indices of one to
// three bytes, no calls) and by fastImportLong/fastExportLong (one record,
// indices of any length). They must agree field for field
// (TestRecordDecodersAgree, TestFastIndexAgrees, TestRecordIndexLengths,
// FuzzRecordDecoders) and are not to be merged into one: a call per index
// or per record made the compiler spill and reload every live value each
// record (9b859d5: 408 -> 357 M instructions over 11 ReaderView passes of
// the corpus).

// fastImports is fastExports for import records; fastImportLong takes
// the record it stops at.
func fastImports(s []Import, b []byte, p int, limits *[3]int32) (k, next int) {
	last := len(b) - recordWindow
	for i := range s {
		if p > last || p < 0 {
			return i, p
		}
		a := (*[recordWindow]byte)(b[p : p+recordWindow])
		im := &s[i]
		u, q := shortCount(le32(a, 0))
		if q == 0 || u >= uint32(limits[0]) {
			return i, p
		}
		im.ClassPackage = int32(u)
		u, n := shortCount(le32(a, q))
		if n == 0 || u >= uint32(limits[0]) {
			return i, p
		}
		im.ClassName = int32(u)
		q += n
		v := int32(le32(a, q))
		if !refInRange(v, limits) {
			return i, p
		}
		im.Outer = Ref(v)
		q += 4
		u, n = shortCount(le32(a, q))
		if n == 0 || u >= uint32(limits[0]) {
			return i, p
		}
		im.ObjectName = int32(u)
		p += q + n
	}
	return len(s), p
}

// fastImportLong (a deliberate copy: see above fastImports) decodes one
// import record at b[p:] into im when the buffer holds recordWindow bytes
// there and every value is valid; otherwise ok is
// false, im is not to be used, and the caller takes the careful path,
// which reports any error. (im is written in place: returning the record
// costs more than decoding it.)
func fastImportLong(im *Import, b []byte, p int, limits *[3]int32) (next int, ok bool) {
	if len(b)-p < recordWindow {
		return p, false
	}
	a := (*[recordWindow]byte)(b[p:])
	pkg, q := shortIndex(le32(a, 0))
	if q == 0 {
		pkg, q = fastIndexLong(b, p)
		q -= p
	}
	class, n := shortIndex(le32(a, q))
	if n == 0 {
		class, n = fastIndexLong(b, p+q)
		n -= p + q
	}
	q += n
	outer := int32(le32(a, q))
	q += 4
	name, n := shortIndex(le32(a, q))
	if n == 0 {
		name, n = fastIndexLong(b, p+q)
		n -= p + q
	}
	q += n
	im.ClassPackage, im.ClassName, im.Outer, im.ObjectName = pkg, class, Ref(outer), name
	names := uint32(limits[0])
	if uint32(pkg) >= names || uint32(class) >= names || uint32(name) >= names || !refInRange(outer, limits) {
		return 0, false
	}
	return p + q, true
}

// refInRange reports whether an object reference lies within the tables
// limits counts: -imports to exports, in one comparison (badIndex, and
// any int32 outside the range, wraps above it).
func refInRange(r int32, limits *[3]int32) bool {
	return uint32(r)+uint32(limits[1]) <= uint32(limits[1])+uint32(limits[2])
}

// fastExport is fastImport for export records; size is the file size that
// serial data must lie within.
func fastExport(ex *Export, b []byte, p int, limits *[3]int32, size int64) (next int, ok bool) {
	var sl serialLow
	if k, next := fastExports(unsafe.Slice(ex, 1), b, p, limits, size, &sl); k == 1 {
		return next, true
	}
	return fastExportLong(ex, b, p, limits, size)
}

// fastExports decodes export records from b at p into s, one after
// another, for as long as a record's compact indices are all of one to
// three bytes (nearly all of them), the buffer holds recordWindow bytes at
// it and every value is valid, and returns how many it decoded and the
// offset after them, noting each serial offset in sl. The record it stops
// at is fastExportLong's (a longer index) or the careful path's, which
// reports what is wrong with it.
//
// The loop makes no call and checks and stores each field as soon as it
// is read, so that few values are live at once: with a call per record,
// and calls for long indices in it, the compiler spilled and reloaded
// every live value on every record.
func fastExports(s []Export, b []byte, p int, limits *[3]int32, size int64, sl *serialLow) (k, next int) {
	// The last offset a window starts at: a window within it needs no
	// bounds check.
	last := len(b) - recordWindow
	for i := range s {
		if p > last || p < 0 {
			return i, p
		}
		a := (*[recordWindow]byte)(b[p : p+recordWindow])
		ex := &s[i]
		v, q := shortIndex(le32(a, 0))
		if q == 0 || !refInRange(v, limits) {
			return i, p
		}
		ex.Class = Ref(v)
		v, n := shortIndex(le32(a, q))
		if n == 0 || !refInRange(v, limits) {
			return i, p
		}
		ex.Super = Ref(v)
		q += n
		v = int32(le32(a, q))
		if !refInRange(v, limits) {
			return i, p
		}
		ex.Outer = Ref(v)
		q += 4
		u, n := shortCount(le32(a, q))
		if n == 0 || u >= uint32(limits[0]) {
			return i, p
		}
		ex.ObjectName = int32(u)
		q += n
		ex.ObjectFlags = le32(a, q)
		q += 4
		serialSize, n := shortCount(le32(a, q))
		if n == 0 {
			return i, p
		}
		ex.SerialSize, ex.SerialOffset = int32(serialSize), 0
		q += n
		if serialSize > 0 {
			u, n = shortCount(le32(a, q))
			if n == 0 || int64(u)+int64(serialSize) > size {
				return i, p
			}
			ex.SerialOffset = int32(u)
			q += n
			if u-sl.base < sl.lo { // rarely: a branch that predicts
				sl.lo = u - sl.base
			}
		}
		p += q
	}
	return len(s), p
}

// fastExportLong is fastExport for a record with an index of any length
// (a deliberate copy: see above fastImports).
func fastExportLong(ex *Export, b []byte, p int, limits *[3]int32, size int64) (next int, ok bool) {
	if len(b)-p < recordWindow {
		return p, false
	}
	a := (*[recordWindow]byte)(b[p:])
	c, q := shortIndex(le32(a, 0))
	if q == 0 {
		c, q = fastIndexLong(b, p)
		q -= p
	}
	s, n := shortIndex(le32(a, q))
	if n == 0 {
		s, n = fastIndexLong(b, p+q)
		n -= p + q
	}
	q += n
	outer := int32(le32(a, q))
	q += 4
	name, n := shortIndex(le32(a, q))
	if n == 0 {
		name, n = fastIndexLong(b, p+q)
		n -= p + q
	}
	q += n
	flags := le32(a, q)
	q += 4
	serialSize, n := shortIndex(le32(a, q))
	if n == 0 {
		serialSize, n = fastIndexLong(b, p+q)
		n -= p + q
	}
	q += n
	serialOffset := int32(0)
	if serialSize > 0 {
		if serialOffset, n = shortIndex(le32(a, q)); n == 0 {
			serialOffset, n = fastIndexLong(b, p+q)
			n -= p + q
		}
		q += n
	}
	// Field by field: a composite literal is built on the stack and copied
	// in 16-byte moves that cannot take their bytes from the 4-byte stores
	// just made (a store-forwarding stall, the costliest line here).
	ex.Class, ex.Super, ex.Outer, ex.ObjectName = Ref(c), Ref(s), Ref(outer), name
	ex.ObjectFlags, ex.SerialSize, ex.SerialOffset = flags, serialSize, serialOffset
	if uint32(name) >= uint32(limits[0]) || !refInRange(c, limits) || !refInRange(s, limits) || !refInRange(outer, limits) ||
		serialSize < 0 || serialOffset < 0 || int64(serialOffset)+int64(serialSize) > size {
		return 0, false
	}
	return p + q, true
}

// stdImport decodes one import record of the standard layout, reporting
// any problem: the careful path, taken when fastImport declines. ok is
// false when the record is bad (d.err) or runs past the buffer (d.short).
func (d *decoder) stdImport() (im Import, ok bool) {
	start := d.pos
	im.ClassPackage = d.name(start)
	im.ClassName = d.name(start)
	at := d.pos
	im.Outer = d.ref(d.i32(), at, "outer")
	im.ObjectName = d.name(start)
	return im, !d.failed()
}

// stdExport is stdImport for export records; size is the file size that
// serial data must lie within.
func (d *decoder) stdExport(size int64) (ex Export, ok bool) {
	start := d.pos
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
	return ex, !d.failed()
}
