package uz

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
)

// A UE2 .uz2 file is a sequence of chunks with no file header: uint32
// CompressedSize, uint32 UncompressedSize, then a zlib stream of
// CompressedSize bytes holding UncompressedSize bytes. The engine cuts the
// input into 32 KiB pieces; CompressedSize never exceeds 33096 (its buffer).
const (
	uz2ChunkSize     = 32768
	uz2MaxCompressed = 33096
	uz2HeaderSize    = 8
)

// Reader2 decompresses a UE2 .uz2 stream one chunk at a time; with
// SetWorkers it inflates chunks ahead on other goroutines.
type Reader2 struct {
	r      io.Reader
	off    int64 // stream offset of the next unread byte
	limit  int64
	read   int64 // declared sizes of the chunks read so far
	chunks int   // chunks read so far
	dec    zlibDecoder
	cur    *chunk2 // the chunk being served
	out    []byte
	pos    int
	err    error

	workers int
	started bool
	ahead   []*chunk2 // chunks read ahead, in stream order
	free    []*chunk2
	ended   bool          // the last chunk read ahead carries an error or io.EOF
	sem     chan struct{} // one token per worker
	wg      sync.WaitGroup
}

// chunk2 is one .uz2 chunk: its compressed data and then its output.
type chunk2 struct {
	cbuf, outBuf []byte
	csize, usize int
	at, end      int64 // stream offsets of its header and of its end
	index        int
	err          error         // a read error, or (after done) the inflate error
	inflate      bool          // handed to a goroutine, which signals done
	done         chan struct{} // capacity 1
}

// zlibDecoder is an inflater that is reset for each chunk.
type zlibDecoder struct {
	zr io.ReadCloser
	br bytes.Reader
}

// zlibDecoders recycles inflaters between the goroutines of Reader2s.
var zlibDecoders = sync.Pool{New: func() any { return new(zlibDecoder) }}

// NewReader2 returns a Reader2 that decompresses r. Output beyond limit
// bytes (DefaultLimit when limit <= 0) is an error wrapping ErrLimit; a
// chunk that declares sizes over the format's maximum, fails to inflate to
// exactly its declared size, or is cut short is a *FormatError with its
// offset.
func NewReader2(r io.Reader, limit int64) *Reader2 {
	if limit <= 0 {
		limit = DefaultLimit
	}
	return &Reader2{r: r, limit: limit}
}

// SetWorkers makes the Reader2 inflate up to n chunks at once on
// goroutines of its own (1 or less: none, the default), reading up to n+1
// chunks ahead on the caller's goroutine; chunks are served in order. The
// output and every error, with its offset, are the same for every n; only
// the underlying reader sees a difference: a few chunks may be read beyond
// the point where decoding fails. Each goroutine handles one chunk and
// ends, so an abandoned Reader2 leaves none behind. Memory: about 65 KiB
// per chunk read ahead and a zlib state per goroutine. Call it before the
// first Read.
func (z *Reader2) SetWorkers(n int) {
	if !z.started {
		z.workers = n
	}
}

// Close waits for the goroutines inflating chunks read ahead. Read returns
// an error after Close. Close does not close the underlying reader.
func (z *Reader2) Close() error {
	z.started = true
	z.wg.Wait()
	if z.err == nil {
		z.err = errClosed
	}
	return nil
}

func (z *Reader2) Read(p []byte) (int, error) {
	if z.err != nil {
		return 0, z.err
	}
	if z.pos == len(z.out) {
		if err := z.next(); err != nil {
			z.err = err
			return 0, err
		}
	}
	n := copy(p, z.out[z.pos:])
	z.pos += n
	return n, nil
}

// WriteTo decompresses everything to w.
func (z *Reader2) WriteTo(w io.Writer) (int64, error) {
	var total int64
	for {
		if z.err != nil {
			if z.err == io.EOF {
				return total, nil
			}
			return total, z.err
		}
		if z.pos < len(z.out) {
			m, err := w.Write(z.out[z.pos:])
			total += int64(m)
			z.pos += m
			if err != nil {
				return total, err
			}
			continue
		}
		if err := z.next(); err != nil {
			z.err = err
		}
	}
}

func chunkErrorf(at int64, index int, cause error, format string, args ...any) error {
	return &FormatError{Offset: at, Msg: fmt.Sprintf("chunk %d: ", index) + fmt.Sprintf(format, args...), Err: cause}
}

