package redirect

import (
	"os"
	"path/filepath"
	"testing"
)

// mapBytes is the total size of the published packages of m.
func mapBytes(m *Map) int64 {
	var n int64
	for _, e := range m.Published() {
		n += e.Size
	}
	return n
}

// BenchmarkBuild compresses the mod server's five packages (about 420 KB)
// from scratch, two at a time.
func BenchmarkBuild(b *testing.B) {
	for _, gen := range []int{1, 2} {
		b.Run(map[int]string{1: "uz", 2: "uz2"}[gen], func(b *testing.B) {
			m := modServer(b, gen).mapOf(b, MapOptions{})
			b.SetBytes(mapBytes(m))
			dir := b.TempDir()
			for i := 0; b.Loop(); i++ {
				build(b, m, BuildOptions{Out: filepath.Join(dir, string(rune('a'+i%26))), Force: true, Jobs: 2})
			}
		})
	}
}

// BenchmarkVerify decompresses and compares the same folder.
func BenchmarkVerify(b *testing.B) {
	for _, gen := range []int{1, 2} {
		b.Run(map[int]string{1: "uz", 2: "uz2"}[gen], func(b *testing.B) {
			m := modServer(b, gen).mapOf(b, MapOptions{})
			out := b.TempDir()
			build(b, m, BuildOptions{Out: out, Jobs: 2})
			b.SetBytes(mapBytes(m))
			for b.Loop() {
				verify(b, m, out)
			}
		})
	}
}

// BenchmarkBuildNothingToDo is a rebuild where manifest.json vouches for
// every file: it reads the compressed files, never the packages.
func BenchmarkBuildNothingToDo(b *testing.B) {
	m := modServer(b, 1).mapOf(b, MapOptions{})
	out := b.TempDir()
	build(b, m, BuildOptions{Out: out, Jobs: 2})
	b.SetBytes(mapBytes(m))
	for b.Loop() {
		build(b, m, BuildOptions{Out: out, Jobs: 2})
	}
	os.RemoveAll(out)
}
