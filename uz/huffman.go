package uz

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"sync"
)

// The engine's Huffman coder (FCodecHuffman) writes int32 Total (the number
// of symbols), the tree, then the codes, all bits LSB first within a byte.
// The tree is serialised depth first: 1 for an inner node followed by its
// children 0 and 1, or 0 for a leaf followed by its 8-bit symbol.
//
// The tree is built without sorting: the list starts as the 256 symbols in
// byte order, trailing zero-count symbols are dropped (zero-count symbols
// before the last used one stay), and while more than one entry remains the
// last entry becomes child 0 and the one before it child 1 of a new node,
// which is inserted before the first entry whose count is smaller than its
// own. Codes read root to leaf; child i is bit i.

// huffNode is a tree node; sym < 0 marks an inner node.
type huffNode struct {
	count int64
	sym   int
	child [2]int
}

// huffCode is a symbol's code: bit k of the code is bit k%64 of bits[k/64].
type huffCode struct {
	bits [4]uint64
	n    int
}

// buildHuffman builds the engine's tree for counts and returns the nodes
// and the root index.
func buildHuffman(counts *[256]int64) ([]huffNode, int) {
	nodes := make([]huffNode, 256, 511)
	list := make([]int, 256)
	for i := range nodes {
		nodes[i] = huffNode{count: counts[i], sym: i}
		list[i] = i
	}
	for len(list) > 1 && nodes[list[len(list)-1]].count == 0 {
		list = list[:len(list)-1]
	}
	for len(list) > 1 {
		a, b := list[len(list)-1], list[len(list)-2]
		list = list[:len(list)-2]
		node := huffNode{count: nodes[a].count + nodes[b].count, sym: -1, child: [2]int{a, b}}
		nodes = append(nodes, node)
		i := 0
		for i < len(list) && nodes[list[i]].count >= node.count {
			i++
		}
		list = append(list, 0)
		copy(list[i+1:], list[i:])
		list[i] = len(nodes) - 1
	}
	return nodes, list[0]
}

// huffCodes returns the code of every symbol in the tree.
func huffCodes(nodes []huffNode, root int) *[256]huffCode {
	var codes [256]huffCode
	var walk func(i int, c huffCode)
	walk = func(i int, c huffCode) {
		if nodes[i].sym >= 0 {
			codes[nodes[i].sym] = c
			return
		}
		for bit := 0; bit < 2; bit++ {
			cc := c
			if bit == 1 {
				cc.bits[c.n/64] |= 1 << (c.n % 64)
			}
			cc.n++
			walk(nodes[i].child[bit], cc)
		}
	}
	walk(root, huffCode{})
	return &codes
}

// bitWriter writes bits LSB first.
type bitWriter struct {
	w   *bufio.Writer
	acc uint64
	n   uint
	b   [4]byte // out here, not on the stack: Write would make it escape
}

// writeBits writes the low n <= 32 bits of v.
func (bw *bitWriter) writeBits(v uint64, n uint) {
	bw.acc |= v << bw.n
	bw.n += n
	if bw.n >= 32 {
		binary.LittleEndian.PutUint32(bw.b[:], uint32(bw.acc))
		bw.w.Write(bw.b[:])
		bw.acc >>= 32
		bw.n -= 32
	}
}

// flush writes the last partial byte, zero padded.
func (bw *bitWriter) flush() error {
	for bw.n > 0 {
		bw.w.WriteByte(byte(bw.acc))
		bw.acc >>= 8
		bw.n -= min(bw.n, 8)
	}
	return bw.w.Flush()
}

func writeTree(bw *bitWriter, nodes []huffNode, i int) {
	if nodes[i].sym >= 0 {
		bw.writeBits(uint64(nodes[i].sym)<<1, 9)
		return
	}
	bw.writeBits(1, 1)
	writeTree(bw, nodes, nodes[i].child[0])
	writeTree(bw, nodes, nodes[i].child[1])
}

// writeHuffman writes the whole Huffman stage for syms to w.
func writeHuffman(w *bufio.Writer, syms []byte) error {
	return writeHuffmanParallel(w, syms, 1)
}

// writeHuffmanParallel is writeHuffman with the symbols counted and coded
// on up to workers goroutines, each on its own part of syms; the parts'
// bits are then written one after the other, so the bytes are the same.
func writeHuffmanParallel(w *bufio.Writer, syms []byte, workers int) error {
	parts := partition(len(syms), workers)
	partCounts := make([][256]int64, len(parts))
	each(len(parts), func(i int) {
		for _, s := range syms[parts[i][0]:parts[i][1]] {
			partCounts[i][s]++
		}
	})
	var counts [256]int64
	for _, pc := range partCounts {
		for s, n := range pc {
			counts[s] += n
		}
	}
	nodes, root := buildHuffman(&counts)
	return writeHuffmanTreeParts(w, syms, nodes, root, parts, partCounts)
}

