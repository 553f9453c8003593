package cache

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// benchCache writes a UE1 cache of n entries with files.
func benchCache(b *testing.B, n int) string {
	b.Helper()
	dir := b.TempDir()
	var ini strings.Builder
	ini.WriteString("[Cache]\r\n")
	for i := range n {
		guid := g(uint32(i%15 + 1))
		guid[0] = uint32(i)
		ini.WriteString(fmt.Sprintf("%s=Pkg%d.u\r\n", guid, i))
		writeFile(b, dir, guid.String()+".uxx", pkg(b, false, guid, 1))
	}
	writeFile(b, dir, "cache.ini", []byte(ini.String()))
	return dir
}

func BenchmarkOpen(b *testing.B) {
	dir := benchCache(b, 500)
	b.ResetTimer()
	for b.Loop() {
		if _, err := Open(context.Background(), dir, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkIniParse(b *testing.B) {
	var ini strings.Builder
	ini.WriteString("[Cache]\r\n")
	for i := range 5000 {
		ini.WriteString(fmt.Sprintf("%032X=Package%d.u\r\n", i, i))
	}
	data := []byte(ini.String())
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := parseIniDoc("cache.ini", data); err != nil {
			b.Fatal(err)
		}
	}
}
