package uz

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// encodeUZBlocks encodes data as a .uz stream the way Writer does, but
// with BWT blocks of blockSize bytes of RLE output instead of 256 KiB: the
// reader accepts any block length up to 256 KiB, and small blocks give
// streams of many blocks that are cheap to decode under the race detector.
func encodeUZBlocks(t testing.TB, data []byte, name string, sig int32, blockSize int) []byte {
	var rle rleEncoder
	return encodeRawBlocks(t, rle.flush(rle.encode(nil, data)), name, sig, blockSize, nil)
}

// encodeRawBlocks is encodeUZBlocks for data that is already RLE output;
// damage, when set, may change each encoded block (header and data).
func encodeRawBlocks(t testing.TB, r []byte, name string, sig int32, blockSize int, damage func(i int, blk []byte)) []byte {
	t.Helper()
	var bwt bwtEncoder
	mtf := newMTFList()
	var rle2 rleEncoder
	var syms []byte
	for i := 0; i < len(r); i += blockSize {
		blk := bwt.encode(nil, r[i:min(i+blockSize, len(r))])
		if damage != nil {
			damage(i/blockSize, blk)
		}
		mtf.encode(blk)
		if sig == Sig5678 {
			syms = rle2.encode(syms, blk)
		} else {
			syms = append(syms, blk...)
		}
	}
	if sig == Sig5678 {
		syms = rle2.flush(syms)
	}
	hdr, err := appendHeader(nil, Header{Signature: sig, Name: name})
	if err != nil {
		t.Fatal(err)
	}
	buf := bytes.NewBuffer(hdr)
	bw := bufio.NewWriter(buf)
	if err := writeHuffman(bw, syms); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// decodeResult is everything a caller sees of a decode: the bytes, the
// count each Read returned, and the final error (nil at io.EOF).
type decodeResult struct {
	out    []byte
	counts []int
	err    error
}

// readSizes are the buffer sizes Read is called with, in turn.
var readSizes = []int{1, 5, 300, 4096, 70000, 64 << 10}

// decodeUZWorkers decodes data with the given workers and limit, reading
// with the sizes in turn (or through WriteTo when sizes is nil).
func decodeUZWorkers(data []byte, limit int64, workers int, sizes []int) decodeResult {
	r, err := NewReader(bytes.NewReader(data), limit)
	if err != nil {
		return decodeResult{err: err}
	}
	r.SetWorkers(workers)
	defer r.Close()
	return readAllSizes(r, sizes)
}

func readAllSizes(r io.Reader, sizes []int) decodeResult {
	var res decodeResult
	if sizes == nil {
		var out bytes.Buffer
		_, res.err = r.(io.WriterTo).WriteTo(&out)
		res.out = out.Bytes()
		return res
	}
	buf := make([]byte, slices.Max(sizes))
	for i := 0; ; i++ {
		n, err := r.Read(buf[:sizes[i%len(sizes)]])
		res.out = append(res.out, buf[:n]...)
		res.counts = append(res.counts, n)
		if err == io.EOF {
			return res
		}
		if err != nil {
			res.err = err
			return res
		}
	}
}

// sameResult reports how two decodes differ, or "".
func sameResult(a, b decodeResult) string {
	switch {
	case !bytes.Equal(a.out, b.out):
		return fmt.Sprintf("output differs: %d bytes vs %d, first difference at %d", len(a.out), len(b.out), firstDiff(a.out, b.out))
	case !slices.Equal(a.counts, b.counts):
		return fmt.Sprintf("Read counts differ: %d calls vs %d", len(a.counts), len(b.counts))
	case (a.err == nil) != (b.err == nil):
		return fmt.Sprintf("errors differ: %v vs %v", a.err, b.err)
	case a.err == nil:
		return ""
	case a.err.Error() != b.err.Error():
		return fmt.Sprintf("errors differ: %q vs %q", a.err, b.err)
	}
	for _, target := range []error{ErrLimit, ErrNonCanonical, io.ErrUnexpectedEOF} {
		if errors.Is(a.err, target) != errors.Is(b.err, target) {
			return fmt.Sprintf("errors.Is(%v) differs for %q", target, a.err)
		}
	}
	var fa, fb *FormatError
	if errors.As(a.err, &fa) != errors.As(b.err, &fb) || fa != nil && fa.Offset != fb.Offset {
		return fmt.Sprintf("error types or offsets differ: %#v vs %#v", a.err, b.err)
	}
	return ""
}

// raceTrim keeps only the first worker count under the race detector.
func raceTrim(workers []int) []int {
	if raceEnabled {
		return workers[:1]
	}
	return workers
}

// decodeFunc decodes data with workers goroutines, reading in sizes:
// decodeUZWorkers or decodeUZ2Workers.
type decodeFunc func(data []byte, limit int64, workers int, sizes []int) decodeResult

// checkWorkersAgree decodes data with 1 worker and with each of workers
// and fails on any difference; it returns the sequential result.
func checkWorkersAgree(t *testing.T, what string, decode decodeFunc, data []byte, limit int64, sizes []int, workers ...int) decodeResult {
	t.Helper()
	workers = raceTrim(workers)
	want := decode(data, limit, 1, sizes)
	for _, w := range workers {
		if d := sameResult(want, decode(data, limit, w, sizes)); d != "" {
			t.Errorf("%s: %d workers: %s", what, w, d)
		}
	}
	return want
}

func TestUZParallelDecodeSame(t *testing.T) {
	inputs := []stageInput{
		{"empty", nil},
		{"1 byte", []byte{7}},
		{"package 40k", genPackage(40, 40_000)},
		{"package 900", genPackage(44, 900)},
		{"random 20k", genRandom(41, 20_000)},
		{"zeros 30k (runs across blocks)", make([]byte, 30_000)},
	}
	for _, sig := range []int32{Sig1234, Sig5678} {
		for _, tc := range inputs {
			for _, block := range []int{1, 100, 4096} {
				if block == 1 && len(tc.data) > 1000 {
					continue // a goroutine hand-off per byte: slow under -race
				}
				enc := encodeUZBlocks(t, tc.data, "Blocks.u", sig, block)
				what := fmt.Sprintf("sig %d, %s, blocks of %d", sig, tc.name, block)
				for _, sizes := range [][]int{readSizes, nil} {
					res := checkWorkersAgree(t, what, decodeUZWorkers, enc, 0, sizes, 2, 3)
					if res.err != nil || !bytes.Equal(res.out, tc.data) {
						t.Fatalf("%s: sequential decode: %v, %d bytes of %d", what, res.err, len(res.out), len(tc.data))
					}
				}
			}
		}
	}
	// Streams of the real block size (the code is the same for any size:
	// not under -race, where encoding them is slow).
	if raceEnabled {
		return
	}
	inputs = []stageInput{{"random 3 blocks", genRandom(42, 2*bwtBlockSize+1000)}, {"package 1.5M", genPackage(43, 1500_000)}}
	for _, sig := range []int32{Sig1234, Sig5678} {
		for _, tc := range inputs {
			enc := compressUZ(t, tc.data, "Big.u", sig, 0)
			if tc.name == "random 3 blocks" {
				if same := encodeUZBlocks(t, tc.data, "Big.u", sig, bwtBlockSize); !bytes.Equal(same, enc) {
					t.Fatal("encodeUZBlocks with 256 KiB blocks differs from Writer")
				}
			}
			res := checkWorkersAgree(t, fmt.Sprintf("sig %d, %s", sig, tc.name), decodeUZWorkers, enc, 0, nil, 2, 4)
			if res.err != nil || !bytes.Equal(res.out, tc.data) {
				t.Fatalf("sequential decode: %v", res.err)
			}
		}
	}
}

// TestUZParallelDecodeErrors damages multi-block streams (truncation, bit
// flips, output limits) and requires every number of workers to deliver
// the same bytes in the same Read calls and then the same error at the
// same offset.
func TestUZParallelDecodeErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	cases := 150
	if raceEnabled {
		cases = 20
	}
	kinds := map[string]int{}
	kind := func(err error) string {
		switch msg := fmt.Sprint(err); {
		case err == nil:
			return "none"
		case errors.Is(err, ErrLimit):
			return "limit"
		case errors.Is(err, ErrNonCanonical):
			return "non-canonical"
		case strings.Contains(msg, "corrupt data"):
			return "bwt walk"
		case strings.Contains(msg, "bwt block"):
			return "bwt header"
		case strings.Contains(msg, ": rle stage"):
			return "rle"
		case strings.Contains(msg, "second rle stage"):
			return "second rle"
		case strings.Contains(msg, "huffman"):
			return "huffman"
		case strings.Contains(msg, "trailing") || strings.Contains(msg, "padding"):
			return "trailing"
		}
		return "other"
	}
	for _, sig := range []int32{Sig1234, Sig5678} {
		data := genPackage(uint64(50+sig), 24_000)
		enc := encodeUZBlocks(t, data, "Damaged.u", sig, 2000)
		check := func(what string, b []byte, limit int64) {
			sizes := readSizes
			if rng.IntN(2) == 0 {
				sizes = nil
			}
			res := checkWorkersAgree(t, what, decodeUZWorkers, b, limit, sizes, 2, 3)
			kinds[kind(res.err)]++
		}
		for range cases {
			b := slices.Clone(enc)
			bit := rng.IntN(8 * (len(b) - 20))
			b[20+bit/8] ^= 1 << (bit % 8)
			check(fmt.Sprintf("sig %d, bit %d flipped", sig, 20*8+bit), b, 0)
		}
		for range cases / 3 {
			cut := rng.IntN(len(enc))
			check(fmt.Sprintf("sig %d, cut at %d", sig, cut), enc[:cut], 0)
		}
		for range cases / 3 {
			limit := 1 + rng.Int64N(int64(len(data)))
			check(fmt.Sprintf("sig %d, limit %d", sig, limit), enc, limit)
		}
		check(fmt.Sprintf("sig %d, trailing byte", sig), append(slices.Clone(enc), 0), 0)
		// A run length below 2 in the final RLE (the RLE stage decodes
		// what the BWT blocks hold, so build the stream from bad RLE).
		bad := append(make([]byte, 0, 9000), genRandom(uint64(sig), 5000)...)
		bad = append(bad, 9, 9, 9, 9, 9, 1)
		bad = append(bad, genRandom(uint64(sig)+1, 3000)...)
		check(fmt.Sprintf("sig %d, bad run length", sig), encodeRawBlocks(t, bad, "BadRun.u", sig, 700, nil), 0)
		// Damaged block headers and data in the fourth block.
		for i, damage := range []func(blk []byte){
			func(blk []byte) { binary.LittleEndian.PutUint32(blk, bwtBlockSize+1) },
			func(blk []byte) { binary.LittleEndian.PutUint32(blk[4:], 2001) },
			func(blk []byte) { copy(blk[8:12], blk[4:8]) },
			func(blk []byte) { blk[100], blk[101] = blk[101], blk[100]+1 },
			func(blk []byte) { blk[500] ^= 0x40 },
		} {
			enc := encodeRawBlocks(t, bad, "BadBlock.u", sig, 1000, func(k int, blk []byte) {
				if k == 3 {
					damage(blk)
				}
			})
			check(fmt.Sprintf("sig %d, damaged block %d", sig, i), enc, 0)
		}
	}
	t.Logf("error kinds: %v", kinds)
	for _, k := range []string{"limit", "bwt walk", "bwt header", "rle", "huffman", "trailing"} {
		if kinds[k] == 0 {
			t.Errorf("no damaged stream gave a %s error: %v", k, kinds)
		}
	}
}