// partition cuts n items into up to workers parts of at least 1 MiB.
func partition(n, workers int) [][2]int {
	k := max(1, min(workers, n/(1<<20)))
	out := make([][2]int, k)
	for i := range out {
		out[i] = [2]int{n * i / k, n * (i + 1) / k}
	}
	return out
}

// each runs fn(0..n-1), the first on the calling goroutine.
func each(n int, fn func(i int)) {
	var wg sync.WaitGroup
	for i := 1; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(i)
		}()
	}
	if n > 0 {
		fn(0)
	}
	wg.Wait()
}

// writeHuffmanTree writes Total, the tree and the codes of syms.
func writeHuffmanTree(w *bufio.Writer, syms []byte, nodes []huffNode, root int) error {
	return writeHuffmanTreeParts(w, syms, nodes, root, [][2]int{{0, len(syms)}}, nil)
}

// bitBuf collects bits LSB first in 64-bit words.
type bitBuf struct {
	words []uint64
	acc   uint64
	n     uint // bits in acc
}

// add appends the low n <= 32 bits of v.
func (b *bitBuf) add(v uint64, n uint) {
	b.acc |= v << b.n
	b.n += n
	if b.n >= 64 {
		b.words = append(b.words, b.acc)
		b.n -= 64
		b.acc = v >> (n - b.n) // the bits that did not fit
		if b.n == 0 {
			b.acc = 0
		}
	}
}

// writeHuffmanTreeParts writes Total, the tree and the codes of syms; the
// codes of each part (after the first) are made on their own goroutine,
// into a buffer sized from the part's symbol counts.
func writeHuffmanTreeParts(w *bufio.Writer, syms []byte, nodes []huffNode, root int, parts [][2]int, partCounts [][256]int64) error {
	codes := huffCodes(nodes, root)
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], uint32(len(syms)))
	w.Write(b[:])
	bw := &bitWriter{w: w}
	writeTree(bw, nodes, root)
	// Codes of at most 32 bits (nearly all) go through a packed table.
	var short [256]uint64
	var shortLen [256]uint
	for s := range codes {
		if codes[s].n <= 32 {
			short[s], shortLen[s] = codes[s].bits[0], uint(codes[s].n)
		}
	}
	code := func(out func(v uint64, n uint), syms []byte) {
		for _, s := range syms {
			if l := shortLen[s]; l > 0 || codes[s].n == 0 {
				out(short[s], l)
				continue
			}
			c := &codes[s]
			for k := 0; k < c.n; k += 32 {
				m := min(c.n-k, 32)
				out(c.bits[k/64]>>(k%64)&(1<<m-1), uint(m))
			}
		}
	}
	bufs := make([]bitBuf, len(parts))
	each(len(parts), func(i int) {
		if i == 0 {
			code(bw.writeBits, syms[parts[0][0]:parts[0][1]]) // straight to w
			return
		}
		var bits int64
		for s, n := range partCounts[i] {
			bits += n * int64(codes[s].n)
		}
		bufs[i].words = make([]uint64, 0, bits/64+1)
		code(bufs[i].add, syms[parts[i][0]:parts[i][1]])
	})
	for _, pb := range bufs[1:] {
		for _, word := range pb.words {
			bw.writeBits(word&0xffffffff, 32)
			bw.writeBits(word>>32, 32)
		}
		for n := pb.n; n > 0; {
			m := min(n, 32)
			bw.writeBits(pb.acc&(1<<m-1), m)
			pb.acc >>= m
			n -= m
		}
	}
	return bw.flush()
}

// Decoding.

// maxTreeLeaves bounds a serialised tree: one leaf per byte value.
const maxTreeLeaves = 256

// decNode is a decoder tree node; sym < 0 marks an inner node.
type decNode struct {
	child [2]int16
	sym   int16
}

const tableBits = 11

// huffReader decodes the symbols of the Huffman stage.
type huffReader struct {
	in     *input
	treeAt int64 // stream offset of the tree
	total  int64 // symbols still to decode
	counts [256]int64
	nodes  []decNode
	table  [1 << tableBits]uint32 // leaf: sym<<8 | len; inner: 1<<31 | node<<8 | tableBits
	done   bool                   // the end of the stream has been checked
}

func newHuffReader(in *input) (*huffReader, error) {
	at := in.byteOffset()
	total, err := in.readInt32("huffman symbol count")
	if err != nil {
		return nil, err
	}
	if total < 0 {
		return nil, &FormatError{Offset: at, Msg: fmt.Sprintf("huffman symbol count %d is negative", total)}
	}
	h := &huffReader{in: in, total: int64(total), treeAt: in.byteOffset()}
	if err := h.readTree(); err != nil {
		return nil, err
	}
	if h.nodes[0].sym >= 0 && total > 0 {
		// A one-leaf tree codes every symbol in zero bits; the engine writes
		// it only for empty input (any block header has two distinct MTF
		// symbols), and accepting it would let a tiny file claim 2^31 symbols.
		return nil, &FormatError{Offset: at, Msg: fmt.Sprintf("huffman tree has a single symbol but %d symbols follow", total)}
	}
	h.buildTable()
	return h, nil
}

