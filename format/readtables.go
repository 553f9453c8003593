package format

import (
	"encoding/binary"
	"io"
	"sync"
	"unsafe"
)

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
	f.Names = f.Names[:0] // a View's stay empty; made below for a File
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