// TestUZParallelReadError: an error of the underlying reader surfaces at
// the same point with any number of workers.
func TestUZParallelReadError(t *testing.T) {
	enc := encodeUZBlocks(t, genPackage(60, 30_000), "ReadErr.u", Sig1234, 3000)
	errRead := errors.New("read failed")
	for _, cut := range []int{2000, len(enc) / 2, len(enc) - 1} {
		var want decodeResult
		for _, workers := range []int{1, 2, 3} {
			r, err := NewReader(iotest.HalfReader(io.MultiReader(bytes.NewReader(enc[:cut]), iotest.ErrReader(errRead))), 0)
			if err != nil {
				t.Fatal(err)
			}
			r.SetWorkers(workers)
			res := readAllSizes(r, readSizes)
			r.Close()
			if res.err != errRead {
				t.Errorf("cut %d, %d workers: err %v, want the reader's", cut, workers, res.err)
			}
			if workers == 1 {
				want = res
			} else if d := sameResult(want, res); d != "" {
				t.Errorf("cut %d, %d workers: %s", cut, workers, d)
			}
		}
	}
}

// waitGoroutines waits until at most n goroutines run, collecting garbage
// to run cleanups, and fails after a while.
func waitGoroutines(t *testing.T, n int, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > n {
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d goroutines, want at most %d", what, runtime.NumGoroutine(), n)
		}
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
	}
}