// next makes the next chunk's output z.out.
func (z *Reader2) next() error {
	if !z.started {
		z.started = true
		if z.workers > 1 {
			z.sem = make(chan struct{}, z.workers)
		}
	}
	if z.sem == nil {
		if z.cur == nil {
			z.cur = &chunk2{}
		}
		c := z.cur
		if err := z.readChunk(c); err != nil {
			return err
		}
		if err := z.dec.inflate(c); err != nil {
			return err
		}
		z.out, z.pos = c.outBuf[:c.usize], 0
		return nil
	}
	if z.cur != nil {
		z.free = append(z.free, z.cur)
		z.cur = nil
	}
	// Read ahead: one chunk per worker inflating and one more being read.
	for !z.ended && len(z.ahead) < z.workers+1 {
		var c *chunk2
		if k := len(z.free); k > 0 {
			c, z.free = z.free[k-1], z.free[:k-1]
		} else {
			c = &chunk2{done: make(chan struct{}, 1)}
		}
		c.err = z.readChunk(c)
		c.inflate = c.err == nil
		z.ahead = append(z.ahead, c)
		if !c.inflate {
			z.ended = true
			break
		}
		z.wg.Add(1)
		go z.inflateAhead(c)
	}
	c := z.ahead[0]
	z.ahead = z.ahead[1:]
	if c.inflate {
		<-c.done
	}
	if c.err != nil {
		return c.err
	}
	z.cur, z.out, z.pos = c, c.outBuf[:c.usize], 0
	return nil
}

// inflateAhead inflates c on a goroutine of its own, once a worker's
// token is free.
func (z *Reader2) inflateAhead(c *chunk2) {
	defer z.wg.Done()
	z.sem <- struct{}{}
	d := zlibDecoders.Get().(*zlibDecoder)
	c.err = d.inflate(c)
	zlibDecoders.Put(d)
	<-z.sem
	c.done <- struct{}{}
}

// readChunk reads the next chunk's header and compressed data into c.
func (z *Reader2) readChunk(c *chunk2) error {
	at := z.off
	c.index, c.at = z.chunks, at
	var hdr [uz2HeaderSize]byte
	n, err := io.ReadFull(z.r, hdr[:])
	z.off += int64(n)
	switch {
	case err == io.EOF:
		return io.EOF
	case errors.Is(err, io.ErrUnexpectedEOF):
		return chunkErrorf(at, c.index, io.ErrUnexpectedEOF, "truncated chunk header (%d of 8 bytes)", n)
	case err != nil:
		return err
	}
	csize := binary.LittleEndian.Uint32(hdr[0:])
	usize := binary.LittleEndian.Uint32(hdr[4:])
	if csize == 0 || csize > uz2MaxCompressed {
		return chunkErrorf(at, c.index, nil, "compressed size %d out of range 1..%d", csize, uz2MaxCompressed)
	}
	if usize == 0 || usize > uz2ChunkSize {
		return chunkErrorf(at, c.index, nil, "uncompressed size %d out of range 1..%d", usize, uz2ChunkSize)
	}
	// The chunks before this one are checked to inflate to their declared
	// sizes before its error could be seen, so z.read is their output.
	if int64(usize) > z.limit-z.read {
		return chunkErrorf(at, c.index, ErrLimit, "decompressed output exceeds the limit of %d bytes", z.limit)
	}
	if c.cbuf == nil {
		c.cbuf = make([]byte, uz2MaxCompressed)
		c.outBuf = make([]byte, uz2ChunkSize)
	}
	cdata := c.cbuf[:csize]
	n, err = io.ReadFull(z.r, cdata)
	z.off += int64(n)
	if err != nil {
		if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
			return chunkErrorf(z.off, c.index, io.ErrUnexpectedEOF, "truncated zlib data (%d of %d bytes)", n, csize)
		}
		return err
	}
	c.csize, c.usize, c.end = int(csize), int(usize), z.off
	z.read += int64(usize)
	z.chunks++
	return nil
}

// inflate inflates the chunk c read by readChunk into c.outBuf, checking
// that it holds exactly its declared size and nothing after the zlib
// stream.
func (d *zlibDecoder) inflate(c *chunk2) error {
	d.br.Reset(c.cbuf[:c.csize])
	var err error
	if d.zr == nil {
		d.zr, err = zlib.NewReader(&d.br)
	} else {
		err = d.zr.(zlib.Resetter).Reset(&d.br, nil)
	}
	dataAt := c.at + uz2HeaderSize
	if err != nil {
		return chunkErrorf(dataAt, c.index, nil, "zlib: %v", err)
	}
	out := c.outBuf[:c.usize]
	if _, err := io.ReadFull(d.zr, out); err != nil {
		return chunkErrorf(dataAt, c.index, nil, "zlib data does not inflate to the declared %d bytes: %v", c.usize, err)
	}
	var extra [1]byte
	if m, err := d.zr.Read(extra[:]); m != 0 || err != io.EOF {
		if m != 0 || err == nil {
			return chunkErrorf(dataAt, c.index, nil, "zlib data inflates to more than the declared %d bytes", c.usize)
		}
		return chunkErrorf(dataAt, c.index, nil, "zlib: %v", err)
	}
	if d.br.Len() != 0 {
		return chunkErrorf(c.end-int64(d.br.Len()), c.index, nil, "%d bytes after the zlib stream", d.br.Len())
	}
	return nil
}

