package format

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"testing"
)

func marshalOrFatal(t *testing.T, f *File) []byte {
	t.Helper()
	img, err := Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func wantFormatError(t *testing.T, name string, img []byte, offset int64) {
	t.Helper()
	_, err := NewFile(bytes.NewReader(img), int64(len(img)))
	var fe *FormatError
	if !errors.As(err, &fe) {
		t.Errorf("%s: have %v, want *FormatError", name, err)
		return
	}
	if offset >= 0 && fe.Offset != offset {
		t.Errorf("%s: offset %d, want %d (%v)", name, fe.Offset, offset, err)
	}
}

func put32(img []byte, off int, v int32) []byte {
	out := bytes.Clone(img)
	binary.LittleEndian.PutUint32(out[off:], uint32(v))
	return out
}

// TestTruncated cuts a package at every byte: each cut is an error, never a
// panic, and never a successful parse.
func TestTruncated(t *testing.T) {
	for _, v := range []uint16{61, 64, 69, 128} {
		f := sample(v, 0)
		img := marshalOrFatal(t, f)
		for n := 0; n < len(img); n++ {
			_, err := NewFile(bytes.NewReader(img[:n]), int64(n))
			var fe *FormatError
			switch {
			case n < 4 && errors.Is(err, ErrNotPackage):
			case errors.As(err, &fe):
				if fe.Offset < 0 || fe.Offset > int64(len(img)) {
					t.Errorf("v%d cut at %d: offset %d out of range", v, n, fe.Offset)
				}
			default:
				t.Fatalf("v%d cut at %d: have %v, want *FormatError", v, n, err)
			}
		}
	}
}

func TestMalformed(t *testing.T) {
	base := sample(69, 0)
	img := marshalOrFatal(t, base)
	h := base.Header
	old := sample(61, 0)
	oldImg := marshalOrFatal(t, old)

	wantFormatError(t, "name count larger than the file", put32(img, 12, 1<<30), int64(h.NameOffset))
	wantFormatError(t, "negative name count", put32(img, 12, -5), 12)
	wantFormatError(t, "negative name offset", put32(img, 16, -100), 16)
	wantFormatError(t, "export offset past the end", put32(img, 24, int32(len(img)+10)), 24)
	wantFormatError(t, "import count larger than the file", put32(img, 28, 1<<28), int64(h.ImportOffset))
	wantFormatError(t, "negative import offset", put32(img, 32, -1), 32)
	wantFormatError(t, "generation count larger than the file", put32(img, 52, 1<<30), 52)
	wantFormatError(t, "heritage count larger than the file", put32(oldImg, 36, 1<<30), int64(old.HeritageOffset))

	// A compact index of six bytes in the first import record.
	bad := append(bytes.Clone(img[:h.ImportOffset]), 0x7f, 0xff, 0xff, 0xff, 0x80)
	bad = append(bad, img[h.ImportOffset:]...)
	wantFormatError(t, "compact index longer than 5 bytes", bad, int64(h.ImportOffset))

	mutate := func(name string, change func(f *File), offset func(f *File) int64) {
		f := sample(69, 0)
		marshalOrFatal(t, f) // lay out, then corrupt a copy that keeps the layout
		change(f)
		img := marshalOrFatal(t, f)
		wantFormatError(t, name, img, offset(f))
	}
	importAt := func(f *File) int64 { return int64(f.ImportOffset) }
	exportAt := func(f *File) int64 { return int64(f.ExportOffset) }
	mutate("import name index out of range", func(f *File) { f.Imports[0].ObjectName = 500 }, importAt)
	mutate("negative name index", func(f *File) { f.Imports[0].ClassName = -1 }, importAt)
	mutate("import outer out of range", func(f *File) { f.Imports[0].Outer = ImportRef(300) }, func(f *File) int64 { return int64(f.ImportOffset) + 2 }) // two one-byte name indices first
	mutate("export class out of range", func(f *File) { f.Exports[0].Class = ExportRef(99) }, exportAt)
	mutate("export name out of range", func(f *File) { f.Exports[0].ObjectName = 999 }, exportAt)
	mutate("outer chain loops", func(f *File) {
		f.Imports[0].Outer = ImportRef(1)
		f.Imports[1].Outer = ImportRef(0)
	}, importAt)
	mutate("export outer loops on itself", func(f *File) { f.Exports[2].Outer = ExportRef(2) }, func(f *File) int64 { return -1 })
}

// TestOuterChainsAgree compares checkOuterChains with the plain walk it
// replaced, kept here as the oracle (one walk per unvisited record, in
// table order, through both tables), on random outer links over small
// tables, crossing between imports and exports too: the same verdict and
// the same record named; outerChainsEnd, on tables whose outers stay in
// their table, the same verdict.
func TestOuterChainsAgree(t *testing.T) {
	oracle := func(f *File) string {
		ni := len(f.Imports)
		n := ni + len(f.Exports)
		walk := make([]int32, n)
		for start := range walk {
			if walk[start] != 0 {
				continue
			}
			id := int32(start + 1)
			for cur := start; ; {
				if w := walk[cur]; w != 0 {
					if w != id {
						break
					}
					if cur < ni {
						return formatErr(int64(f.ImportOffset), "outer chain of import %d loops", cur).Error()
					}
					return formatErr(int64(f.ExportOffset), "outer chain of export %d loops", cur-ni).Error()
				}
				walk[cur] = id
				var outer Ref
				if cur < ni {
					outer = f.Imports[cur].Outer
				} else {
					outer = f.Exports[cur-ni].Outer
				}
				if outer.IsNull() {
					break
				}
				if cur = outer.Index(); !outer.IsImport() {
					cur += ni
				}
			}
		}
		return ""
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var sc scratch
	loops := 0
	inTable := 0
	for range 20000 {
		ni, ne := rng.IntN(6), rng.IntN(6)
		// Half the tables as the engine writes them, each record's outer in
		// its own table (outerChainsEnd decides those), some of them long
		// enough for chains of many links.
		same := rng.IntN(2) == 0
		if same && rng.IntN(4) == 0 {
			ni, ne = rng.IntN(70), rng.IntN(70)
		}
		f := &File{Header: Header{ImportOffset: 100, ExportOffset: 200}}
		f.Imports, f.Exports = make([]Import, ni), make([]Export, ne)
		none := rng.IntN(3) // a third of the tables mostly of top-level records, which loop less
		ref := func(lo, hi int) Ref {
			if none == 0 && rng.IntN(2) == 0 || rng.IntN(ni+ne+1) == 0 {
				return 0
			}
			return Ref(lo + rng.IntN(hi-lo+1))
		}
		for i := range f.Imports {
			if f.Imports[i].Outer = ref(-ni, ne); same {
				f.Imports[i].Outer = ref(-ni, 0)
			}
		}
		for i := range f.Exports {
			if f.Exports[i].Outer = ref(-ni, ne); same {
				f.Exports[i].Outer = ref(0, ne)
			}
		}
		if same {
			inTable++
			if want := oracle(f) == ""; f.outerChainsEnd(&sc) != want {
				t.Fatalf("imports %v exports %v: outerChainsEnd %v, want %v", f.Imports, f.Exports, !want, want)
			}
		}
		want := oracle(f)
		have := ""
		if err := f.checkOuterChains(&sc); err != nil {
			have = err.Error()
		}
		if have != want {
			t.Fatalf("imports %v exports %v: have %q, want %q", f.Imports, f.Exports, have, want)
		}
		if want != "" {
			loops++
		}
	}
	t.Logf("%d of 20000 random tables loop; %d with outers in their own table", loops, inTable)
}