func TestUZParallelNoLeak(t *testing.T) {
	enc := encodeUZBlocks(t, genPackage(61, 40_000), "Leak.u", Sig5678, 1000)
	base := runtime.NumGoroutine()
	open := func() *Reader {
		r, err := NewReader(bytes.NewReader(enc), 0)
		if err != nil {
			t.Fatal(err)
		}
		r.SetWorkers(3)
		if _, err := r.Read(make([]byte, 10)); err != nil {
			t.Fatal(err)
		}
		return r
	}
	// Closed mid-stream: Close waits for the goroutines.
	r := open()
	r.Close()
	// Close waits for the goroutines' last step; they leave a moment later.
	waitGoroutines(t, base, "after Close")
	if _, err := r.Read(make([]byte, 10)); err == nil {
		t.Error("Read after Close succeeded")
	}
	// Read to the end: the goroutines end by themselves.
	r = open()
	if _, err := io.Copy(io.Discard, r); err != nil {
		t.Fatal(err)
	}
	waitGoroutines(t, base, "after reading to the end")
	runtime.KeepAlive(r) // not a cleanup: they ended by themselves
	// Dropped mid-stream without Close: a cleanup stops them.
	func() { open() }()
	waitGoroutines(t, base, "after dropping a Reader")
}

func TestCorpusParallelDecode(t *testing.T) {
	c := corpusDir(t)
	files := corpusUZOrNil(c)
	uz2, _ := filepath.Glob(filepath.Join(c, "*", "*", "*", "*", "*.uz2"))
	more, _ := filepath.Glob(filepath.Join(c, "*", "*", "*", "*", "*", "*.uz2"))
	files = append(append(files, uz2...), more...)
	if len(files) == 0 {
		t.Skip("no .uz or .uz2 files in the corpus")
	}
	checked := 0
	defer func() { t.Logf("%d of %d corpus files decoded with 1 and 2 workers", checked, len(files)) }()
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if raceEnabled && len(data) > 128<<10 {
			continue
		}
		checked++
		if Detect(data) == KindUZ2 {
			want := decodeUZ2Workers(data, 0, 1, nil)
			if want.err != nil {
				t.Fatalf("%s: %v", f, want.err)
			}
			if d := sameResult(want, decodeUZ2Workers(data, 0, 2, nil)); d != "" {
				t.Errorf("%s: 2 workers: %s", f, d)
			}
			continue
		}
		want := decodeUZWorkers(data, 0, 1, nil)
		if want.err != nil {
			t.Fatalf("%s: %v", f, want.err)
		}
		if d := sameResult(want, decodeUZWorkers(data, 0, 2, nil)); d != "" {
			t.Errorf("%s: 2 workers: %s", f, d)
		}
	}
}

