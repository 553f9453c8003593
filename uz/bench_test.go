package uz

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

const benchSize = 8 << 20

// benchInput is about 8 MiB of package data: corpus packages concatenated
// when the corpus is present, else generated package-like bytes.
func benchInput(b *testing.B) []byte {
	b.Helper()
	var data []byte
	if dir := corpusDirOrEmpty(); dir != "" {
		var files []string
		filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				switch strings.ToLower(filepath.Ext(path)) {
				case ".u", ".unr", ".utx", ".uax", ".umx":
					files = append(files, path)
				}
			}
			return nil
		})
		sort.Strings(files)
		for _, f := range files {
			if len(data) >= benchSize {
				break
			}
			if b, err := os.ReadFile(f); err == nil {
				data = append(data, b...)
			}
		}
	}
	if len(data) < benchSize/2 {
		data = genPackage(99, benchSize)
	}
	return data
}

func corpusDirOrEmpty() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			c := filepath.Join(dir, "..", "shared", "corpus")
			if _, err := os.Stat(c); err == nil {
				return c
			}
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// runTool runs a reference compressor with stdin from file and stdout to
// /dev/null and returns its wall time.
func runTool(b *testing.B, file string, name string, args ...string) time.Duration {
	b.Helper()
	in, err := os.Open(file)
	if err != nil {
		b.Fatal(err)
	}
	defer in.Close()
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer null.Close()
	cmd := exec.Command(name, args...)
	cmd.Stdin, cmd.Stdout = in, null
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s: %v", name, err)
	}
	return time.Since(start)
}

func needTool(b *testing.B, path string) {
	if _, err := os.Stat(path); err != nil {
		b.Skipf("%s not installed", path)
	}
}

// reportVs reports both throughputs and their ratio (ours / reference).
func reportVs(b *testing.B, size int, ours, ref time.Duration, refName string) {
	n := float64(b.N)
	mbs := func(d time.Duration) float64 { return float64(size) * n / d.Seconds() / 1e6 }
	b.ReportMetric(mbs(ours), "MB/s")
	b.ReportMetric(mbs(ref), "MB/s-"+refName)
	b.ReportMetric(ref.Seconds()/ours.Seconds(), "x-"+refName)
}

// BenchmarkUZ2CompressVsGzip compares .uz2 compression with 2 workers to
// single-threaded gzip -6 on the same input, in the same run.
func BenchmarkUZ2CompressVsGzip(b *testing.B) {
	needTool(b, "/usr/bin/gzip")
	data := benchInput(b)
	file := filepath.Join(b.TempDir(), "in.bin")
	os.WriteFile(file, data, 0o644)
	var ours, ref time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		w := NewWriter2(io.Discard, 2)
		w.Write(data)
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		ours += time.Since(start)
		ref += runTool(b, file, "/usr/bin/gzip", "-6", "-c")
	}
	reportVs(b, len(data), ours, ref, "gzip6")
}

// BenchmarkUZCompressVsBzip2 compares .uz compression to bzip2 -9.
func BenchmarkUZCompressVsBzip2(b *testing.B) {
	needTool(b, "/usr/bin/bzip2")
	data := benchInput(b)
	file := filepath.Join(b.TempDir(), "in.bin")
	os.WriteFile(file, data, 0o644)
	var ours, ref time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		w, _ := NewWriter(io.Discard, "Bench.u", Sig1234)
		w.Write(data)
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		ours += time.Since(start)
		ref += runTool(b, file, "/usr/bin/bzip2", "-9", "-c")
	}
	reportVs(b, len(data), ours, ref, "bzip2-9")
}

// BenchmarkUZDecompressVsBzip2 compares .uz decompression to bzip2 -d.
func BenchmarkUZDecompressVsBzip2(b *testing.B) {
	needTool(b, "/usr/bin/bzip2")
	data := benchInput(b)
	dir := b.TempDir()
	file := filepath.Join(dir, "in.bin")
	os.WriteFile(file, data, 0o644)
	bz, err := exec.Command("/usr/bin/bzip2", "-9", "-c", file).Output()
	if err != nil {
		b.Fatal(err)
	}
	bzFile := filepath.Join(dir, "in.bz2")
	os.WriteFile(bzFile, bz, 0o644)
	var enc bytes.Buffer
	w, _ := NewWriter(&enc, "Bench.u", Sig1234)
	w.Write(data)
	w.Close()
	b.Logf("input %d bytes: .uz %d (%.1f%%), bzip2 -9 %d (%.1f%%)", len(data),
		enc.Len(), 100*float64(enc.Len())/float64(len(data)), len(bz), 100*float64(len(bz))/float64(len(data)))
	var ours, ref time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		r, err := NewReader(bytes.NewReader(enc.Bytes()), 0)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.WriteTo(io.Discard); err != nil {
			b.Fatal(err)
		}
		ours += time.Since(start)
		ref += runTool(b, bzFile, "/usr/bin/bzip2", "-d", "-c")
	}
	reportVs(b, len(data), ours, ref, "bzip2-d")
}

func BenchmarkUZ2Decompress(b *testing.B) {
	data := benchInput(b)
	var enc bytes.Buffer
	w := NewWriter2(&enc, 2)
	w.Write(data)
	w.Close()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := NewReader2(bytes.NewReader(enc.Bytes()), 0).WriteTo(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBWTEncodeBlock(b *testing.B) {
	data := benchInput(b)[:bwtBlockSize]
	var e bwtEncoder
	var dst []byte
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		dst = e.encode(dst[:0], data)
	}
}
