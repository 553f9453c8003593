package uz

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"testing/iotest"
)

func compressUZ2(t testing.TB, data []byte, workers, piece int) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter2(&buf, workers)
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

func decompressUZ2(data []byte, limit int64) ([]byte, error) {
	var out bytes.Buffer
	_, err := NewReader2(bytes.NewReader(data), limit).WriteTo(&out)
	return out.Bytes(), err
}

func TestCorpusDecodeUZ2(t *testing.T) {
	c := corpusDir(t)
	pairs := []struct{ uz2, orig string }{
		{"InsultingPros__KFRedirectTool/crates/tests/reference_files/KFMutators.u.uz2", "InsultingPros__KFRedirectTool/crates/tests/reference_files/KFMutators.u"},
		{"aldehir__ut2u/pkg/uz2/testdata/the-adventures-of-sherlock-homes-by-arthur-conan-doyle.txt.uz2", "aldehir__ut2u/pkg/uz2/testdata/the-adventures-of-sherlock-homes-by-arthur-conan-doyle.txt"},
	}
	found := 0
	for _, p := range pairs {
		enc, err := os.ReadFile(filepath.Join(c, p.uz2))
		if err != nil {
			t.Logf("skip %s: %v", p.uz2, err)
			continue
		}
		found++
		want, err := os.ReadFile(filepath.Join(c, p.orig))
		if err != nil {
			t.Fatal(err)
		}
		if k := Detect(enc); k != KindUZ2 {
			t.Errorf("%s: Detect = %v, want uz2", p.uz2, k)
		}
		have, err := decompressUZ2(enc, 0)
		if err != nil {
			t.Fatalf("%s: %v", p.uz2, err)
		}
		if !bytes.Equal(have, want) {
			t.Fatalf("%s: decoded %d bytes, want %d", p.uz2, len(have), len(want))
		}
		// Our encoder's output for the same file round-trips.
		again, err := decompressUZ2(compressUZ2(t, want, 2, 0), 0)
		if err != nil || !bytes.Equal(again, want) {
			t.Fatalf("%s: re-encoded file does not round-trip: %v", p.uz2, err)
		}
	}
	if found == 0 {
		t.Skip("no .uz2 reference files in the corpus")
	}
}

func TestUZ2RoundTrip(t *testing.T) {
	inputs := []stageInput{
		{"0 bytes", nil},
		{"1 byte", []byte{1}},
		{"chunk-1", genPackage(50, uz2ChunkSize-1)},
		{"exact chunk", genPackage(51, uz2ChunkSize)},
		{"chunk+1", genPackage(52, uz2ChunkSize+1)},
		{"exact 8 chunks (one batch of 2 workers)", genPackage(53, 8*uz2ChunkSize)},
		{"random 1M (incompressible)", genRandom(54, 1<<20)},
		{"package 2M", genPackage(55, 2<<20)},
	}
	for _, tc := range inputs {
		if raceEnabled && len(tc.data) >= 1<<20 {
			// Eight chunks already fill a batch of the workers; the runs
			// without -race (CI's 32-bit and Windows runs) take these.
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			want := compressUZ2(t, tc.data, 1, 0)
			pieces := []int{0, 1000, uz2ChunkSize}
			for _, workers := range []int{2, 3, 0} {
				for _, piece := range pieces {
					if have := compressUZ2(t, tc.data, workers, piece); !bytes.Equal(have, want) {
						t.Fatalf("workers %d, writes of %d: output differs from one worker", workers, piece)
					}
				}
			}
			dec, err := decompressUZ2(want, 0)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(dec, tc.data) {
				t.Fatalf("decoded %d bytes, want %d", len(dec), len(tc.data))
			}
			// Chunk layout: 32 KiB pieces, sizes within the format's limits.
			off, total := 0, 0
			for off < len(want) {
				csize := int(binary.LittleEndian.Uint32(want[off:]))
				usize := int(binary.LittleEndian.Uint32(want[off+4:]))
				if csize > uz2MaxCompressed || usize > uz2ChunkSize || (usize != uz2ChunkSize && total+usize != len(tc.data)) {
					t.Fatalf("chunk at %d: sizes %d/%d", off, csize, usize)
				}
				total += usize
				off += 8 + csize
			}
			r := NewReader2(iotest.OneByteReader(bytes.NewReader(want)), 0)
			if small, err := io.ReadAll(iotest.OneByteReader(r)); err != nil || !bytes.Equal(small, tc.data) {
				t.Fatalf("one-byte reads: %v", err)
			}
		})
	}
}

