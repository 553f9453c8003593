package uz

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// BenchmarkUZCompressWorkers compresses the largest corpus package (else
// 3 MiB of generated package data) with 1 and 2 workers: the parallel BWT's
// gain on one file.
func BenchmarkUZCompressWorkers(b *testing.B) {
	data := largestCorpusPackage(b)
	for _, workers := range []int{1, 2} {
		b.Run("workers="+strconv.Itoa(workers), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				w, err := NewWriter(io.Discard, "Bench.u", Sig1234)
				if err != nil {
					b.Fatal(err)
				}
				w.SetWorkers(workers)
				if _, err := w.Write(data); err != nil {
					b.Fatal(err)
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkUZDecompressWorkers decompresses the largest corpus package's
// .uz (both signatures; compressed before the timer) with 1 and 2 workers.
func BenchmarkUZDecompressWorkers(b *testing.B) {
	data := largestCorpusPackage(b)
	for _, sig := range []int32{Sig1234, Sig5678} {
		var enc bytes.Buffer
		w, err := NewWriter(&enc, "Bench.u", sig)
		if err != nil {
			b.Fatal(err)
		}
		w.SetWorkers(2)
		w.Write(data)
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		for _, workers := range []int{1, 2} {
			b.Run("sig="+strconv.Itoa(int(sig))+"/workers="+strconv.Itoa(workers), func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				for b.Loop() {
					r, err := NewReader(bytes.NewReader(enc.Bytes()), 0)
					if err != nil {
						b.Fatal(err)
					}
					r.SetWorkers(workers)
					if _, err := r.WriteTo(io.Discard); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkUZ2DecompressWorkers is the same for .uz2.
func BenchmarkUZ2DecompressWorkers(b *testing.B) {
	data := largestCorpusPackage(b)
	var enc bytes.Buffer
	w := NewWriter2(&enc, 2)
	w.Write(data)
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	for _, workers := range []int{1, 2} {
		b.Run("workers="+strconv.Itoa(workers), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				z := NewReader2(bytes.NewReader(enc.Bytes()), 0)
				z.SetWorkers(workers)
				if _, err := z.WriteTo(io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func largestCorpusPackage(b *testing.B) []byte {
	var best string
	var size int64
	if dir := corpusDirOrEmpty(); dir != "" {
		filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			switch filepath.Ext(path) {
			case ".u", ".unr", ".utx", ".uax", ".umx":
				if info, err := d.Info(); err == nil && info.Size() > size {
					best, size = path, info.Size()
				}
			}
			return nil
		})
	}
	if best == "" {
		return genPackage(99, 3<<20)
	}
	data, err := os.ReadFile(best)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("%s, %d bytes", filepath.Base(best), len(data))
	return data
}
