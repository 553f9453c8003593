package uz

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

// compressUZ compresses data in writes of the given size (0: one write).
func compressUZ(t testing.TB, data []byte, name string, sig int32, piece int) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, name, sig)
	if err != nil {
		t.Fatal(err)
	}
	if piece <= 0 {
		piece = max(len(data), 1)
	}
	for i := 0; i < len(data); i += piece {
		if _, err := w.Write(data[i:min(i+piece, len(data))]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func decompressUZ(data []byte, limit int64) (Header, []byte, error) {
	r, err := NewReader(bytes.NewReader(data), limit)
	if err != nil {
		return Header{}, nil, err
	}
	var out bytes.Buffer
	_, err = r.WriteTo(&out)
	return r.Header, out.Bytes(), err
}

// sizeClasses are inputs of every size class the format distinguishes.
// Random bytes have no runs, so their RLE output has their exact size and
// the block multiples are exact.
func sizeClasses(short bool) []stageInput {
	in := []stageInput{
		{"0 bytes", nil},
		{"1 byte", []byte{42}},
		{"1 zero byte", []byte{0}},
		{"5 zero bytes", make([]byte, 5)},
		{"small package", genPackage(10, 3000)},
		{"block-1 random", genRandom(11, bwtBlockSize-1)},
		{"exact block random", genRandom(12, bwtBlockSize)},
		{"block+1 random", genRandom(13, bwtBlockSize+1)},
		{"package 700k", genPackage(14, 700_000)},
		{"zeros 1M (runs across blocks)", make([]byte, 1<<20)},
	}
	if !short {
		in = append(in,
			stageInput{"exact 2 blocks random", genRandom(15, 2*bwtBlockSize)},
			stageInput{"package 3M", genPackage(16, 3<<20)},
			stageInput{"0xff 20M (RLE across many blocks)", repeatByte(0xff, 20<<20)},
		)
	}
	// Long runs that straddle the first block border of the RLE output.
	b := genRandom(17, bwtBlockSize-3)
	b = append(b, repeatByte(0xab, 5000)...)
	b = append(b, genRandom(18, 1000)...)
	in = append(in, stageInput{"run across block border", b})
	return in
}

func TestUZRoundTrip(t *testing.T) {
	// Under the race detector the inputs of over 1 MiB are left out: they
	// take no other path through the codec's goroutines than the two-block
	// ones, and the runs without it (CI's 32-bit and Windows runs among
	// them) round-trip them.
	inputs := sizeClasses(testing.Short() || raceEnabled)
	for _, sig := range []int32{Sig1234, Sig5678} {
		for _, tc := range inputs {
			t.Run(itoa(int(sig))+"/"+tc.name, func(t *testing.T) {
				enc := compressUZ(t, tc.data, "Test.u", sig, 0)
				h, dec, err := decompressUZ(enc, 0)
				if err != nil {
					t.Fatal(err)
				}
				if h.Signature != sig || h.Name != "Test.u" {
					t.Errorf("header = %+v", h)
				}
				if !bytes.Equal(dec, tc.data) {
					t.Fatalf("decoded %d bytes, want %d", len(dec), len(tc.data))
				}
				if len(tc.data) < 1<<20 {
					if again := compressUZ(t, tc.data, "Test.u", sig, 4093); !bytes.Equal(again, enc) {
						t.Fatal("writes in pieces give different output")
					}
				}
			})
		}
	}
}

func TestUZReaderSmallReads(t *testing.T) {
	data := genPackage(20, 300_000)
	enc := compressUZ(t, data, "Small.u", Sig5678, 0)
	r, err := NewReader(iotest.OneByteReader(bytes.NewReader(enc)), 0)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := io.ReadAll(iotest.OneByteReader(r))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(dec, data) {
		t.Fatal("one-byte reads give different output")
	}
}

func TestUZNames(t *testing.T) {
	tests := []struct {
		name    string
		wantErr bool
	}{
		{"Botpack.u", false},
		{"DM-Mita]I[.unr", false},
		{"Café.utx", false},     // Latin-1
		{"Карта.unr", false},    // UTF-16
		{"emoji😀.u", false},     // UTF-16 surrogate pair
		{"", true},              // empty
		{"a\x00b.u", true},      // NUL
		{"bad\xffutf8.u", true}, // invalid UTF-8
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			w, err := NewWriter(&buf, tc.name, Sig1234)
			if tc.wantErr {
				if err == nil {
					t.Fatal("NewWriter accepted the name")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			w.Write([]byte("data"))
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			h, dec, err := decompressUZ(buf.Bytes(), 0)
			if err != nil {
				t.Fatal(err)
			}
			if h.Name != tc.name || string(dec) != "data" {
				t.Fatalf("have name %q data %q", h.Name, dec)
			}
		})
	}
}

func TestNewWriterSignature(t *testing.T) {
	_, err := NewWriter(io.Discard, "a.u", 4321)
	var ue UnsupportedError
	if !errors.As(err, &ue) {
		t.Fatalf("err = %v, want UnsupportedError", err)
	}
}

func TestUZLimit(t *testing.T) {
	data := make([]byte, 1<<20) // zeros compress extremely well
	enc := compressUZ(t, data, "Zero.u", Sig1234, 0)
	tests := []struct {
		limit   int64
		wantErr bool
	}{
		{1 << 20, false},
		{1<<20 - 1, true},
		{1000, true},
	}
	for _, tc := range tests {
		_, dec, err := decompressUZ(enc, tc.limit)
		if !tc.wantErr {
			if err != nil {
				t.Errorf("limit %d: %v", tc.limit, err)
			}
			continue
		}
		if !errors.Is(err, ErrLimit) {
			t.Errorf("limit %d: err = %v, want ErrLimit", tc.limit, err)
		}
		if int64(len(dec)) > tc.limit {
			t.Errorf("limit %d: returned %d bytes", tc.limit, len(dec))
		}
	}
}

// symbolStream reruns the writer's stages to get the Huffman input and the
// symbol index at which every BWT block starts.
func symbolStream(data []byte, sig int32) (syms []byte, blockStarts []int) {
	var rle rleEncoder
	block := rle.flush(rle.encode(nil, data))
	var bwt bwtEncoder
	mtf := newMTFList()
	var stage []byte
	for i := 0; i < len(block); i += bwtBlockSize {
		blockStarts = append(blockStarts, len(stage))
		tmp := bwt.encode(nil, block[i:min(i+bwtBlockSize, len(block))])
		mtf.encode(tmp)
		stage = append(stage, tmp...)
	}
	if sig == Sig5678 {
		var rle2 rleEncoder
		return rle2.flush(rle2.encode(nil, stage)), nil
	}
	return stage, blockStarts
}

// blockBorders returns the byte offsets in the .uz file at which each BWT
// block's symbols start (Sig1234 only).
func blockBorders(data []byte, name string) []int64 {
	syms, starts := symbolStream(data, Sig1234)
	var counts [256]int64
	for _, s := range syms {
		counts[s]++
	}
	nodes, root := buildHuffman(&counts)
	codes := huffCodes(nodes, root)
	hdr, _ := appendHeader(nil, Header{Signature: Sig1234, Name: name})
	treeBits := 0
	for i := range nodes {
		if reachable(nodes, root, i) {
			if nodes[i].sym >= 0 {
				treeBits += 9
			} else {
				treeBits++
			}
		}
	}
	var out []int64
	bits, k := int64(treeBits), 0
	for i, s := range syms {
		if k < len(starts) && starts[k] == i {
			out = append(out, int64(len(hdr)+4)+bits/8)
			k++
		}
		bits += int64(codes[s].n)
	}
	return out
}

// wantFormatError fails unless err is a *FormatError whose offset lies in
// the input.
func wantFormatError(t *testing.T, err error, size int) {
	t.Helper()
	var fe *FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("err = %v, want *FormatError", err)
	}
	if fe.Offset < 0 || fe.Offset > int64(size) {
		t.Fatalf("offset %d outside the %d-byte input", fe.Offset, size)
	}
}

func TestUZTruncated(t *testing.T) {
	data := genPackage(30, 3*bwtBlockSize)
	enc := compressUZ(t, data, "Cut.u", Sig1234, 0)
	cuts := map[int]bool{0: true, 1: true, 3: true, 4: true, 5: true, 10: true, len(enc) - 1: true}
	for _, b := range blockBorders(data, "Cut.u") {
		for d := -2; d <= 2; d++ {
			cuts[int(b)+d] = true
		}
	}
	step := len(enc) / 300 // mid-stream cuts
	switch {
	case testing.Short():
		step = len(enc) / 30
	case raceEnabled:
		step = len(enc) / 30 // each cut decodes up to it, ten times slower
	}
	for c := 11; c < len(enc); c += step {
		cuts[c] = true
	}
	if len(cuts) < 10 {
		t.Fatal("too few cuts")
	}
	for c := range cuts {
		if c < 0 || c >= len(enc) {
			continue
		}
		_, _, err := decompressUZ(enc[:c], 0)
		if err == nil {
			t.Fatalf("cut at %d of %d: no error", c, len(enc))
		}
		wantFormatError(t, err, c)
	}
}

func TestUZTreeBitFlips(t *testing.T) {
	// Every bit of the tree is flipped and the stream decoded again: the
	// data behind the tree only needs to use every symbol the tree has, so
	// under the race detector it is a third as long.
	size, repeats := 30_000, 500
	if raceEnabled {
		size, repeats = 10_000, 170
	}
	for _, tc := range []stageInput{
		{"package", genPackage(31, size)},
		{"text", bytes.Repeat([]byte("The quick brown fox jumps over the lazy dog. "), repeats)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			enc := compressUZ(t, tc.data, "Flip.u", Sig1234, 0)
			hdr, _ := appendHeader(nil, Header{Signature: Sig1234, Name: "Flip.u"})
			treeStart := len(hdr) + 4
			syms, _ := symbolStream(tc.data, Sig1234)
			var counts [256]int64
			for _, s := range syms {
				counts[s]++
			}
			nodes, root := buildHuffman(&counts)
			treeBits := 0
			for i := range nodes {
				if reachable(nodes, root, i) {
					treeBits += map[bool]int{true: 9, false: 1}[nodes[i].sym >= 0]
				}
			}
			// A flip in the symbol of a zero-count leaf changes nothing; any
			// other flip must be reported.
			undetected, harmless := 0, 0
			// Every bit, except in short runs and under the race detector
			// (which the decoder's one goroutine gives nothing to find):
			// there one in 13 and one in 3.
			stride := 1
			switch {
			case testing.Short():
				stride = 13
			case raceEnabled:
				stride = 3
			}
			for bit := 0; bit < treeBits; bit += stride {
				bad := append([]byte(nil), enc...)
				bad[treeStart+bit/8] ^= 1 << (bit % 8)
				_, dec, err := decompressUZ(bad, 4<<20)
				if err == nil {
					if bytes.Equal(dec, tc.data) {
						harmless++
					} else {
						undetected++
					}
					continue
				}
				wantFormatError(t, err, len(bad))
			}
			t.Logf("%d tree bits flipped: %d harmless, %d wrong output without error", treeBits, harmless, undetected)
			if undetected > 0 {
				t.Errorf("%d of %d tree bit flips went undetected", undetected, treeBits)
			}
		})
	}
}

