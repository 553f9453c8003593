package format

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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

// TestOpenScratchPooled checks what Open keeps once its scratch memory
// goes back to the pool: a File's names, tables and header stay its own
// while other Files are read, from other goroutines too (run it with
// -race), with the pooled memory reused under them.
func TestOpenScratchPooled(t *testing.T) {
	dir := t.TempDir()
	const files = 8
	paths := make([]string, files)
	for i := range paths {
		b := NewBuilder(69, 0)
		actor := b.ImportPath("Engine.Actor", "Core", "Class")
		for j := range 20 + 10*i {
			b.Export(0, fmt.Sprintf("Obj%d_%d", i, j), 0, actor, 10)
		}
		paths[i] = filepath.Join(dir, fmt.Sprintf("P%d.u", i))
		if err := WriteFile(paths[i], b.File); err != nil {
			t.Fatal(err)
		}
	}
	first, err := Open(paths[files-1]) // the largest: the others fit in memory it would have held

	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	var want []string // copies: first's names alias its own memory
	for _, n := range first.Names {
		want = append(want, strings.Clone(n.Name))
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 50 {
				i := (g + k) % (files - 1)
				f, err := Open(paths[i])
				if err != nil {
					t.Error(err)
					return
				}
				if name := f.ObjectName(ExportRef(len(f.Exports) - 1)); name != fmt.Sprintf("Obj%d_%d", i, 20+10*i-1) {
					t.Errorf("%s: last export %q", paths[i], name)
				}
				f.Close()
			}
		}()
	}
	wg.Wait()
	for i, n := range first.Names {
		if n.Name != want[i] {
			t.Errorf("name %d of the first File changed to %q (was %q) while others were read", i, n.Name, want[i])
		}
	}
}

// TestNameTableRead checks the read of a name table that lies before the
// import table against the bound computed from the decoded exports: it
// ends at the least serial offset after the table's start (of an export
// with serial data), or at the import table. The export decoders note
// that offset as they go (serialLow); here it is found again by a scan.
func TestNameTableRead(t *testing.T) {
	var paths []string
	dir := t.TempDir()
	for i, v := range []uint16{69, 100, 128} {
		p := filepath.Join(dir, "gen"+string(rune('a'+i))+".u")
		if err := WriteFile(p, sample(v, 0)); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	if _, ok := testutil.CorpusDir(); ok {
		paths = append(paths, corpusPackages(t)...)
	}
	checked := 0
	for _, path := range paths {
		f, reads := readSpans(t, path)
		names, imp := int64(f.NameOffset), int64(f.ImportOffset)
		if f.NameCount <= 0 || names <= 0 || names >= imp {
			continue
		}
		end := imp
		for _, ex := range f.Exports {
			if off := int64(ex.SerialOffset); ex.SerialSize > 0 && off >= names {
				end = min(end, off)
			}
		}
		ahead := false // the import and export tables read at once
		for _, r := range reads {
			ahead = ahead || r.off == imp && r.n > int64(f.ImportCount)*maxImportRecord
		}
		for _, r := range reads {
			if r.off != names {
				continue
			}
			if r.n > end-names {
				t.Errorf("%s: name table read [%d,%d), past the bound %d", path, r.off, r.off+r.n, end)
			}
			if ahead && r.n != end-names {
				t.Errorf("%s: name table read [%d,%d) after the tables were read ahead, want it to end at %d", path, r.off, r.off+r.n, end)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no name table read checked")
	}
	t.Logf("%d name table reads checked", checked)
}
