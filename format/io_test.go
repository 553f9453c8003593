package format

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/upkdeps/upkdeps/internal/testutil"
)

// span is one ReadAt call.
type span struct{ off, n int64 }

// recordingReader remembers every range read through it.
type recordingReader struct {
	r     io.ReaderAt
	mu    sync.Mutex
	reads []span
}

func (rr *recordingReader) ReadAt(p []byte, off int64) (int, error) {
	rr.mu.Lock()
	rr.reads = append(rr.reads, span{off, int64(len(p))})
	rr.mu.Unlock()
	return rr.r.ReadAt(p, off)
}

// corpusPackages lists the readable packages of the corpus (skips when absent).
func corpusPackages(t testing.TB) []string {
	dir := testutil.Corpus(t)
	var paths []string
	for _, e := range readManifest(t) {
		if isPackageMagic(e.magic) && e.version < 178 {
			paths = append(paths, filepath.Join(dir, filepath.FromSlash(e.path)))
		}
	}
	return paths
}

// readSpans parses path through a recordingReader and returns the file and
// the ranges read.
func readSpans(t testing.TB, path string) (*File, []span) {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	st, _ := fh.Stat()
	rr := &recordingReader{r: fh}
	f, err := NewFile(rr, st.Size())
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return f, rr.reads
}

// TestReadsOnlyTables proves the reader never touches serial data: no read
// overlaps any export's serial bytes.
func TestReadsOnlyTables(t *testing.T) {
	check := func(name string, f *File, reads []span) {
		var total int64
		for _, r := range reads {
			total += r.n
			for i, ex := range f.Exports {
				if ex.SerialSize <= 0 {
					continue
				}
				lo, hi := int64(ex.SerialOffset), int64(ex.SerialOffset)+int64(ex.SerialSize)
				if r.off < hi && lo < r.off+r.n {
					t.Errorf("%s: read [%d,%d) overlaps serial data of export %d [%d,%d)", name, r.off, r.off+r.n, i, lo, hi)
				}
			}
		}
		if len(f.Exports) > 0 && total == 0 {
			t.Errorf("%s: no reads recorded", name)
		}
	}
	for _, vl := range [][2]uint16{{61, 0}, {69, 0}, {128, 0}, {100, 120}, {95, 69}, {151, 0}, {159, 1}, {159, 29}} {
		path := filepath.Join(t.TempDir(), "Gen.u")
		if err := WriteFile(path, quirkSample(vl[0], vl[1])); err != nil {
			t.Fatal(err)
		}
		f, reads := readSpans(t, path)
		check(path, f, reads)
	}
	for _, path := range corpusPackages(t) {
		f, reads := readSpans(t, path)
		check(path, f, reads)
	}
}

// TestTableReads counts the reads of an engine-style UE1 package (names
// after the header, object data, then the import and export tables up to
// the end of the file): one for the header, one for the import and export
// tables together, one for the name table, however long the tables are.
func TestTableReads(t *testing.T) {
	for _, n := range []int{1, 50, 3000} {
		b := NewBuilder(69, 0)
		tex := b.ImportPath("Engine.Texture", "Core", "Class")
		for i := range n {
			b.Export(b.ExportGroup(0, "Group"+itoa(i%7)), "Texture"+itoa(i), tex, 0, int32(100+i))
			b.ImportPath("Other"+itoa(i%13)+".Grp.Obj"+itoa(i), "Engine", "Sound")
		}
		path := filepath.Join(t.TempDir(), "Gen.utx")
		if err := WriteFile(path, b.File); err != nil {
			t.Fatal(err)
		}
		f, reads := readSpans(t, path)
		if len(reads) != 3 {
			t.Errorf("%d exports: %d reads %v, want 3", n, len(reads), reads)
		}
		if len(f.Exports) != len(b.File.Exports) || len(f.Imports) != len(b.File.Imports) || len(f.Names) != len(b.File.Names) {
			t.Errorf("%d exports: tables %d/%d/%d, want %d/%d/%d", n, len(f.Names), len(f.Imports), len(f.Exports),
				len(b.File.Names), len(b.File.Imports), len(b.File.Exports))
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