// TestUZ2ParallelReadError: an error of the underlying reader surfaces
// at the same point with any number of workers, after a corrupt chunk
// before it if there is one.
func TestUZ2ParallelReadError(t *testing.T) {
	good := compressUZ2(t, genPackage(74, 6*uz2ChunkSize), 2, 0)
	bad := slices.Clone(good)
	bad[8+2] |= 0x06 // the first chunk does not inflate
	errRead := errors.New("read failed")
	for _, tc := range []struct {
		name string
		data []byte
		want error
	}{{"good", good, errRead}, {"first chunk corrupt", bad, nil}} {
		first := 8 + int(binary.LittleEndian.Uint32(good))
		for _, cut := range []int{first + 100, len(good) / 2, len(good) - 1} {
			var want decodeResult
			for _, workers := range []int{1, 2, 3} {
				z := NewReader2(iotest.HalfReader(io.MultiReader(bytes.NewReader(tc.data[:cut]), iotest.ErrReader(errRead))), 0)
				z.SetWorkers(workers)
				res := readAllSizes(z, readSizes)
				z.Close()
				if tc.want != nil && res.err != tc.want || tc.want == nil && (res.err == errRead || res.err == nil) {
					t.Errorf("%s, cut %d, %d workers: err %v", tc.name, cut, workers, res.err)
				}
				if workers == 1 {
					want = res
				} else if d := sameResult(want, res); d != "" {
					t.Errorf("%s, cut %d, %d workers: %s", tc.name, cut, workers, d)
				}
			}
		}
	}
}

func decodeUZ2Workers(data []byte, limit int64, workers int, sizes []int) decodeResult {
	z := NewReader2(bytes.NewReader(data), limit)
	z.SetWorkers(workers)
	defer z.Close()
	return readAllSizes(z, sizes)
}

func TestUZ2ParallelDecodeSame(t *testing.T) {
	for _, tc := range []stageInput{
		{"empty", nil},
		{"1 byte", []byte{7}},
		{"package 5 chunks", genPackage(70, 5*uz2ChunkSize-3)},
		{"random 12 chunks", genRandom(71, 12*uz2ChunkSize)},
	} {
		enc := compressUZ2(t, tc.data, 2, 0)
		for _, sizes := range [][]int{readSizes, nil} {
			res := checkWorkersAgree(t, tc.name, decodeUZ2Workers, enc, 0, sizes, 2, 3, 8)
			if res.err != nil || !bytes.Equal(res.out, tc.data) {
				t.Fatalf("%s: sequential decode: %v", tc.name, res.err)
			}
		}
	}
}

