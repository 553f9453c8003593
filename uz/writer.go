package uz

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
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

	// With more than one worker, the BWTs of successive blocks run on
	// workers goroutines while one more runs the stages that carry state
	// from block to block (MTF, the second RLE, the symbol stream) in block
	// order, so the output does not depend on the number of workers.
	workers int
	pipe    *bwtPipeline
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

// SetWorkers makes the Writer run the BWT of n blocks (256 KiB of RLE
// output each) at once on n goroutines (1 or less: none). The output is the
// same for every n; memory grows by about 2 MiB per extra worker. Call it
// before the first Write.
func (zw *Writer) SetWorkers(n int) {
	zw.workers = max(1, n)
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
		if zw.workers > 1 {
			if zw.pipe == nil {
				zw.pipe = zw.startPipeline()
			}
			zw.pipe.submit(zw.block[:k])
			if zw.pipe.overflow.Load() {
				return errors.New("uz: input too large for the .uz format")
			}
			rest := copy(zw.block, zw.block[k:])
			zw.block = zw.block[:rest]
			continue
		} else {
			zw.transform(zw.block[:k])
		}
		rest := copy(zw.block, zw.block[k:])
		zw.block = zw.block[:rest]
		if len(zw.syms) > maxSymbols {
			return errors.New("uz: input too large for the .uz format")
		}
	}
	if atLeast == 1 && zw.pipe != nil {
		zw.pipe.finish()
		zw.pipe = nil
	}
	return nil
}

// bwtPipeline runs the BWT of blocks on several goroutines and the stages
// after it (stage2) on one more, in block order. A fixed set of slots,
// one more than the workers, bounds the blocks in flight and so the memory:
// per worker its encoder (5 bytes per block byte) and a slot (1 byte).
type bwtPipeline struct {
	work     chan *bwtSlot // blocks for the BWT workers
	order    chan *bwtSlot // the same blocks, in order, for stage2
	free     chan *bwtSlot
	workers  sync.WaitGroup
	finished chan struct{}
	overflow atomic.Bool // the symbol stream outgrew the format
}

// bwtSlot holds one block: its bytes, then in place its BWT.
type bwtSlot struct {
	b    []byte
	done chan struct{}
}

func (zw *Writer) startPipeline() *bwtPipeline {
	slots := zw.workers + 1
	p := &bwtPipeline{
		work:     make(chan *bwtSlot, slots),
		order:    make(chan *bwtSlot, slots),
		free:     make(chan *bwtSlot, slots),
		finished: make(chan struct{}),
	}
	for range slots {
		p.free <- &bwtSlot{b: make([]byte, 0, bwtBlockSize+13), done: make(chan struct{}, 1)}
	}
	for range zw.workers {
		p.workers.Add(1)
		go func() {
			defer p.workers.Done()
			var enc bwtEncoder
			for s := range p.work {
				s.b = enc.encode(s.b[:0], s.b)
				s.done <- struct{}{}
			}
		}()
	}
	go func() {
		defer close(p.finished)
		for s := range p.order {
			<-s.done
			if !p.overflow.Load() {
				zw.stage2(s.b)
				if len(zw.syms) > maxSymbols {
					p.overflow.Store(true)
				}
			}
			p.free <- s
		}
	}()
	return p
}

// submit queues a copy of block b, waiting for a free slot.
func (p *bwtPipeline) submit(b []byte) {
	s := <-p.free
	s.b = append(s.b[:0], b...)
	p.order <- s
	p.work <- s
}

// finish waits for every queued block to pass all stages.
func (p *bwtPipeline) finish() {
	close(p.work)
	close(p.order)
	<-p.finished
	p.workers.Wait()
}

// transform runs BWT, MTF (and the second RLE) on one block.
func (zw *Writer) transform(b []byte) {
	zw.tmp = zw.bwt.encode(zw.tmp[:0], b)
	zw.stage2(zw.tmp)
}

// stage2 runs the stages after the BWT, which carry state from block to
// block: MTF, then the second RLE or none, into the symbol stream.
func (zw *Writer) stage2(b []byte) {
	zw.mtf.encode(b)
	if zw.rle2 != nil {
		zw.syms = zw.rle2.encode(zw.syms, b)
	} else {
		zw.syms = append(zw.syms, b...)
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
	zw.err = writeHuffmanParallel(bw, zw.syms, zw.workers)
	zw.syms = nil
	return zw.err
}
