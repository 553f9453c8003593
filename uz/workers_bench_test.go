package uz

import (
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
