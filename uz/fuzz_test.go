package uz

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

const fuzzLimit = 4 << 20

func addCorpusSeeds(f *testing.F, kind Kind) {
	c := corpusDirOrEmpty()
	if c == "" {
		return
	}
	var files []string
	if kind == KindUZ {
		files = corpusUZOrNil(c)
	} else {
		files, _ = filepath.Glob(filepath.Join(c, "*", "*", "*", "*", "*.uz2"))
		more, _ := filepath.Glob(filepath.Join(c, "*", "*", "*", "*", "*", "*.uz2"))
		files = append(files, more...)
	}
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil && len(b) <= 64<<10 {
			f.Add(b)
		}
	}
}

func FuzzDecodeUZ(f *testing.F) {
	for _, sig := range []int32{Sig1234, Sig5678} {
		for _, in := range [][]byte{nil, {0}, []byte("abcabcabc"), genPackage(70, 3000), make([]byte, 600)} {
			f.Add(compressUZ(f, in, "Seed.u", sig, 0))
		}
	}
	addCorpusSeeds(f, KindUZ)
	f.Fuzz(func(t *testing.T, data []byte) {
		// Decoding on several goroutines changes nothing a caller sees.
		if d := sameResult(decodeUZWorkers(data, fuzzLimit, 1, readSizes), decodeUZWorkers(data, fuzzLimit, 2, readSizes)); d != "" {
			t.Fatalf("1 and 2 workers: %s", d)
		}
		r, err := NewReader(bytes.NewReader(data), fuzzLimit)
		if err != nil {
			return
		}
		var out bytes.Buffer
		_, err = r.WriteTo(&out)
		if err != nil && !errors.Is(err, ErrNonCanonical) {
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Offset < 0 || fe.Offset > int64(len(data)) {
				t.Fatalf("error without a valid offset: %v", err)
			}
			return
		}
		if out.Len() > 16<<10 || r.Header.Name == "" {
			return
		}
		// Whatever decodes must survive a round trip through the writer.
		enc := compressUZ(t, out.Bytes(), r.Header.Name, r.Header.Signature, 0)
		_, again, err := decompressUZ(enc, fuzzLimit)
		if err != nil || !bytes.Equal(again, out.Bytes()) {
			t.Fatalf("re-encoded output does not round-trip: %v", err)
		}
	})
}

func FuzzDecodeUZ2(f *testing.F) {
	for _, in := range [][]byte{nil, {0}, []byte("abcabcabc"), genPackage(71, 40000)} {
		f.Add(compressUZ2(f, in, 1, 0))
	}
	addCorpusSeeds(f, KindUZ2)
	f.Fuzz(func(t *testing.T, data []byte) {
		if d := sameResult(decodeUZ2Workers(data, fuzzLimit, 1, readSizes), decodeUZ2Workers(data, fuzzLimit, 2, readSizes)); d != "" {
			t.Fatalf("1 and 2 workers: %s", d)
		}
		var out bytes.Buffer
		_, err := NewReader2(bytes.NewReader(data), fuzzLimit).WriteTo(&out)
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Offset < 0 || fe.Offset > int64(len(data)) {
				t.Fatalf("error without a valid offset: %v", err)
			}
			return
		}
		if out.Len() > 4<<10 {
			return // zlib round trips are the standard library's business
		}
		enc := compressUZ2(t, out.Bytes(), 2, 0)
		again, err := io.ReadAll(NewReader2(bytes.NewReader(enc), fuzzLimit))
		if err != nil || !bytes.Equal(again, out.Bytes()) {
			t.Fatalf("re-encoded output does not round-trip: %v", err)
		}
	})
}
