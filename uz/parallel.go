package uz

import (
	"errors"
	"io"
	"sync"
)

// Parallel decoding of one .uz stream.
//
// The Huffman, second RLE and move-to-front stages carry state over the
// whole stream, and so does the final RLE (blocks cut its output anywhere),
// so they run in order; only the inverse BWT of a block depends on nothing
// else. bwtParallel therefore runs the ordered front stages on one
// goroutine, which reads whole blocks ahead exactly as bwtDecoder reads
// them, inverts blocks on others, and serves the blocks to the final RLE
// (on the caller's goroutine) in stream order.
//
// Errors stay those of the sequential reader, at the same offsets: the
// front goroutine builds its errors with the input where the sequential
// reader would have it, records with each block the input position after
// its data (where a sequential reader stands while it serves the block,
// and so the offset of an inverse BWT, final RLE or limit error noticed in
// it), and ends with the first error or io.EOF. The caller takes blocks in
// order and stops at the first failure, so a later block's error (or a
// read error on input the sequential reader would not have read) is never
// seen. Only the underlying reader notices a difference: up to a few blocks
// of input are read ahead.

// errClosed is what a Reader or Reader2 returns after Close.
var errClosed = errors.New("uz: read after close")

// bwtParallel serves the same bytes, in the same Read calls, as a
// bwtDecoder on the same source.
type bwtParallel struct {
	order    chan *parBlock // every block read, in stream order; the last carries an error or io.EOF
	work     chan *parBlock // blocks to invert
	free     chan *parBlock
	stop     chan struct{} // closed by close: the goroutines end
	stopOnce sync.Once
	wg       sync.WaitGroup

	// The caller's side.
	cur *parBlock // the block being served
	out []byte
	off int // next byte of out to serve
	at  inputPos
	err error
}

// parBlock is one BWT block: its encoded data, then in place its original
// bytes.
type parBlock struct {
	buf         []byte
	n           int
	first, last int64
	index       int
	at          inputPos      // the input position after the block's data, or at its error
	invert      bool          // sent to an inverter, which signals done
	err         error         // the front goroutine's error, or (after done) the inverter's
	done        chan struct{} // capacity 1
}

// startBWTParallel starts decoding the blocks src yields (the output of
// the move-to-front stage over in) with workers-1 inverters (at least
// one). Memory: workers+1 blocks of at most 256 KiB and a 1 MiB table per
// inverter.
func startBWTParallel(src io.Reader, in *input, workers int) *bwtParallel {
	inverters := max(1, workers-1)
	// One block being read, one being served, one per inverter.
	slots := inverters + 2
	p := &bwtParallel{
		order: make(chan *parBlock, slots),
		work:  make(chan *parBlock, slots),
		free:  make(chan *parBlock, slots),
		stop:  make(chan struct{}),
		at:    in.position(),
	}
	for range slots {
		p.free <- &parBlock{done: make(chan struct{}, 1)}
	}
	p.wg.Add(1 + inverters)
	go p.readBlocks(src, in)
	for range inverters {
		go p.invert()
	}
	return p
}

// readBlocks reads blocks in order until the first error or the end of
// the stream, or until close.
func (p *bwtParallel) readBlocks(src io.Reader, in *input) {
	defer p.wg.Done()
	defer close(p.work)
	for index := 0; ; index++ {
		var b *parBlock
		select {
		case <-p.stop:
			return
		case b = <-p.free:
		}
		select {
		case <-p.stop:
			return
		default:
		}
		blk, first, last, err := readBWTBlock(src, in, index, &b.buf)
		b.index, b.at = index, in.position()
		if err != nil {
			b.err, b.invert = err, false
			p.order <- b // never blocks: the channels hold every block
			return
		}
		b.n, b.first, b.last, b.err, b.invert = len(blk)-1, first, last, nil, true
		p.order <- b
		p.work <- b
	}
}

// invert inverts blocks until the front goroutine ends.
func (p *bwtParallel) invert() {
	defer p.wg.Done()
	var link []uint32
	for b := range p.work {
		select {
		case <-p.stop:
			b.err = errClosed
		default:
			if len(link) < b.n+1 {
				link = make([]uint32, b.n+1)
			}
			b.err = invertBWT(b.buf[:b.n+1], b.first, b.last, link, b.buf[:b.n], b.at, b.index)
		}
		b.done <- struct{}{}
	}
}

func (p *bwtParallel) Read(q []byte) (int, error) {
	if p.off == len(p.out) {
		if err := p.next(); err != nil {
			return 0, err
		}
	}
	n := copy(q, p.out[p.off:])
	p.off += n
	return n, nil
}

// next moves to the next block, returning the current one for reuse.
func (p *bwtParallel) next() error {
	if p.err != nil {
		return p.err
	}
	if p.cur != nil {
		p.free <- p.cur // never blocks
		p.cur, p.out, p.off = nil, nil, 0
	}
	b := <-p.order
	if b.invert {
		<-b.done
	}
	p.at = b.at
	if b.err != nil {
		p.err = b.err
		return b.err
	}
	p.cur, p.out, p.off = b, b.buf[:b.n], 0
	return nil
}

// position is where a sequential reader's input would stand now.
func (p *bwtParallel) position() inputPos { return p.at }

// shutdown makes the goroutines end without waiting for them.
func (p *bwtParallel) shutdown() {
	p.stopOnce.Do(func() { close(p.stop) })
}

// close ends the goroutines and waits for them: the front goroutine
// finishes the block it is reading first.
func (p *bwtParallel) close() {
	p.shutdown()
	p.wg.Wait()
	if p.err == nil {
		p.err = errClosed
	}
}
