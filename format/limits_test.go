package format

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// sparsePackage writes a package whose name table (count at header offset
// 12) claims count records at the end of the real content, and extends the
// file with a hole to size bytes: zero bytes that parse as empty names and
// cost no disk.
func sparsePackage(t *testing.T, count int32, size int64) string {
	t.Helper()
	img := marshalOrFatal(t, sample(69, 0))
	img = put32(img, 12, count)
	img = put32(img, 16, int32(len(img)))
	p := filepath.Join(t.TempDir(), "Sparse.u")
	if err := os.WriteFile(p, img, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(p, size); err != nil {
		t.Skipf("cannot make a %d-byte sparse file here: %v", size, err)
	}
	return p
}

// measure runs fn and returns how long it took and how many bytes it
// allocated.
func measure(fn func()) (time.Duration, uint64) {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	fn()
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	return took, after.TotalAlloc - before.TotalAlloc
}

// TestTableLimits is the hostile tester's sparse file: a header claiming
// 2^31-1 names (and one claiming one name over the limit) over gigabytes of
// zero bytes is a *FormatError naming the table, the count and the limit,
// found at once, without reading or allocating the table.
func TestTableLimits(t *testing.T) {
	if testing.Short() && runtime.GOOS == "windows" {
		t.Skip("sparse files")
	}
	tests := []struct {
		name  string
		count int32
		size  int64
		want  string
	}{
		{"2^31-1 names in 12 GiB", 0x7FFFFFFF, 12 << 30, "name count 2147483647 is over the limit of 1048576"},
		{"limit+1 names", MaxNames + 1, 64 << 20, "name count 1048577 is over the limit of 1048576"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := sparsePackage(t, tt.count, tt.size)
			var err error
			took, alloc := measure(func() {
				var f *File
				f, err = Open(p)
				if err == nil {
					f.Close()
				}
			})
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("have %v, want *FormatError", err)
			}
			if fe.Offset != 12 || !strings.Contains(fe.Msg, tt.want) {
				t.Errorf("have offset %d %q, want offset 12 and %q", fe.Offset, fe.Msg, tt.want)
			}
			if took > time.Second || alloc > 50<<20 {
				t.Errorf("refusing took %v and %d bytes, want under 1 s and 50 MB", took, alloc)
			}
		})
	}
}

// TestTableAtLimit reads a table of exactly MaxNames empty names, the
// largest a package may claim: it parses, and costs a small multiple of the
// table's own bytes (5 per record) in time and memory.
func TestTableAtLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("reads a million names")
	}
	p := sparsePackage(t, MaxNames, 64<<20)
	var f *File
	var err error
	took, alloc := measure(func() { f, err = Open(p) })
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	t.Logf("%d names: %v, %d bytes allocated", len(f.Names), took, alloc)
	if len(f.Names) != MaxNames {
		t.Errorf("have %d names, want %d", len(f.Names), MaxNames)
	}
	// Name is 24 bytes on 64-bit machines against 5 in the file; append
	// doubles: about 15 times the table's bytes. The time bound catches a
	// read that grows faster than the table (a quadratic one takes hours),
	// not a slow machine: under -race at a load of 16 the read took 5-8 s
	// against about 1.
	if tableBytes := uint64(MaxNames * minNameRecord); alloc > 20*tableBytes || took > time.Minute {
		t.Errorf("a %d-byte table cost %v and %d bytes", tableBytes, took, alloc)
	}
}

// TestLimitsOtherTables checks every limit's message and offset.
func TestLimitsOtherTables(t *testing.T) {
	img := marshalOrFatal(t, sample(69, 0))
	oldImg := marshalOrFatal(t, sample(61, 0))
	tests := []struct {
		name   string
		img    []byte
		offset int64
		want   string
	}{
		{"imports", put32(img, 28, MaxImports+1), 28, "import count 1048577 is over the limit of 1048576"},
		{"exports", put32(img, 20, MaxExports+1), 20, "export count 1048577 is over the limit of 1048576"},
		{"generations", put32(img, 52, MaxGenerations+1), 52, "generation count 65537 is over the limit of 65536"},
		{"heritage", put32(oldImg, 36, MaxHeritage+1), 36, "heritage count 65537 is over the limit of 65536"},
	}
	for _, tt := range tests {
		// Pad the image so that the count fits in the file: only the
		// limit refuses it.
		padded := append(tt.img, make([]byte, 40*(MaxImports+2))...)
		_, err := NewFile(bytes.NewReader(padded), int64(len(padded)))
		var fe *FormatError
		if !errors.As(err, &fe) || fe.Offset != tt.offset || !strings.Contains(fe.Msg, tt.want) {
			t.Errorf("%s: have %v, want offset %d and %q", tt.name, err, tt.offset, tt.want)
		}
	}
}

// TestRealSizedTables reads a package with tables the size of a big map's.
func TestRealSizedTables(t *testing.T) {
	b := NewBuilder(128, 29)
	b.File.GUID = GUID{9}
	cls := b.ImportPath("Engine.StaticMesh", "Core", "Class")
	for i := 0; i < 20000; i++ {
		b.ImportPath("Pkg"+strconv.Itoa(i%200)+".Mesh"+strconv.Itoa(i), "Engine", "StaticMesh")
	}
	for i := 0; i < 60000; i++ {
		b.Export(0, "Actor"+strconv.Itoa(i), cls, 0, 0)
	}
	img := marshalOrFatal(t, b.File)
	f, err := NewFile(bytes.NewReader(img), int64(len(img)))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Exports) != 60000 || len(f.Imports) < 20000 || len(f.Names) < 80000 {
		t.Errorf("have %d names, %d imports, %d exports", len(f.Names), len(f.Imports), len(f.Exports))
	}
	if have := f.ObjectPath(ExportRef(59999)); have != "Actor59999" {
		t.Errorf("last export: have %q", have)
	}
}
