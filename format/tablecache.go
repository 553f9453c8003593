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

// window returns the cached bytes from off to the end of the span that
// holds off, or nil.
func (c *tableCache) window(off int64) []byte {
	for _, s := range c.spans {
		if s.b != nil && off >= s.off && off-s.off < int64(len(s.b)) {
			return s.b[off-s.off:]
		}
	}
	return nil
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
// table) ends, each span within what its record count can occupy. bufs are
// reused memory, returned for the next file. Any doubt or read error leaves
// the span out, and the decoders read it as they would without the cache.
func (c *tableCache) prefetch(h *Header, size int64, bufs [2][]byte) [2][]byte {
	c.spans = [2]cachedSpan{}
	lay := layoutOf(h.Version, h.Licensee)
	if !lay.IsStandard() {
		return bufs
	}
	_, minImport, minExport := lay.minRecords()
	imp, exp := int64(h.ImportOffset), int64(h.ExportOffset)
	ni, ne := int64(h.ImportCount), int64(h.ExportCount)
	if ni <= 0 || ne <= 0 || imp <= 0 || exp <= imp || exp >= size {
		return bufs
	}
	end := size
	if names := int64(h.NameOffset); h.NameCount > 0 && names > exp {
		end = min(end, names)
	}
	fits := func(n, count int64, lo, hi int) bool { return n >= count*int64(lo) && n <= count*int64(hi) }
	if !fits(exp-imp, ni, minImport, maxImportRecord) || !fits(end-exp, ne, minExport, maxExportRecord) ||
		end-imp > maxTableSpan {
		return bufs
	}
	bufs[0] = c.read(0, imp, int(end-imp), bufs[0])
	return bufs
}

// prefetchNames reads the name table of h at once when it lies before the
// import table and that was read ahead: it ends at the first serial data
// after it, lo bytes after it (see serialLow), or at the import table.
func (c *tableCache) prefetchNames(h *Header, lo uint32, bufs [2][]byte) [2][]byte {
	names, nn, imp := int64(h.NameOffset), int64(h.NameCount), int64(h.ImportOffset)
	if c.spans[0].b == nil || c.spans[0].off != imp || nn <= 0 || names <= 0 || names >= imp {
		return bufs
	}
	nameEnd := names + min(int64(lo), imp-names)
	minName, _, _ := layoutOf(h.Version, h.Licensee).minRecords()
	if n := nameEnd - names; n >= nn*int64(minName) && n <= maxTableSpan {
		bufs[1] = c.read(1, names, int(n), bufs[1])
	}
	return bufs
}
