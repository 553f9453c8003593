package uz

import (
	"fmt"
	"io"
	"runtime"
)

// DefaultLimit is the output cap NewReader and NewReader2 use when the
// caller passes a limit <= 0: 1 GiB, far above any real package.
const DefaultLimit = 1 << 30

// Reader decompresses a UE1 .uz stream. It decodes one BWT block
// (at most 256 KiB) at a time, so its memory does not depend on the input.
// With SetWorkers it decodes blocks ahead on other goroutines.
type Reader struct {
	Header Header // signature and original file name

	in      *input
	mtf     io.Reader    // the stages before the inverse BWT
	rle     *rleDecoder  // the final RLE, last in the pipeline
	at      positioner   // where errors of the final stages are
	workers int          // set by SetWorkers
	par     *bwtParallel // the parallel inverse BWT, once started
	limit   int64
	n       int64
	err     error
	started bool
}

// NewReader reads the .uz header and the Huffman tree from r and returns a
// Reader whose Read yields the original bytes. Output beyond limit bytes
// (DefaultLimit when limit <= 0) is an error wrapping ErrLimit. Corrupt or
// truncated input yields a *FormatError with the offset in r's stream.
func NewReader(r io.Reader, limit int64) (*Reader, error) {
	if limit <= 0 {
		limit = DefaultLimit
	}
	in := newInput(r)
	h, err := readHeader(in)
	if err != nil {
		return nil, err
	}
	huff, err := newHuffReader(in)
	if err != nil {
		return nil, err
	}
	var src io.Reader = huff
	if h.Signature == Sig5678 {
		src = newRLEDecoder(src, in, "second rle stage")
	}
	src = &mtfDecoder{src: src, list: newMTFList()}
	rle := newRLEDecoder(newBWTDecoder(src, in), in, "rle stage")
	return &Reader{Header: h, in: in, mtf: src, rle: rle, at: in, limit: limit}, nil
}

// SetWorkers makes the Reader decode with n goroutines besides the
// caller's (1 or less: none, the default): one runs the stages that carry
// state over the whole stream (Huffman, the second RLE, move-to-front) and
// reads whole blocks ahead, n-1 (at least one) invert the BWT of blocks,
// and the caller's goroutine runs the final RLE, taking blocks in order.
// The output and every error, with its offset, are the same for every n;
// only the underlying reader sees a difference: a few blocks of input may
// be read beyond the point where decoding fails. Memory grows from about
// 1.5 MiB to n+1 blocks of 256 KiB plus 1 MiB per inverting goroutine.
// Call it before the first Read, and Close a Reader that is not read to
// its end (io.EOF or an error): else its goroutines wait until the Reader
// is garbage collected.
func (r *Reader) SetWorkers(n int) {
	if !r.started {
		r.workers = n
	}
}

// Close stops the goroutines SetWorkers started and waits for them: the
// one reading ahead finishes the block it is reading first. Read returns an
// error after Close. Close does not close the underlying reader.
func (r *Reader) Close() error {
	r.started = true
	if r.par != nil {
		r.par.close()
	}
	if r.err == nil {
		r.err = errClosed
	}
	return nil
}

// start sets the pipeline up for the number of workers chosen.
func (r *Reader) start() {
	r.started = true
	if r.workers <= 1 {
		return
	}
	r.par = startBWTParallel(r.mtf, r.in, r.workers)
	r.rle.src, r.rle.at, r.at = r.par, r.par, r.par
	// A Reader dropped unread stops its goroutines (after a collection);
	// they hold r.par, never r.
	runtime.AddCleanup(r, func(p *bwtParallel) { p.shutdown() }, r.par)
}

// Read reads decompressed bytes. It returns io.EOF only after checking that
// the compressed stream ended cleanly (no trailing bytes, zero padding).
func (r *Reader) Read(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	if !r.started {
		r.start()
	}
	// Read at most one byte past the limit, enough to tell that it is exceeded.
	if room := r.limit - r.n; int64(len(p)) > room {
		p = p[:room+1]
	}
	n, err := r.rle.Read(p)
	r.n += int64(n)
	if r.n > r.limit {
		n -= int(r.n - r.limit)
		r.n = r.limit
		err = &FormatError{Offset: r.at.position().off, Msg: fmt.Sprintf("decompressed output exceeds the limit of %d bytes", r.limit), Err: ErrLimit}
	}
	if err != nil {
		r.err = err
	}
	return n, err
}

// WriteTo decompresses everything to w.
func (r *Reader) WriteTo(w io.Writer) (int64, error) {
	buf := make([]byte, 64<<10)
	var total int64
	for {
		n, err := r.Read(buf)
		if n > 0 {
			m, werr := w.Write(buf[:n])
			total += int64(m)
			if werr != nil {
				return total, werr
			}
		}
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}
