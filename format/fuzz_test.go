package format

import (
	"bytes"
	"os"
	"strconv"
	"testing"

	"github.com/upkdeps/upkdeps/internal/testutil"
)

// FuzzNewFile feeds arbitrary bytes to the reader: it must return a File or
// an error, never panic, and a File it returns must resolve every reference.
func FuzzNewFile(f *testing.F) {
	for _, img := range fuzzSeeds(f) {
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
		if b, err := os.ReadFile(p); err == nil && len(b) <= 16<<10 { // small: minimising a find costs time in proportion to its size
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

// fuzzSeeds generates the seeds FuzzNewFile starts from without the
// corpus: packages of every layout from our own writer, a larger one, and
// hostile variants of their headers (every count at -1, at and over its
// limit and at 2^31-1, every offset at the edges of the file, cuts at the
// header and each table, a name table claimed over zero bytes). With them
// the fuzzer mutates real structure from the first execution instead of
// spending minutes discovering and minimising the layout.
func fuzzSeeds(f *testing.F) [][]byte {
	var seeds [][]byte
	add := func(img []byte) { seeds = append(seeds, img) }
	type layout struct {
		version, licensee uint16
		tag               uint32
	}
	var bases []*File
	for _, l := range []layout{
		{60, 0, Tag}, {61, 0, Tag}, {63, 0, Tag}, {64, 0, Tag}, {66, 0, Tag}, {68, 0, Tag}, {69, 0, Tag},
		{100, 0, Tag}, {119, 25, Tag}, {128, 29, Tag}, {128, 29, TagKF}, {129, 27, Tag},
	} {
		pf := sample(l.version, l.licensee)
		pf.Tag = l.tag
		bases = append(bases, pf)
	}
	big := NewBuilder(69, 0)
	cls := big.ImportPath("Engine.Texture", "Core", "Class")
	for i := 0; i < 60; i++ {
		grp := big.ExportGroup(0, "G"+strconv.Itoa(i%5))
		big.Export(grp, "T"+strconv.Itoa(i), cls, 0, 8)
		big.ImportPath("Pkg"+strconv.Itoa(i%7)+".Obj"+strconv.Itoa(i), "Engine", "Sound")
	}
	bases = append(bases, big.File)
	for _, pf := range bases {
		img, err := Marshal(pf)
		if err != nil {
			f.Fatal(err)
		}
		add(img)
	}
	for _, pf := range []*File{bases[0], bases[5], bases[8]} { // 61, 69, 128
		img, _ := Marshal(pf)
		h := pf.Header
		counts := map[int]int32{12: MaxNames, 20: MaxExports, 28: MaxImports}
		if pf.HasHeritage() {
			counts[36] = MaxHeritage
		} else {
			counts[52] = MaxGenerations
		}
		for off, limit := range counts {
			for _, v := range []int32{-1, 0, 1, limit, limit + 1, 0x7FFFFFFF} {
				add(put32(img, off, v))
			}
		}
		for _, off := range []int{16, 24, 32} {
			for _, v := range []int32{-1, 0, fixedHeaderSize, int32(len(img)) - 1, int32(len(img))} {
				add(put32(img, off, v))
			}
		}
		for _, cut := range []int32{fixedHeaderSize, h.NameOffset, h.ImportOffset, h.ExportOffset, int32(len(img)) - 1} {
			if cut > 0 && int(cut) <= len(img) {
				add(img[:cut])
			}
		}
		zeros := append(bytes.Clone(img), make([]byte, 4096)...)
		zeros = put32(zeros, 12, 800)
		add(put32(zeros, 16, int32(len(img))))
	}
	return seeds
}
