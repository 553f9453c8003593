package format

import (
	"bytes"
	"os"
	"testing"

	"github.com/upkdeps/upkdeps/internal/testutil"
)

// FuzzNewFile feeds arbitrary bytes to the reader: it must return a File or
// an error, never panic, and a File it returns must resolve every reference.
func FuzzNewFile(f *testing.F) {
	for _, v := range []uint16{60, 61, 63, 64, 68, 69, 100, 128, 129} {
		img, err := Marshal(sample(v, 0))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(img)
	}
	// Every readable layout of the licensee table.
	for _, vl := range readableQuirks() {
		img, err := Marshal(quirkSample(vl[0], vl[1]))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(img)
	}
	for _, p := range corpusSeeds(f) {
		if b, err := os.ReadFile(p); err == nil && len(b) < 64<<10 {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		pf, err := NewFile(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		for i := range pf.Imports {
			r := ImportRef(i)
			pf.ObjectPath(r)
			pf.ClassOf(r)
			pf.ImportPackage(r)
		}
		for i := range pf.Exports {
			r := ExportRef(i)
			pf.ObjectPath(r)
			pf.ClassOf(r)
		}
		pf.Dependencies()
		pf.Flags.Names()
	})
}

// corpusSeeds lists the corpus packages, or nothing when the corpus is absent.
func corpusSeeds(f *testing.F) []string {
	if _, ok := testutil.CorpusDir(); !ok {
		return nil
	}
	return corpusPackages(f)
}