func TestUZCorrupt(t *testing.T) {
	good := compressUZ(t, genPackage(40, 100_000), "Bad.u", Sig1234, 0)
	// forge builds a .uz whose BWT stage is the given bytes.
	forge := func(bwtStream []byte) []byte {
		mtf := newMTFList()
		s := append([]byte(nil), bwtStream...)
		mtf.encode(s)
		var buf bytes.Buffer
		hdr, _ := appendHeader(nil, Header{Signature: Sig1234, Name: "Bad.u"})
		buf.Write(hdr)
		bw := bufio.NewWriter(&buf)
		writeHuffman(bw, s)
		return buf.Bytes()
	}
	var bwt bwtEncoder
	okBlock := bwt.encode(nil, []byte("some package bytes"))
	over := append(appendLE32(nil, bwtBlockSize+1), okBlock[4:]...)
	tests := []struct {
		name string
		in   []byte
	}{
		{"bad signature", append([]byte{1, 2, 3, 4}, good[4:]...)},
		{"name length over maximum", append(append([]byte(nil), good[:4]...), 0x7f, 0xff, 0xff, 0x07)},
		{"name not terminated", append(append([]byte(nil), good[:4]...), 0x02, 'a', 'b')},
		{"block length over maximum", forge(over)},
		{"block length zero", forge(append(appendLE32(nil, 0), okBlock[4:]...))},
		{"partial block header", forge(append(append([]byte(nil), okBlock...), 1, 2, 3))},
		{"trailing garbage", append(append([]byte(nil), good...), 0xde, 0xad)},
		{"one-leaf tree with symbols", append(append([]byte(nil), good[:12]...), 0x10, 0, 0, 0, 0, 0)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := decompressUZ(tc.in, 0)
			wantFormatError(t, err, len(tc.in))
		})
	}
}