// readTree parses the serialised tree without recursion.
func (h *huffReader) readTree() error {
	type frame struct{ node, next int }
	h.nodes = make([]decNode, 0, 2*maxTreeLeaves-1)
	var stack []frame
	leaves := 0
	// newNode reads one node; inner nodes are pushed to get their children.
	newNode := func() (int, error) {
		bit, err := h.in.readBits(1, "huffman tree")
		if err != nil {
			return 0, err
		}
		idx := len(h.nodes)
		if bit == 0 {
			leaves++
			if leaves > maxTreeLeaves {
				return 0, h.in.errorf(nil, "huffman tree has more than 256 leaves")
			}
			sym, err := h.in.readBits(8, "huffman tree")
			if err != nil {
				return 0, err
			}
			h.nodes = append(h.nodes, decNode{sym: int16(sym)})
			return idx, nil
		}
		if len(h.nodes)+1 >= 2*maxTreeLeaves-1 {
			return 0, h.in.errorf(nil, "huffman tree has more than 256 leaves")
		}
		h.nodes = append(h.nodes, decNode{sym: -1})
		stack = append(stack, frame{node: idx})
		return idx, nil
	}
	if _, err := newNode(); err != nil {
		return err
	}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next == 2 {
			stack = stack[:len(stack)-1]
			continue
		}
		parent, which := top.node, top.next
		top.next++
		child, err := newNode()
		if err != nil {
			return err
		}
		h.nodes[parent].child[which] = int16(child)
	}
	return nil
}

func (h *huffReader) buildTable() {
	for idx := range h.table {
		n, depth := 0, uint(0)
		for h.nodes[n].sym < 0 && depth < tableBits {
			n = int(h.nodes[n].child[idx>>depth&1])
			depth++
		}
		if h.nodes[n].sym >= 0 {
			h.table[idx] = uint32(h.nodes[n].sym)<<8 | uint32(depth)
		} else {
			h.table[idx] = 1<<31 | uint32(n)<<8 | uint32(depth)
		}
	}
}

func (h *huffReader) Read(p []byte) (int, error) {
	if h.total == 0 {
		if !h.done {
			h.done = true
			if err := h.in.finish(); err != nil {
				return 0, err
			}
			if !h.canonical() {
				return 0, &FormatError{Offset: h.treeAt, Msg: "huffman tree differs from the one the engine builds for the decoded symbols", Err: ErrNonCanonical}
			}
		}
		return 0, io.EOF
	}
	if int64(len(p)) > h.total {
		p = p[:h.total]
	}
	in := h.in
	acc, nacc := in.acc, in.nacc
	n := 0
	var err error
	for n < len(p) {
		if nacc < 32 {
			in.acc, in.nacc = acc, nacc
			in.refill()
			acc, nacc = in.acc, in.nacc
		}
		e := h.table[acc&(1<<tableBits-1)]
		l := uint(e & 0xff)
		if l > nacc {
			err = in.eofError("huffman data")
			break
		}
		acc >>= l
		nacc -= l
		if e&(1<<31) == 0 {
			p[n] = byte(e >> 8)
			n++
			continue
		}
		node := int(e >> 8 & 0x7fff)
		for h.nodes[node].sym < 0 {
			if nacc == 0 {
				in.acc, in.nacc = acc, nacc
				in.refill()
				acc, nacc = in.acc, in.nacc
				if nacc == 0 {
					err = in.eofError("huffman data")
					break
				}
			}
			node = int(h.nodes[node].child[acc&1])
			acc >>= 1
			nacc--
		}
		if err != nil {
			break
		}
		p[n] = byte(h.nodes[node].sym)
		n++
	}
	in.acc, in.nacc = acc, nacc
	h.total -= int64(n)
	for _, b := range p[:n] {
		h.counts[b]++
	}
	return n, err
}

// canonical reports whether the tree read is the tree the engine builds
// from the counts of the decoded symbols. Both are compared in the order
// they are serialised (depth first, child 0 first).
func (h *huffReader) canonical() bool {
	nodes, root := buildHuffman(&h.counts)
	i := 0
	var same func(n int) bool
	same = func(n int) bool {
		if i >= len(h.nodes) {
			return false
		}
		d := h.nodes[i]
		i++
		if nodes[n].sym >= 0 {
			return int(d.sym) == nodes[n].sym
		}
		return d.sym < 0 && same(nodes[n].child[0]) && same(nodes[n].child[1])
	}
	return same(root) && i == len(h.nodes)
}
