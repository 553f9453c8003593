package uz

import (
	"encoding/binary"
	"fmt"
	"io"
	"slices"
)

// bwtBlockSize is the engine's FCodecBWT buffer: the RLE output is cut into
// blocks of this many bytes (the last one shorter).
const bwtBlockSize = 0x40000

// The engine's BWT (FCodecBWT) sorts the positions 0..n of a block with
// ClampedBufferCompare: suffixes compare bytewise over the shorter length,
// and when one is a prefix of the other the longer one (smaller position)
// sorts first. That is suffix order with an end marker greater than every
// byte; position n (the empty suffix) sorts last. A block is written as
// int32 Length, int32 First (the row of position 1), int32 Last (the row of
// position 0), then Length+1 bytes: for each row of position p the byte at
// p-1, or the block's first byte for p == 0.
//
// Complementing every byte reverses the byte order, so the suffix array of
// the complemented block (ordinary order, shorter prefix first) read
// backwards is exactly the engine's order for positions 0..n-1.

// bwtEncoder keeps scratch buffers between blocks.
type bwtEncoder struct {
	t  []byte
	sa []int32
}

// encode appends the encoded block for src (1 <= len(src) <= bwtBlockSize)
// to dst. dst may share src's memory (dst == src[:0] encodes in place):
// src is not read after it is copied into the encoder.
func (e *bwtEncoder) encode(dst, src []byte) []byte {
	n := len(src)
	if cap(e.t) < n {
		e.t = make([]byte, n)
		e.sa = make([]int32, n)
	}
	t, sa := e.t[:n], e.sa[:n]
	for i, b := range src {
		t[i] = ^b
	}
	sais(t, sa, 256)

	start := len(dst)
	dst = slices.Grow(dst, 12+n+1)[:start+12+n+1]
	out := dst[start+12:]
	first, last := n, 0 // row n holds position n; it is First only when n == 1
	for i := 0; i < n; i++ {
		p := int(sa[n-1-i])
		switch p {
		case 0:
			last = i
			out[i] = ^t[0]
		case 1:
			first = i
			out[i] = ^t[0]
		default:
			out[i] = ^t[p-1]
		}
	}
	out[n] = ^t[n-1]
	binary.LittleEndian.PutUint32(dst[start:], uint32(n))
	binary.LittleEndian.PutUint32(dst[start+4:], uint32(first))
	binary.LittleEndian.PutUint32(dst[start+8:], uint32(last))
	return dst
}

// bwtDecoder reads encoded blocks from src and serves the original bytes.
type bwtDecoder struct {
	src    io.Reader
	in     *input
	blk    []byte
	link   []uint32 // per row: next row in the low 24 bits, its byte in the top 8
	outBuf []byte
	out    []byte // decoded bytes of the current block
	pos    int    // next byte of out to serve
	blocks int
}

func newBWTDecoder(src io.Reader, in *input) *bwtDecoder {
	return &bwtDecoder{src: src, in: in}
}

func (d *bwtDecoder) Read(p []byte) (int, error) {
	if d.pos == len(d.out) {
		if err := d.next(); err != nil {
			return 0, err
		}
	}
	n := copy(p, d.out[d.pos:])
	d.pos += n
	return n, nil
}

// next decodes the next block into d.out.
func (d *bwtDecoder) next() error {
	blk, first, last, err := readBWTBlock(d.src, d.in, d.blocks, &d.blk)
	if err != nil {
		return err
	}
	if len(d.link) < len(blk) {
		// Sized by the validated block length (at most 256 KiB + 1).
		d.link = make([]uint32, len(blk))
		d.outBuf = make([]byte, len(blk)-1)
	}
	out := d.outBuf[:len(blk)-1]
	if err := invertBWT(blk, first, last, d.link, out, d.in.position(), d.blocks); err != nil {
		return err
	}
	d.out = out
	d.pos = 0
	d.blocks++
	return nil
}

func bwtErrorf(at inputPos, block int, format string, args ...any) error {
	return at.errorf(nil, fmt.Sprintf("bwt block %d: ", block)+fmt.Sprintf(format, args...))
}

// readBWTBlock reads block number block, header and data, from src into
// *buf (grown to the block's validated length when too small) and returns
// the data (Length+1 bytes) and the rows First and Last. Errors name the
// input position at which they are noticed.
func readBWTBlock(src io.Reader, in *input, block int, buf *[]byte) (blk []byte, first, last int64, err error) {
	var hdr [12]byte
	if _, err := io.ReadFull(src, hdr[:]); err != nil {
		if err == io.ErrUnexpectedEOF { // the stream ended inside the header
			return nil, 0, 0, in.eofError(fmt.Sprintf("bwt block %d header", block))
		}
		return nil, 0, 0, err // io.EOF (clean end between blocks) or an earlier stage's error
	}
	n := int64(int32(binary.LittleEndian.Uint32(hdr[0:])))
	first = int64(int32(binary.LittleEndian.Uint32(hdr[4:])))
	last = int64(int32(binary.LittleEndian.Uint32(hdr[8:])))
	switch {
	case n < 1 || n > bwtBlockSize:
		return nil, 0, 0, bwtErrorf(in.position(), block, "length %d out of range 1..%d", n, bwtBlockSize)
	case first < 0 || first > n || last < 0 || last > n || first == last:
		return nil, 0, 0, bwtErrorf(in.position(), block, "first %d / last %d invalid for length %d", first, last, n)
	}
	if int64(cap(*buf)) < n+1 {
		// Sized by the validated block length (at most 256 KiB + 1).
		*buf = make([]byte, n+1)
	}
	blk = (*buf)[:n+1]
	if _, err := io.ReadFull(src, blk); err != nil {
		if err == io.ErrUnexpectedEOF || err == io.EOF {
			return nil, 0, 0, in.eofError(fmt.Sprintf("bwt block %d data", block))
		}
		return nil, 0, 0, err
	}
	return blk, first, last, nil
}

// invertBWT writes the original bytes of the block blk (read by
// readBWTBlock) to out (len(blk)-1 bytes), with link (at least len(blk)
// entries) as scratch. out may be blk[:len(blk)-1]: blk is not read once
// the links are built. A block that is not a single cycle ending at row
// last is an error at position at, naming the block's number.
func invertBWT(blk []byte, first, last int64, link []uint32, out []byte, at inputPos, block int) error {
	n := int64(len(out))
	// Rows sorted by their first byte, the end marker (at row last) after
	// every byte value; equal bytes keep their row order.
	var cnt [257]int32
	for _, b := range blk {
		cnt[b]++
	}
	cnt[blk[last]]--
	cnt[256]++
	var start [257]int32
	var sum int32
	for i, c := range cnt {
		start[i] = sum
		sum += c
	}
	link = link[:n+1]
	for i, b := range blk {
		if int64(i) == last {
			link[start[256]] = uint32(i)
			continue
		}
		link[start[b]] = uint32(i)
		start[b]++
	}
	for i, b := range blk {
		link[i] |= uint32(b) << 24
	}

	// Walk from the row of position 1; a valid block visits every row and
	// reaches the row of position 0 exactly after n steps.
	i := uint32(first)
	l := uint32(last)
	for j := range out {
		if i == l {
			return bwtErrorf(at, block, "corrupt data (cycle closes after %d of %d bytes)", j, n)
		}
		v := link[i]
		out[j] = byte(v >> 24)
		i = v & 0xffffff
	}
	if i != l {
		return bwtErrorf(at, block, "corrupt data (walk does not end at last row)")
	}
	return nil
}