// TestUZWorkersSameBytes checks that the parallel BWT writes what the
// single-worker encoder writes, for both signatures, at the short size
// classes (one block, block borders, a few blocks; the corpus test covers
// larger real files) and in pieces.
func TestUZWorkersSameBytes(t *testing.T) {
	for _, sig := range []int32{Sig1234, Sig5678} {
		for _, tc := range sizeClasses(true) {
			if raceEnabled && len(tc.data) <= bwtBlockSize {
				continue // one block: no parallel BWT to race
			}
			t.Run(itoa(int(sig))+"/"+tc.name, func(t *testing.T) {
				want := compressUZ(t, tc.data, "Test.u", sig, 0)
				// Three workers on whole writes, two on writes that split
				// blocks.
				for _, run := range []struct{ workers, piece int }{{3, 0}, {2, 100 << 10}} {
					workers, piece := run.workers, run.piece
					{
						var have bytes.Buffer
						w, err := NewWriter(&have, "Test.u", sig)
						if err != nil {
							t.Fatal(err)
						}
						w.SetWorkers(workers)
						for rest := tc.data; len(rest) > 0; {
							k := len(rest)
							if piece > 0 {
								k = min(k, piece)
							}
							if _, err := w.Write(rest[:k]); err != nil {
								t.Fatal(err)
							}
							rest = rest[k:]
						}
						if err := w.Close(); err != nil {
							t.Fatal(err)
						}
						if i := firstDiff(have.Bytes(), want); i >= 0 {
							t.Fatalf("workers=%d piece=%d: differs from one worker at byte %d", workers, piece, i)
						}
					}
				}
			})
		}
	}
}

