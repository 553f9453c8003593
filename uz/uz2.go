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

// Reader2 decompresses a UE2 .uz2 stream one chunk at a time.
type Reader2 struct {
	r      io.Reader
	off    int64 // stream offset of the next unread byte
	limit  int64
	n      int64
	chunks int
	zr     io.ReadCloser
	br     bytes.Reader
	cbuf   []byte
	outBuf []byte
	out    []byte
	pos    int
	err    error
}

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

func (z *Reader2) errorf(at int64, cause error, format string, args ...any) error {
	return &FormatError{Offset: at, Msg: fmt.Sprintf("chunk %d: ", z.chunks) + fmt.Sprintf(format, args...), Err: cause}
}

// next reads and inflates the next chunk into z.out.
func (z *Reader2) next() error {
	at := z.off
	var hdr [uz2HeaderSize]byte
	n, err := io.ReadFull(z.r, hdr[:])
	z.off += int64(n)
	switch {
	case err == io.EOF:
		return io.EOF
	case errors.Is(err, io.ErrUnexpectedEOF):
		return z.errorf(at, io.ErrUnexpectedEOF, "truncated chunk header (%d of 8 bytes)", n)
	case err != nil:
		return err
	}
	csize := binary.LittleEndian.Uint32(hdr[0:])
	usize := binary.LittleEndian.Uint32(hdr[4:])
	if csize == 0 || csize > uz2MaxCompressed {
		return z.errorf(at, nil, "compressed size %d out of range 1..%d", csize, uz2MaxCompressed)
	}
	if usize == 0 || usize > uz2ChunkSize {
		return z.errorf(at, nil, "uncompressed size %d out of range 1..%d", usize, uz2ChunkSize)
	}
	if int64(usize) > z.limit-z.n {
		return z.errorf(at, ErrLimit, "decompressed output exceeds the limit of %d bytes", z.limit)
	}
	if z.cbuf == nil {
		z.cbuf = make([]byte, uz2MaxCompressed)
		z.outBuf = make([]byte, uz2ChunkSize)
	}
	cdata := z.cbuf[:csize]
	n, err = io.ReadFull(z.r, cdata)
	z.off += int64(n)
	if err != nil {
		if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
			return z.errorf(z.off, io.ErrUnexpectedEOF, "truncated zlib data (%d of %d bytes)", n, csize)
		}
		return err
	}
	z.br.Reset(cdata)
	if z.zr == nil {
		z.zr, err = zlib.NewReader(&z.br)
	} else {
		err = z.zr.(zlib.Resetter).Reset(&z.br, nil)
	}
	if err != nil {
		return z.errorf(at+uz2HeaderSize, nil, "zlib: %v", err)
	}
	out := z.outBuf[:usize]
	if _, err := io.ReadFull(z.zr, out); err != nil {
		return z.errorf(at+uz2HeaderSize, nil, "zlib data does not inflate to the declared %d bytes: %v", usize, err)
	}
	var extra [1]byte
	if m, err := z.zr.Read(extra[:]); m != 0 || err != io.EOF {
		if m != 0 || err == nil {
			return z.errorf(at+uz2HeaderSize, nil, "zlib data inflates to more than the declared %d bytes", usize)
		}
		return z.errorf(at+uz2HeaderSize, nil, "zlib: %v", err)
	}
	if z.br.Len() != 0 {
		return z.errorf(z.off-int64(z.br.Len()), nil, "%d bytes after the zlib stream", z.br.Len())
	}
	z.out, z.pos = out, 0
	z.n += int64(usize)
	z.chunks++
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
