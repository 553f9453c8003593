package uz

import (
	"fmt"
	"io"
)

// DefaultLimit is the output cap NewReader and NewReader2 use when the
// caller passes a limit <= 0: 1 GiB, far above any real package.
const DefaultLimit = 1 << 30

// Reader decompresses a UE1 .uz stream. It decodes one BWT block
// (at most 256 KiB) at a time, so its memory does not depend on the input.
type Reader struct {
	Header Header // signature and original file name

	in    *input
	out   io.Reader // the decoding pipeline, final RLE last
	limit int64
	n     int64
	err   error
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
	src = newBWTDecoder(src, in)
	src = newRLEDecoder(src, in, "rle stage")
	return &Reader{Header: h, in: in, out: src, limit: limit}, nil
}

// Read reads decompressed bytes. It returns io.EOF only after checking that
// the compressed stream ended cleanly (no trailing bytes, zero padding).
func (r *Reader) Read(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	// Read at most one byte past the limit, enough to tell that it is exceeded.
	if room := r.limit - r.n; int64(len(p)) > room {
		p = p[:room+1]
	}
	n, err := r.out.Read(p)
	r.n += int64(n)
	if r.n > r.limit {
		n -= int(r.n - r.limit)
		r.n = r.limit
		err = &FormatError{Offset: r.in.bitOffset(), Msg: fmt.Sprintf("decompressed output exceeds the limit of %d bytes", r.limit), Err: ErrLimit}
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