func TestUZ2Corrupt(t *testing.T) {
	data := genPackage(60, 3*uz2ChunkSize+100)
	good := compressUZ2(t, data, 2, 0)
	var borders []int
	for off := 0; off < len(good); {
		borders = append(borders, off)
		off += 8 + int(binary.LittleEndian.Uint32(good[off:]))
	}
	// A .uz2 has no total size: cut exactly at a chunk border it is a valid
	// file holding the first chunks, which only the caller can tell from
	// the expected size (a package's own tables). Every other cut, inside a
	// header or mid-chunk, is an error.
	for i, b := range borders {
		if b > 0 {
			dec, err := decompressUZ2(good[:b], 0)
			if err != nil || !bytes.Equal(dec, data[:i*uz2ChunkSize]) {
				t.Errorf("cut at border %d: %d bytes, err %v; want the first %d chunks", b, len(dec), err, i)
			}
		}
		for _, c := range []int{b + 1, b + 7, b + 8, b + 9, b + 200} {
			if c <= 0 || c >= len(good) {
				continue
			}
			_, err := decompressUZ2(good[:c], 0)
			wantFormatError(t, err, c)
			if !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Errorf("cut at %d: err = %v, want unexpected EOF", c, err)
			}
		}
	}
	set32 := func(off int, v uint32) []byte {
		b := append([]byte(nil), good...)
		binary.LittleEndian.PutUint32(b[off:], v)
		return b
	}
	flip := func(off int) []byte {
		b := append([]byte(nil), good...)
		b[off] ^= 0x10
		return b
	}
	c1 := borders[1]
	tests := []struct {
		name string
		in   []byte
		at   int64
	}{
		{"compressed size over maximum", set32(0, uz2MaxCompressed+1), 0},
		{"compressed size zero", set32(0, 0), 0},
		{"uncompressed size over maximum", set32(c1+4, uz2ChunkSize+1), int64(c1)},
		{"uncompressed size zero", set32(c1+4, 0), int64(c1)},
		{"uncompressed size smaller than data", set32(4, 1000), 8},
		{"uncompressed size larger than data", set32(c1+4, uz2ChunkSize-1), int64(c1) + 8},
		{"zlib header corrupt", flip(8), 8},
		{"zlib data corrupt", flip(c1 + 500), int64(c1) + 8},
		{"adler32 corrupt", flip(c1 - 1), 8},
		{"extra byte in chunk", func() []byte {
			b := append([]byte(nil), good[:c1]...)
			binary.LittleEndian.PutUint32(b, binary.LittleEndian.Uint32(b)+1)
			b = append(b, 0)
			return append(b, good[c1:]...)
		}(), int64(c1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := decompressUZ2(tc.in, 0)
			wantFormatError(t, err, len(tc.in))
			var fe *FormatError
			errors.As(err, &fe)
			if fe.Offset != tc.at {
				t.Errorf("offset = %d, want %d (%v)", fe.Offset, tc.at, err)
			}
		})
	}
}

func TestUZ2Limit(t *testing.T) {
	data := make([]byte, 5*uz2ChunkSize)
	enc := compressUZ2(t, data, 2, 0)
	if _, err := decompressUZ2(enc, int64(len(data))); err != nil {
		t.Fatalf("limit = size: %v", err)
	}
	dec, err := decompressUZ2(enc, int64(len(data))-1)
	if !errors.Is(err, ErrLimit) {
		t.Fatalf("err = %v, want ErrLimit", err)
	}
	if len(dec) > len(data)-1 {
		t.Fatalf("returned %d bytes beyond the limit", len(dec))
	}
}

func TestDetect(t *testing.T) {
	uz := compressUZ(t, []byte("package"), "Pkg.u", Sig1234, 0)
	uz5678 := compressUZ(t, []byte("package"), "Pkg.u", Sig5678, 0)
	uz2 := compressUZ2(t, []byte("package"), 1, 0)
	tests := []struct {
		name string
		in   []byte
		want Kind
	}{
		{"uz", uz, KindUZ},
		{"uz 5678", uz5678, KindUZ},
		{"uz first 6 bytes", uz[:6], KindUZ},
		{"uz2", uz2, KindUZ2},
		{"uz2 first 10 bytes", uz2[:10], KindUZ2},
		{"package", []byte{0xc1, 0x83, 0x2a, 0x9e, 69, 0, 0, 0, 0, 0}, KindUnknown},
		{"empty", nil, KindUnknown},
		{"sig with bad name", []byte{0xd2, 0x04, 0, 0, 0x02, 'a', 'b'}, KindUnknown},
		{"text", []byte("[Engine.GameInfo]\r\n"), KindUnknown},
	}
	for _, tc := range tests {
		if have := Detect(tc.in); have != tc.want {
			t.Errorf("%s: Detect = %v, want %v", tc.name, have, tc.want)
		}
	}
	if c := corpusDirOrEmpty(); c != "" {
		for _, p := range corpusUZOrNil(c) {
			b, err := os.ReadFile(p)
			if err == nil && Detect(b[:min(len(b), DetectSize)]) != KindUZ {
				t.Errorf("%s: not detected as uz", p)
			}
		}
	}
}

func corpusUZOrNil(c string) []string {
	m, _ := filepath.Glob(filepath.Join(c, "adrak0__ut99", "Cache", "*.tmp"))
	return m
}
