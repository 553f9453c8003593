package uz

import (
	"encoding/binary"
	"io"
)

// input is a buffered reader over the compressed stream that knows its
// stream offset. It serves the byte-aligned .uz header and then the
// Huffman bit stream (LSB first, as the engine's FBitReader reads it).
type input struct {
	r    io.Reader
	buf  []byte
	pos  int   // next unread byte in buf
	end  int   // bytes valid in buf
	base int64 // stream offset of buf[0]
	eof  bool  // r returned io.EOF
	rerr error // r returned another error

	acc  uint64 // bit accumulator; the low nacc bits are valid
	nacc uint
}

const inputBufSize = 64 << 10

func newInput(r io.Reader) *input {
	return &input{r: r, buf: make([]byte, inputBufSize)}
}

// fill moves unread bytes to the front of buf and reads more. It reports
// whether at least one new byte arrived.
func (in *input) fill() bool {
	if in.eof || in.rerr != nil {
		return false
	}
	if in.pos > 0 {
		n := copy(in.buf, in.buf[in.pos:in.end])
		in.base += int64(in.pos)
		in.pos, in.end = 0, n
	}
	for tries := 0; tries < 100; tries++ {
		n, err := in.r.Read(in.buf[in.end:])
		in.end += n
		if err == io.EOF {
			in.eof = true
		} else if err != nil {
			in.rerr = err
		}
		if n > 0 {
			return true
		}
		if err != nil {
			return false
		}
	}
	in.rerr = io.ErrNoProgress
	return false
}

// byteOffset is the stream offset of the next unread byte-aligned byte.
func (in *input) byteOffset() int64 { return in.base + int64(in.pos) }

// bitOffset is the stream offset of the byte holding the next unread bit.
func (in *input) bitOffset() int64 {
	return (((in.base + int64(in.pos)) * 8) - int64(in.nacc)) / 8
}

// errorf builds a FormatError at the current bit position.
func (in *input) errorf(cause error, msg string) error { return in.position().errorf(cause, msg) }

// eofError reports truncation, or the underlying read error if there was one.
func (in *input) eofError(what string) error { return in.position().eofError(what) }

// position returns where the input stands now.
func (in *input) position() inputPos { return inputPos{off: in.bitOffset(), rerr: in.rerr} }

// inputPos is what errors need to know of the input's position: the offset
// of the byte holding the next unread bit, and the error, if any, that
// ended the underlying reader. A stage that runs apart from the input (the
// final RLE behind a parallel inverse BWT) reports its errors at the
// position the input had when its data was read.
type inputPos struct {
	off  int64
	rerr error
}

// positioner is the input, or a stage that knows where the input stood
// when the data it serves was read.
type positioner interface{ position() inputPos }

func (p inputPos) errorf(cause error, msg string) error {
	return &FormatError{Offset: p.off, Msg: msg, Err: cause}
}

func (p inputPos) eofError(what string) error {
	if p.rerr != nil {
		return p.rerr
	}
	return p.errorf(io.ErrUnexpectedEOF, "unexpected end of data in "+what)
}

// readFull reads len(p) byte-aligned bytes (header use only; no bits buffered).
func (in *input) readFull(p []byte, what string) error {
	for len(p) > 0 {
		if in.pos == in.end && !in.fill() {
			return in.eofError(what)
		}
		n := copy(p, in.buf[in.pos:in.end])
		in.pos += n
		p = p[n:]
	}
	return nil
}

func (in *input) readByte(what string) (byte, error) {
	var b [1]byte
	err := in.readFull(b[:], what)
	return b[0], err
}

func (in *input) readInt32(what string) (int32, error) {
	var b [4]byte
	if err := in.readFull(b[:], what); err != nil {
		return 0, err
	}
	return int32(binary.LittleEndian.Uint32(b[:])), nil
}

// refill tops the accumulator up to at least 56 bits when the data allows.
func (in *input) refill() {
	for in.nacc <= 56 {
		if in.end-in.pos >= 8 {
			v := binary.LittleEndian.Uint64(in.buf[in.pos:])
			in.acc |= v << in.nacc
			k := (63 - in.nacc) >> 3
			in.pos += int(k)
			in.nacc += k * 8
			return
		}
		if in.pos < in.end {
			in.acc |= uint64(in.buf[in.pos]) << in.nacc
			in.pos++
			in.nacc += 8
			continue
		}
		if !in.fill() {
			return
		}
	}
}

// readBits reads n <= 32 bits, the first one in the lowest bit.
func (in *input) readBits(n uint, what string) (uint32, error) {
	if in.nacc < n {
		in.refill()
		if in.nacc < n {
			return 0, in.eofError(what)
		}
	}
	v := uint32(in.acc & (1<<n - 1))
	in.acc >>= n
	in.nacc -= n
	return v, nil
}

// finish checks that the bit stream ends here: the rest of the current byte
// is zero padding and no bytes follow.
func (in *input) finish() error {
	if in.nacc >= 8 || in.pos < in.end {
		return in.errorf(nil, "trailing data after compressed stream")
	}
	if in.acc&(1<<in.nacc-1) != 0 {
		return in.errorf(nil, "non-zero padding bits after compressed stream")
	}
	if in.fill() {
		in.nacc = 0
		return &FormatError{Offset: in.byteOffset(), Msg: "trailing data after compressed stream"}
	}
	if in.rerr != nil {
		return in.rerr
	}
	return nil
}
