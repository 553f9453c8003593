package format

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/upkdeps/upkdeps/internal/testutil"
)

// compareRecords decodes the record at b[p:] with the fast decoder and the
// careful one and reports where they disagree: the fast one must accept
// exactly the records the careful one accepts when the buffer holds a
// whole record, with the same values and the same length.
func compareRecords(t *testing.T, what string, b []byte, p int, limits [3]int32, size int64) {
	t.Helper()
	d := &decoder{b: b, pos: p, names: limits[0], imports: limits[1], exports: limits[2]}
	if what == "import" {
		var fast Import
		next, fok := fastImport(&fast, b, p, &limits)
		careful, cok := d.stdImport()
		if fok != cok || (fok && (fast != careful || next != d.pos)) {
			t.Errorf("import at %d of % x: fast %+v next %d ok %v; careful %+v next %d ok %v (%v)",
				p, b[p:min(len(b), p+maxImportRecord)], fast, next, fok, careful, d.pos, cok, d.err)
		}
		return
	}
	var fast Export
	next, fok := fastExport(&fast, b, p, &limits, size)
	careful, cok := d.stdExport(size)
	if fok != cok || (fok && (fast != careful || next != d.pos)) {
		t.Errorf("export at %d of % x: fast %+v next %d ok %v; careful %+v next %d ok %v (%v)",
			p, b[p:min(len(b), p+maxExportRecord)], fast, next, fok, careful, d.pos, cok, d.err)
	}
}

// padded returns b with room for the fast decoders' window after its end,
// so that they never decline for want of bytes.
func padded(b []byte) []byte {
	return append(b[:len(b):len(b)], make([]byte, recordWindow)...)
}