// zlibWriters recycles compressors (each holds about 1 MiB of state)
// between Writer2s.
var zlibWriters = sync.Pool{New: func() any {
	zw, _ := zlib.NewWriterLevel(nil, zlib.DefaultCompression)
	return zw
}}

// Writer2 compresses to a UE2 .uz2 stream, compressing batches of 32 KiB
// chunks on several goroutines. Chunks are independent, so the output is
// the same for any number of workers.
type Writer2 struct {
	w       io.Writer
	workers int
	buf     []byte // pending input
	batch   int    // chunks per batch
	zws     []*zlib.Writer
	outs    []bytes.Buffer
	err     error
	closed  bool
}

// NewWriter2 returns a Writer2 using workers goroutines
// (runtime.GOMAXPROCS(0) when workers <= 0). Memory is about
// 4 × workers × (32 KiB + the zlib state).
func NewWriter2(w io.Writer, workers int) *Writer2 {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	batch := 4 * workers
	return &Writer2{
		w:       w,
		workers: workers,
		batch:   batch,
		zws:     make([]*zlib.Writer, workers),
		outs:    make([]bytes.Buffer, batch),
	}
}

func (z *Writer2) Write(p []byte) (int, error) {
	if z.err != nil {
		return 0, z.err
	}
	if z.closed {
		return 0, errors.New("uz: write after close")
	}
	n := len(p)
	full := z.batch * uz2ChunkSize
	for len(p) > 0 {
		if len(z.buf) == 0 && len(p) >= full {
			// Compress straight from the caller's slice.
			if err := z.flush(p[:full]); err != nil {
				return n - len(p), err
			}
			p = p[full:]
			continue
		}
		k := min(len(p), full-len(z.buf))
		z.buf = append(z.buf, p[:k]...)
		p = p[k:]
		if len(z.buf) == full {
			if err := z.flush(z.buf); err != nil {
				return n - len(p), err
			}
			z.buf = z.buf[:0]
		}
	}
	return n, nil
}

// Close compresses and writes the pending input. It does not close the
// underlying writer.
func (z *Writer2) Close() error {
	if z.closed {
		return z.err
	}
	z.closed = true
	if z.err == nil && len(z.buf) > 0 {
		z.flush(z.buf)
		z.buf = nil
	}
	for i, zw := range z.zws {
		if zw != nil {
			zlibWriters.Put(zw)
			z.zws[i] = nil
		}
	}
	return z.err
}

// flush compresses data (at most one batch) chunk by chunk in parallel and
// writes the chunks in order.
func (z *Writer2) flush(data []byte) error {
	chunks := (len(data) + uz2ChunkSize - 1) / uz2ChunkSize
	var wg sync.WaitGroup
	errs := make([]error, z.workers)
	for wk := 0; wk < z.workers && wk < chunks; wk++ {
		wg.Add(1)
		go func(wk int) {
			defer wg.Done()
			for c := wk; c < chunks; c += z.workers {
				piece := data[c*uz2ChunkSize : min(len(data), (c+1)*uz2ChunkSize)]
				if err := z.compress(wk, c, piece); err != nil {
					errs[wk] = err
					return
				}
			}
		}(wk)
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		z.err = err
		return err
	}
	for c := 0; c < chunks; c++ {
		usize := min(len(data)-c*uz2ChunkSize, uz2ChunkSize)
		var hdr [uz2HeaderSize]byte
		binary.LittleEndian.PutUint32(hdr[0:], uint32(z.outs[c].Len()))
		binary.LittleEndian.PutUint32(hdr[4:], uint32(usize))
		if _, err := z.w.Write(hdr[:]); err != nil {
			z.err = err
			return err
		}
		if _, err := z.w.Write(z.outs[c].Bytes()); err != nil {
			z.err = err
			return err
		}
	}
	return nil
}

// compress deflates one chunk into z.outs[c] with worker wk's zlib state.
func (z *Writer2) compress(wk, c int, piece []byte) error {
	out := &z.outs[c]
	out.Reset()
	zw := z.zws[wk]
	if zw == nil {
		zw = zlibWriters.Get().(*zlib.Writer)
		z.zws[wk] = zw
	}
	zw.Reset(out)
	if _, err := zw.Write(piece); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if out.Len() > uz2MaxCompressed {
		return fmt.Errorf("uz: chunk %d compressed to %d bytes, over the format maximum %d", c, out.Len(), uz2MaxCompressed)
	}
	return nil
}