// TestHuffmanPartsSameBytes checks that coding the symbols in parts on
// several goroutines writes the bytes one part writes: on package-like
// data, and on a skewed stream whose rare symbols get codes longer than 32
// bits.
func TestHuffmanPartsSameBytes(t *testing.T) {
	type input struct {
		name string
		syms []byte
	}
	inputs := []input{{"package 3M", genPackage(21, 3<<20)}}
	// Fibonacci counts make the deepest tree: 34 symbols, codes of up to
	// 33 bits, 15 M symbols (too slow for -short and -race).
	if !testing.Short() && !raceEnabled {
		var skewed []byte
		for s, a, b := 0, 1, 1; s < 34; s, a, b = s+1, b, a+b {
			// Rarer symbols at higher byte values: the engine's list starts
			// in byte order, so it is then sorted as Huffman's needs.
			skewed = append(skewed, bytes.Repeat([]byte{byte(33 - s)}, a)...)
		}
		var counts [256]int64
		for _, s := range skewed {
			counts[s]++
		}
		nodes, root := buildHuffman(&counts)
		longest := 0
		for _, c := range huffCodes(nodes, root) {
			longest = max(longest, c.n)
		}
		if longest <= 32 {
			t.Fatalf("the skewed stream's longest code has %d bits; the test wants one over 32", longest)
		}
		inputs = append(inputs, input{"skewed 15M", skewed})
	}
	for _, tc := range inputs {
		var want bytes.Buffer
		bw := bufio.NewWriter(&want)
		if err := writeHuffman(bw, tc.syms); err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{2, 3, 8} {
			var have bytes.Buffer
			bw := bufio.NewWriter(&have)
			if err := writeHuffmanParallel(bw, tc.syms, workers); err != nil {
				t.Fatal(err)
			}
			if i := firstDiff(have.Bytes(), want.Bytes()); i >= 0 {
				t.Errorf("%s, %d workers: differs at byte %d", tc.name, workers, i)
			}
		}
	}
}