func TestUZ2ParallelDecodeErrors(t *testing.T) {
	chunks := 12
	if raceEnabled {
		chunks = 5
	}
	data := genPackage(72, chunks*uz2ChunkSize+500)
	good := compressUZ2(t, data, 2, 0)
	var borders []int
	for off := 0; off < len(good); {
		borders = append(borders, off)
		off += 8 + int(binary.LittleEndian.Uint32(good[off:]))
	}
	rng := rand.New(rand.NewPCG(7, 8))
	kinds := map[string]int{}
	check := func(what string, b []byte, limit int64) {
		sizes := readSizes
		if rng.IntN(2) == 0 {
			sizes = nil
		}
		res := checkWorkersAgree(t, what, decodeUZ2Workers, b, limit, sizes, 2, 3)
		msg := fmt.Sprint(res.err)
		if i := strings.Index(msg, ": chunk "); i >= 0 {
			msg = msg[i+2:]
			msg = msg[strings.Index(msg, ": ")+2:]
			msg, _, _ = strings.Cut(msg, " (")
			msg = strings.Map(func(r rune) rune {
				if r >= '0' && r <= '9' {
					return -1
				}
				return r
			}, msg)
		}
		kinds[msg]++
	}
	cutAt := borders
	if raceEnabled {
		cutAt = borders[:3]
	}
	for _, b := range cutAt {
		for _, d := range []int{0, 1, 7, 8, 9, 200} {
			if c := b + d; c > 0 && c < len(good) {
				check(fmt.Sprintf("cut at %d", c), good[:c], 0)
			}
		}
	}
	flips := 100
	if raceEnabled {
		flips = 15
	}
	for range flips {
		b := slices.Clone(good)
		bit := rng.IntN(8 * len(b))
		b[bit/8] ^= 1 << (bit % 8)
		check(fmt.Sprintf("bit %d flipped", bit), b, 0)
	}
	c5 := borders[3]
	set32 := func(off int, v uint32) []byte {
		b := slices.Clone(good)
		binary.LittleEndian.PutUint32(b[off:], v)
		return b
	}
	corrupt := slices.Clone(good)
	corrupt[c5+8+2] |= 0x06 // the first deflate block's type: 3, reserved
	check("deflate data corrupt", corrupt, 0)
	check("compressed size over maximum", set32(c5, uz2MaxCompressed+1), 0)
	check("uncompressed size zero", set32(c5+4, 0), 0)
	check("uncompressed size smaller", set32(c5+4, 1000), 0)
	check("uncompressed size larger", set32(c5+4, uz2ChunkSize-1), 0)
	extra := slices.Clone(good[:c5])
	binary.LittleEndian.PutUint32(extra[borders[2]:], binary.LittleEndian.Uint32(extra[borders[2]:])+3)
	extra = append(append(extra, 1, 2, 3), good[c5:]...)
	check("bytes after a zlib stream", extra, 0)
	for range flips / 5 {
		limit := 1 + rng.Int64N(int64(len(data)))
		check(fmt.Sprintf("limit %d", limit), good, limit)
	}
	t.Logf("errors: %v", kinds)
	for _, k := range []string{"truncated chunk header", "truncated zlib data", "zlib data does not inflate to the declared  bytes: flate: corrupt input before offset ",
		"decompressed output exceeds the limit of  bytes", "compressed size  out of range ..", " bytes after the zlib stream"} {
		if kinds[k] == 0 {
			t.Errorf("no damaged stream gave the error %q", k)
		}
	}
}

func TestUZ2ParallelNoLeak(t *testing.T) {
	enc := compressUZ2(t, genPackage(73, 20*uz2ChunkSize), 2, 0)
	base := runtime.NumGoroutine()
	open := func() *Reader2 {
		z := NewReader2(bytes.NewReader(enc), 0)
		z.SetWorkers(4)
		if _, err := z.Read(make([]byte, 10)); err != nil {
			t.Fatal(err)
		}
		return z
	}
	z := open()
	z.Close()
	waitGoroutines(t, base, "after Close")
	if _, err := z.Read(make([]byte, 10)); err == nil {
		t.Error("Read after Close succeeded")
	}
	func() { open() }()
	waitGoroutines(t, base, "after dropping a Reader2")
}
