package format

import "io"

// ioFile is an open package file: read at offsets, then closed.
type ioFile interface {
	io.ReaderAt
	io.Closer
}

// Reads of the import and export tables. The table decoders read in steps
// that never pass the least the remaining records can occupy, so that they
// touch no serial data; on a package whose import table runs into its
// export table and that into the end of the file (or the name table) - the
// layout of engine-written UE1 packages - tableCache reads both tables at
// once instead, and the decoders' reads are served from memory.

// maxTableSpan bounds the span read at once; larger ones are read step by
// step.
const maxTableSpan = 16 << 20

// tableCache serves ReadAt from spans read ahead (the import and export
// tables, the name table), passing other reads through.
type tableCache struct {
	r     io.ReaderAt
	spans [2]cachedSpan
}

type cachedSpan struct {
	off int64
	b   []byte
}

func (c *tableCache) ReadAt(p []byte, off int64) (int, error) {
	for _, s := range c.spans {
		if off >= s.off && off-s.off <= int64(len(s.b)) && int64(len(p)) <= int64(len(s.b))-(off-s.off) {
			return copy(p, s.b[off-s.off:]), nil
		}
	}
	return c.r.ReadAt(p, off)
}

// read reads n bytes at off into buf (grown when short) and caches them in
// span i; it returns the buffer for reuse.
func (c *tableCache) read(i int, off int64, n int, buf []byte) []byte {
	if cap(buf) < n {
		buf = make([]byte, n)
	}
	if k, err := c.r.ReadAt(buf[:n], off); k == n && (err == nil || err == io.EOF) {
		c.spans[i] = cachedSpan{off, buf[:n]}
	}
	return buf
}

// prefetch reads the import and export tables of h in one read when their
// spans are contiguous by the header's account: the import table ends where
// the export table starts, and the export table where the file (or the name
// table) ends, each span within what its record count can occupy. Then,
// from the export records, it finds where the first serial data after the
// name table starts: the name table can end no later, so [NameOffset, that)
// is read at once too. bufs are reused memory, returned for the next file.
// Any doubt or read error leaves a span out, and the decoders read it as
// they would without the cache.
func (c *tableCache) prefetch(h *Header, size int64, bufs [2][]byte) [2][]byte {
	c.spans = [2]cachedSpan{}
	lay := layoutOf(h.Version, h.Licensee)
	if !lay.IsStandard() {
		return bufs
	}
	minName, minImport, minExport := lay.minRecords()
	imp, exp := int64(h.ImportOffset), int64(h.ExportOffset)
	ni, ne := int64(h.ImportCount), int64(h.ExportCount)
	if ni <= 0 || ne <= 0 || imp <= 0 || exp <= imp || exp >= size {
		return bufs
	}
	names, nn := int64(h.NameOffset), int64(h.NameCount)
	end := size
	if nn > 0 && names > exp {
		end = min(end, names)
	}
	fits := func(n, count int64, lo, hi int) bool { return n >= count*int64(lo) && n <= count*int64(hi) }
	if !fits(exp-imp, ni, minImport, maxImportRecord) || !fits(end-exp, ne, minExport, maxExportRecord) ||
		end-imp > maxTableSpan {
		return bufs
	}
	bufs[0] = c.read(0, imp, int(end-imp), bufs[0])
	if c.spans[0].b == nil || nn <= 0 || names <= 0 || names >= imp {
		return bufs
	}
	// The name table (before the import table) ends at the first serial
	// data after it, or at the import table.
	nameEnd := imp
	limits := [3]int32{h.NameCount, h.ImportCount, h.ExportCount}
	table := c.spans[0].b[exp-imp:]
	var pad []byte
	for i, p := int64(0), 0; i < ne; i++ {
		if len(table)-p < maxExportRecord && pad == nil {
			// The last records: decode from a zero-padded copy.
			pad = make([]byte, len(table)-p+maxExportRecord)
			copy(pad, table[p:])
			table, p = pad, 0
		}
		ex, next, ok := fastExport(table, p, limits, size)
		if !ok {
			return bufs // the decoder will say what is wrong
		}
		if ex.SerialSize > 0 && int64(ex.SerialOffset) >= names {
			nameEnd = min(nameEnd, int64(ex.SerialOffset))
		}
		p = next
	}
	if n := nameEnd - names; n >= nn*int64(minName) && n <= maxTableSpan {
		bufs[1] = c.read(1, names, int(n), bufs[1])
	}
	return bufs
}
