package format

import (
	"os"
	"path/filepath"
	"testing"
)

type benchFile struct {
	path  string
	reads []span
	bytes int64
}

func benchCorpus(b *testing.B) ([]benchFile, int64) {
	var files []benchFile
	var total int64
	for _, p := range corpusPackages(b) {
		_, reads := readSpans(b, p)
		var n int64
		for _, r := range reads {
			n += r.n
		}
		files = append(files, benchFile{p, reads, n})
		total += n
	}
	return files, total
}

// BenchmarkOpen parses every corpus package (header and tables). SetBytes
// counts the table bytes read, so MB/s compares with BenchmarkRawTableRead.
func BenchmarkOpen(b *testing.B) {
	files, total := benchCorpus(b)
	b.SetBytes(total)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, bf := range files {
			f, err := Open(bf.path)
			if err != nil {
				b.Fatal(err)
			}
			f.Close()
		}
	}
}

// BenchmarkReaderOpen is BenchmarkOpen through a Reader, which reuses table
// memory from file to file: the path install-wide scans take.
func BenchmarkReaderOpen(b *testing.B) {
	files, total := benchCorpus(b)
	b.SetBytes(total)
	b.ReportAllocs()
	var rd Reader
	b.ResetTimer()
	for b.Loop() {
		for _, bf := range files {
			if _, err := rd.Open(bf.path); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkRawTableRead is the baseline for BenchmarkOpen: open each file and
// read exactly the byte ranges the parser reads, without parsing.
func BenchmarkRawTableRead(b *testing.B) {
	files, total := benchCorpus(b)
	b.SetBytes(total)
	b.ReportAllocs()
	buf := make([]byte, 1<<20)
	b.ResetTimer()
	for b.Loop() {
		for _, bf := range files {
			fh, err := os.Open(bf.path)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := fh.Stat(); err != nil {
				b.Fatal(err)
			}
			for _, r := range bf.reads {
				var p []byte
				if r.n <= int64(len(buf)) {
					p = buf[:r.n]
				} else {
					p = make([]byte, r.n)
				}
				if _, err := fh.ReadAt(p, r.off); err != nil {
					b.Fatal(err)
				}
			}
			fh.Close()
		}
	}
}

// BenchmarkReaderView is BenchmarkReaderOpen through a View (names decoded
// on access, here none), the path graph's scan takes.
func BenchmarkReaderView(b *testing.B) {
	files, total := benchCorpus(b)
	b.SetBytes(total)
	b.ReportAllocs()
	var rd Reader
	b.ResetTimer()
	for b.Loop() {
		for _, bf := range files {
			if _, err := rd.View(bf.path); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkViewNameAt asks a View for every name of every corpus package,
// the Views read beforehand (one Reader each): the cost of NameAt alone,
// which graph's scan calls for each name an import or export uses.
func BenchmarkViewNameAt(b *testing.B) {
	files, _ := benchCorpus(b)
	views := make([]*View, len(files))
	names := 0
	for i, bf := range files {
		v, err := new(Reader).View(bf.path)
		if err != nil {
			b.Fatal(err)
		}
		views[i], names = v, names+v.NameCount()
	}
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for b.Loop() {
		for _, v := range views {
			for i := range int32(v.NameCount()) {
				n += len(v.NameAt(i))
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(names), "ns/name")
	if n == 0 {
		b.Fatal("no names")
	}
}

// BenchmarkReaderViewIn is BenchmarkReaderView through each package's
// folder held open (Dir, ViewIn): the path graph's scan takes.
func BenchmarkReaderViewIn(b *testing.B) {
	files, total := benchCorpus(b)
	b.SetBytes(total)
	b.ReportAllocs()
	dirs := map[string]*Dir{}
	in := make([]*Dir, len(files)) // each file's folder, as the scan's workers keep them
	for i, bf := range files {
		dir := filepath.Dir(bf.path)
		if dirs[dir] == nil {
			dirs[dir] = OpenDir(dir)
			defer dirs[dir].Close()
		}
		in[i] = dirs[dir]
	}
	var rd Reader
	b.ResetTimer()
	for b.Loop() {
		for i, bf := range files {
			if _, err := rd.ViewIn(in[i], bf.path); err != nil {
				b.Fatal(err)
			}
		}
	}
}
