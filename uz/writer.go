package uz

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// Writer compresses to a UE1 .uz stream exactly as the engine's
// FCodecFull does. The Huffman stage needs the symbol counts of the whole
// stream before its first bit, so the Writer keeps the transformed stream
// (about the size of the input) in memory until Close, which writes
// everything.
type Writer struct {
	w      io.Writer
	header Header
	rle    rleEncoder
	block  []byte // RLE output not yet transformed
	bwt    bwtEncoder
	tmp    []byte
	mtf    mtfList
	rle2   *rleEncoder // second RLE stage of Sig5678
	syms   []byte      // Huffman input
	err    error
	closed bool
}

// maxSymbols is the most symbols the int32 Huffman count can state.
const maxSymbols = 1<<31 - 1

// NewWriter returns a Writer that compresses to w with signature sig
// (Sig1234 or Sig5678), recording name as the original file name. Nothing
// is written to w before Close.
func NewWriter(w io.Writer, name string, sig int32) (*Writer, error) {
	if sig != Sig1234 && sig != Sig5678 {
		return nil, UnsupportedError(fmt.Sprintf("signature %d (want 1234 or 5678)", sig))
	}
	h := Header{Signature: sig, Name: name}
	if _, err := appendHeader(nil, h); err != nil {
		return nil, err
	}
	zw := &Writer{w: w, header: h, mtf: newMTFList(), block: make([]byte, 0, bwtBlockSize+96<<10)}
	if sig == Sig5678 {
		zw.rle2 = &rleEncoder{}
	}
	return zw, nil
}

// Write compresses p. It returns an error only after Close or a failed
// earlier call.
func (zw *Writer) Write(p []byte) (int, error) {
	if zw.err != nil {
		return 0, zw.err
	}
	if zw.closed {
		return 0, errors.New("uz: write after close")
	}
	n := len(p)
	for len(p) > 0 {
		k := min(len(p), 64<<10) // RLE output of k bytes stays below 6k/5
		zw.block = zw.rle.encode(zw.block, p[:k])
		p = p[k:]
		if err := zw.drain(bwtBlockSize); err != nil {
			zw.err = err
			return n - len(p), err
		}
	}
	return n, nil
}

// drain transforms full blocks while at least min bytes are pending.
func (zw *Writer) drain(atLeast int) error {
	for len(zw.block) >= atLeast && len(zw.block) > 0 {
		k := min(len(zw.block), bwtBlockSize)
		zw.transform(zw.block[:k])
		rest := copy(zw.block, zw.block[k:])
		zw.block = zw.block[:rest]
		if len(zw.syms) > maxSymbols {
			return errors.New("uz: input too large for the .uz format")
		}
	}
	return nil
}

// transform runs BWT, MTF (and the second RLE) on one block.
func (zw *Writer) transform(b []byte) {
	zw.tmp = zw.bwt.encode(zw.tmp[:0], b)
	zw.mtf.encode(zw.tmp)
	if zw.rle2 != nil {
		zw.syms = zw.rle2.encode(zw.syms, zw.tmp)
	} else {
		zw.syms = append(zw.syms, zw.tmp...)
	}
}

// Close finishes the stream and writes the whole .uz file to the
// underlying writer. It does not close that writer.
func (zw *Writer) Close() error {
	if zw.closed {
		return zw.err
	}
	zw.closed = true
	if zw.err != nil {
		return zw.err
	}
	zw.block = zw.rle.flush(zw.block)
	if err := zw.drain(1); err != nil {
		zw.err = err
		return err
	}
	if zw.rle2 != nil {
		zw.syms = zw.rle2.flush(zw.syms)
	}
	if len(zw.syms) > maxSymbols {
		zw.err = errors.New("uz: input too large for the .uz format")
		return zw.err
	}
	hdr, _ := appendHeader(nil, zw.header)
	bw := bufio.NewWriterSize(zw.w, 64<<10)
	bw.Write(hdr)
	zw.err = writeHuffman(bw, zw.syms)
	zw.syms = nil
	return zw.err
}