// TestRecordDecodersAgree runs both record decoders over every import and
// export of every corpus package (and of generated ones without it).
func TestRecordDecodersAgree(t *testing.T) {
	var files []string
	dir := t.TempDir()
	for i, v := range []uint16{61, 64, 69, 100, 128} {
		p := filepath.Join(dir, "gen"+string(rune('a'+i))+".u")
		if err := WriteFile(p, sample(v, 0)); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	if c, ok := testutil.CorpusDir(); ok {
		_ = filepath.WalkDir(c, func(path string, e os.DirEntry, err error) error {
			if err == nil && !e.IsDir() {
				files = append(files, path)
			}
			return nil
		})
	}
	records := 0
	for _, path := range files {
		f, err := Open(path)
		if err != nil || !layoutOf(f.Version, f.Licensee).IsStandard() {
			if err == nil {
				f.Close()
			}
			continue
		}
		data, err := os.ReadFile(path)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		limits := [3]int32{f.NameCount, f.ImportCount, f.ExportCount}
		for _, tbl := range []struct {
			what  string
			off   int32
			count int32
		}{{"import", f.ImportOffset, f.ImportCount}, {"export", f.ExportOffset, f.ExportCount}} {
			b := padded(data[tbl.off:])
			p := 0
			for i := int32(0); i < tbl.count; i++ {
				compareRecords(t, tbl.what, b, p, limits, int64(len(data)))
				d := &decoder{b: b, pos: p, names: limits[0], imports: limits[1], exports: limits[2]}
				if tbl.what == "import" {
					d.stdImport()
				} else {
					d.stdExport(int64(len(data)))
				}
				p = d.pos
				records++
			}
		}
		if f.Version >= 64 {
			b, p := data[f.NameOffset:], 0
			for i := int32(0); i < f.NameCount; i++ {
				compareNames(t, b, p)
				d := &decoder{b: b, pos: p}
				d.fstring()
				d.u32()
				p = d.pos
				records++
			}
		}
	}
	if records == 0 {
		t.Fatal("no records compared")
	}
	t.Logf("%d records of %d files compared", records, len(files))
}

// FuzzRecordDecoders feeds arbitrary records to both decoders.
func FuzzRecordDecoders(f *testing.F) {
	le := func(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
	f.Add(append([]byte{1, 2}, append(le(0xFFFFFFFF), 3)...), int32(10), int32(5), int32(5), int64(1000))
	f.Add(append([]byte{4, 'C', 'o', 'r', 0}, le(0x70010)...), int32(1), int32(0), int32(0), int64(0))
	f.Add([]byte{0x40, 0x80, 0x80, 0x80, 0x01, 0x02, 0, 0, 0, 0, 4, 0, 0, 0, 7, 0x10, 0x20}, int32(100), int32(3), int32(9), int64(1<<20))
	f.Fuzz(func(t *testing.T, b []byte, names, imports, exports int32, size int64) {
		if names < 0 || imports < 0 || exports < 0 || size < 0 {
			return
		}
		limits := [3]int32{names, imports, exports}
		compareRecords(t, "import", padded(b), 0, limits, size)
		compareRecords(t, "export", padded(b), 0, limits, size)
		compareNames(t, b, 0)
		compareNameOffsets(t, b, int(names&0xff))
	})
}

// compareNames decodes the name record at b[p:] with bulkNames (rawName,
// then converting the text when it is not plain ASCII) and with the
// careful path: when rawName accepts it, both must give the same text,
// flags and length.
func compareNames(t *testing.T, b []byte, p int) {
	t.Helper()
	all, ends, fls, next, k := bulkNames(nil, nil, nil, 1, b, p, 1)
	if k == 0 {
		return
	}
	text, flags := nameAt(all, ends, 0), fls[0]
	d := &decoder{b: b, pos: p}
	raw, wide := d.fstring()
	cflags := d.u32()
	if d.failed() || string(appendText(nil, raw, wide)) != string(text) || cflags != flags || d.pos != next {
		t.Errorf("name at %d of % x: fast %q %#x next %d; careful %q %#x next %d (%v)",
			p, b[p:next], text, flags, next, appendText(nil, raw, wide), cflags, d.pos, d.err)
	}
}

func TestPlainASCII(t *testing.T) {
	for n := range 20 {
		s := make([]byte, n)
		for i := range s {
			s[i] = 'a'
		}
		if !plainASCII(s) {
			t.Fatalf("%q: not plain", s)
		}
		for i := range s {
			for _, c := range []byte{0, 0x80, 0xff, 0x7f, 1} {
				old := s[i]
				s[i] = c
				want := c >= 1 && c <= 0x7f
				if plainASCII(s) != want {
					t.Errorf("%q: have %v, want %v", s, !want, want)
				}
				s[i] = old
			}
		}
	}
}

// TestPlain32 compares plain32 with plainASCII on names of every
// one-byte length with each byte in turn made a NUL, a byte of 0x80 or
// more, or a borderline plain one, followed by bytes (flags, the next
// record) that would fail the test were they read as text.
func TestPlain32(t *testing.T) {
	for n := range nameWindow - 5 {
		for _, after := range []byte{0, 0x80, 0xff} {
			var a [nameWindow]byte
			a[0] = byte(n + 1)
			for i := range n {
				a[1+i] = 'a' + byte(i%26)
			}
			for i := 1 + n; i < len(a); i++ {
				a[i] = after
			}
			a[1+n] = 0 // the NUL
			if !plain32(&a, n) {
				t.Fatalf("%d bytes, then %#x: not plain", n, after)
			}
			for i := range n {
				for _, c := range []byte{0, 0x80, 0xff, 0x7f, 1} {
					old := a[1+i]
					a[1+i] = c
					if have, want := plain32(&a, n), plainASCII(a[1:1+min(n, 32)]); have != want {
						t.Errorf("% x (%d bytes): have %v, want %v", a[:2+n], n, have, want)
					}
					a[1+i] = old
				}
			}
		}
	}
}

// TestFastIndexAgrees compares the fast compact-index decoding (shortIndex,
// then fastIndexLong for a longer index; shortCount) with the careful decoder on every
// first byte, each followed by continuation bytes that stop the index at
// each length and by fifth bytes at and around the 32-bit limit: the same
// value and length, or badIndex exactly where the careful one fails.
func TestFastIndexAgrees(t *testing.T) {
	tails := [][]byte{
		{0x01}, {0x7f}, {0x80, 0x01}, {0xff, 0x7f}, {0x80, 0x80, 0x00}, {0xff, 0xff, 0x7f},
		{0x80, 0x80, 0x80, 0x00}, {0xff, 0xff, 0xff, 0x0f}, {0xff, 0xff, 0xff, 0x10},
		{0xff, 0xff, 0xff, 0x80}, {0x81, 0x82, 0x83, 0xff},
	}
	n := 0
	for c := range 256 {
		for _, tail := range tails {
			b := append([]byte{byte(c)}, tail...)
			b = append(b, make([]byte, 5)...)
			d := &decoder{b: b}
			want := d.index()
			// shortCount: the same for a non-negative index of up to three
			// bytes, declined (n = 0) for any other.
			u, cn := shortCount(binary.LittleEndian.Uint32(b))
			plain := d.err == nil && c&0x80 == 0 && d.pos <= 3
			if plain != (cn != 0) || cn != 0 && (int32(u) != want || cn != d.pos) {
				t.Errorf("% x: careful %d (%d bytes, %v), shortCount %d (%d bytes)", b[:5], want, d.pos, d.err, u, cn)
			}
			have, next := shortIndex(binary.LittleEndian.Uint32(b))
			if next == 0 {
				have, next = fastIndexLong(b, 0)
			}
			switch {
			case d.err != nil:
				if have != badIndex {
					t.Errorf("% x: careful %v, fast %d", b[:5], d.err, have)
				}
			case have != want || next != d.pos:
				t.Errorf("% x: careful %d (%d bytes), fast %d (%d bytes)", b[:5], want, d.pos, have, next)
			}
			n++
		}
	}
	t.Logf("%d indices compared", n)
}

// TestRecordIndexLengths compares the fast record decoders with the careful
// ones on records whose compact indices take every length from one to five
// bytes, each field in turn and all at once, in range and out, and with a
// malformed fifth byte: a field after a long index is where the fast
// decoders must not read it from the offset a short one would leave.
func TestRecordIndexLengths(t *testing.T) {
	// One value per encoded length, and its negation.
	lengths := []int32{5, 100, 10000, 2000000, 300000000}
	const big = 1 << 30
	limits := [3]int32{big, big, big}
	size := int64(1) << 40
	rec := func(vals []int32, export bool) []byte {
		e := &encoder{}
		e.index(vals[0])
		e.index(vals[1])
		e.u32(uint32(vals[2]))
		e.index(vals[3])
		if export {
			e.u32(0x70004)
			e.index(vals[4])
			if vals[4] > 0 {
				e.index(vals[5])
			}
		}
		return e.b
	}
	n := 0
	try := func(vals []int32) {
		for _, export := range []bool{false, true} {
			b := rec(vals, export)
			what := "import"
			if export {
				what = "export"
			}
			for _, lim := range [][3]int32{limits, {lengths[2], lengths[2], lengths[2]}} {
				compareRecords(t, what, padded(b), 0, lim, size)
				compareRecords(t, what, padded(b), 0, lim, int64(lengths[3]))
			}
			// A malformed fifth byte in the last index.
			if len(b) >= 5 && b[len(b)-1]&0x80 == 0 && b[len(b)-2]&0x80 != 0 {
				m := append([]byte(nil), b...)
				m[len(m)-1] |= 0x10
				compareRecords(t, what, padded(m), 0, limits, size)
			}
			n++
		}
	}
	// Field indices: 0, 1, 3 (names or refs), 4, 5 (serial size, offset);
	// 2 is the int32 outer.
	fields := []int{0, 1, 3, 4, 5}
	for _, f := range fields {
		for _, v := range lengths {
			for _, sign := range []int32{1, -1} {
				vals := []int32{1, 2, -1, 3, 7, 9}
				vals[f] = sign * v
				try(vals)
			}
		}
	}
	for _, v := range lengths {
		try([]int32{v, v, 0, v, v, v})
		try([]int32{-v, -v, 0, v, v, v})
	}
	t.Logf("%d records compared", n)
}

// compareNameOffsets runs bulkNameOffsets over b and a loop of rawName,
// which it must agree with: the same records, offsets, flags and end.
func compareNameOffsets(t *testing.T, b []byte, left int) {
	t.Helper()
	var wantOffs []int32
	var wantFlags []uint32
	p, wantConv := 0, 0
	for len(wantOffs) < left {
		text, fl, next, ok := rawName(b, p)
		if !ok {
			break
		}
		o := int32(p)
		if !plainASCII(text) {
			o, wantConv = ^o, wantConv+1
		}
		wantOffs, wantFlags = append(wantOffs, o), append(wantFlags, fl)
		p = next
	}
	// Small slices, so that the loop also grows them on the way.
	offs, flags, next, k, conv := bulkNameOffsets(make([]int32, 0, 1), nil, left, b, 0, left)
	if k != len(wantOffs) || next != p || conv != wantConv || !slices.Equal(offs, wantOffs) || !slices.Equal(flags, wantFlags) {
		t.Errorf("% x (%d records): bulkNameOffsets %v %v next %d k %d conv %d; rawName %v %v next %d conv %d",
			b[:min(len(b), 64)], left, offs, flags, next, k, conv, wantOffs, wantFlags, p, wantConv)
	}
}

// TestNameOffsetsAgree compares bulkNameOffsets with rawName on tables of
// names of every one-byte length, each cut short at every byte, with a
// record rawName declines (no NUL, a two-byte length, an empty one) at the
// end or inside.
func TestNameOffsetsAgree(t *testing.T) {
	rec := func(n int, last byte) []byte {
		r := []byte{byte(n)}
		for i := 1; i < n; i++ {
			r = append(r, 'a'+byte(i%26))
		}
		if n > 2 && n%4 == 0 {
			r[n/2] = 0xe9 // Latin-1 in some names, marked
		} else if n > 2 && n%5 == 0 {
			r[n-2] = 0 // a NUL inside, marked
		}
		if n > 0 {
			r = append(r, last)
		}
		return append(r, 0x10, 0, 7, 0)
	}
	n := 0
	for _, bad := range [][]byte{nil, rec(5, 'x'), {0x41, 0x01, 'a', 0}, rec(0, 0), rec(63, 0), rec(200, 0)} {
		var b []byte
		for l := 1; l < 63; l += 3 {
			b = append(b, rec(l, 0)...)
		}
		b = append(b, bad...)
		for range 5 { // past the bad record the longest window it may be read in
			b = append(b, rec(20, 0)...)
		}
		for cut := len(b); cut >= 0; cut -= 7 {
			for _, left := range []int{0, 1, 5, 22, 23, 100} {
				compareNameOffsets(t, b[:cut], left)
				n++
			}
		}
	}
	t.Logf("%d tables compared", n)
}
