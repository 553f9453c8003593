package format

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// quirkSample builds the sample package in the layout of q at the given
// version and licensee, leaving out names the layout cannot store.
func quirkSample(version, licensee uint16) *File {
	f := sample(version, licensee)
	switch layoutOf(version, licensee).Names {
	case NameByteLen, NameU16Len:
		f.Names = f.Names[:len(f.Names)-1] // 名前 needs UTF-16
	}
	return f
}

// readableQuirks returns a version/licensee pair at both ends of every
// readable row of Quirks.
func readableQuirks() [][2]uint16 {
	var out [][2]uint16
	for _, q := range Quirks {
		if q.Unsupported != "" {
			continue
		}
		out = append(out, [2]uint16{q.MinVersion, q.MinLicensee}, [2]uint16{q.MaxVersion, q.MaxLicensee})
	}
	return out
}

// TestQuirkRoundTrip writes the sample package in the layout of every
// readable row of the licensee table and reads it back to the same names,
// imports and exports; the file names the row's game.
func TestQuirkRoundTrip(t *testing.T) {
	for _, vl := range readableQuirks() {
		v, l := vl[0], vl[1]
		q := LookupQuirk(v, l)
		f := quirkSample(v, l)
		f.FlagsPrefix = 0
		if q.Layout.FlagsPrefix {
			f.FlagsPrefix = 0xDEADBEEF
		}
		img, err := Marshal(f)
		if err != nil {
			t.Fatalf("%d/%d (%s): Marshal: %v", v, l, q.Game, err)
		}
		g, err := NewFile(bytes.NewReader(img), int64(len(img)))
		if err != nil {
			t.Fatalf("%d/%d (%s): NewFile: %v", v, l, q.Game, err)
		}
		if !reflect.DeepEqual(f, g) {
			t.Errorf("%d/%d (%s): round trip differs:\\nwrote %+v\\nread  %+v", v, l, q.Game, f, g)
		}
		if g.Game() != q.Game {
			t.Errorf("%d/%d: Game() = %q, want %q", v, l, g.Game(), q.Game)
		}
	}
}

// TestQuirkLayoutsDiffer checks that every non-standard layout really
// writes different bytes than the standard one, and that the standard
// reader does not read them as the same tables: the fixtures exercise the
// quirk, not the standard path.
func TestQuirkLayoutsDiffer(t *testing.T) {
	for _, q := range Quirks {
		if q.Unsupported != "" || q.Layout.IsStandard() {
			continue
		}
		f := quirkSample(q.MinVersion, q.MinLicensee)
		img, err := Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		std := quirkSample(100, 0)
		std.Names = f.Names
		stdImg, err := Marshal(std)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Equal(img[8:], stdImg[8:]) {
			t.Errorf("%s: layout %+v writes the standard bytes", q.Game, q.Layout)
		}
	}
}

func TestSplinterCellMagic(t *testing.T) {
	// With the magic and a byte array before the GUID.
	f := quirkSample(100, 12)
	f.GUIDPrefix = binary.LittleEndian.AppendUint32(nil, scMagic)
	f.GUIDPrefix = append(f.GUIDPrefix, 3, 'a', 'b', 'c')
	img := marshalOrFatal(t, f)
	g, err := NewFile(bytes.NewReader(img), int64(len(img)))
	if err != nil || !reflect.DeepEqual(f, g) {
		t.Fatalf("with magic: %v, equal %v", err, err == nil && reflect.DeepEqual(f, g))
	}
	if g.Game() != "Tom Clancy's Splinter Cell" {
		t.Errorf("Game() = %q", g.Game())
	}
	// Without the magic the header is the standard one.
	std := quirkSample(100, 0)
	img = marshalOrFatal(t, std)
	binary.LittleEndian.PutUint16(img[6:], 12)
	g, err = NewFile(bytes.NewReader(img), int64(len(img)))
	if err != nil || g.GUID != std.GUID || g.GUIDPrefix != nil || len(g.Exports) != len(std.Exports) {
		t.Fatalf("without magic: %v %+v", err, g)
	}
	// An array longer than the limit.
	bad := bytes.Clone(marshalOrFatal(t, quirkSample(100, 12)))
	at := 12 + 24 + 4 // magic after the table offsets
	var e encoder
	e.index(maxSCArray + 1)
	copy(bad[at:], e.b)
	wantFormatError(t, "splinter cell array too long", bad, int64(at))
}

// TestQuirkMalformed cuts every layout's fixture at every byte and corrupts
// each record kind and the header: always a *FormatError, never a panic.
func TestQuirkMalformed(t *testing.T) {
	seen := map[Layout]bool{}
	for _, q := range Quirks {
		if q.Unsupported != "" || seen[q.Layout] {
			continue
		}
		seen[q.Layout] = true
		v, l := q.MaxVersion, q.MaxLicensee
		name := fmt.Sprintf("%d/%d %s", v, l, q.Game)
		base := quirkSample(v, l)
		img := marshalOrFatal(t, base)
		for n := 4; n < len(img); n++ {
			_, err := NewFile(bytes.NewReader(img[:n]), int64(n))
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("%s cut at %d: have %v, want *FormatError", name, n, err)
			}
		}
		field := base.tableFields()
		wantFormatError(t, name+": name count larger than the file", put32(img, int(field), 1<<30), int64(base.NameOffset))
		wantFormatError(t, name+": import count larger than the file", put32(img, int(field)+16, 1<<28), int64(base.ImportOffset))
		if !base.HasHeritage() {
			genAt := int(base.headerEnd()) - 4 - 8*len(base.Generations)
			wantFormatError(t, name+": generation count larger than the file", put32(img, genAt, 1<<30), int64(genAt))
		}
		mutate := func(what string, change func(f *File), offset func(f *File) int64) {
			f := quirkSample(v, l)
			marshalOrFatal(t, f)
			change(f)
			wantFormatError(t, name+": "+what, marshalOrFatal(t, f), offset(f))
		}
		mutate("import name out of range", func(f *File) { f.Imports[0].ObjectName = 500 }, func(f *File) int64 { return int64(f.ImportOffset) })
		mutate("import class out of range", func(f *File) { f.Imports[1].ClassName = 400 }, func(f *File) int64 { return -1 })
		mutate("export name out of range", func(f *File) { f.Exports[0].ObjectName = 999 }, func(f *File) int64 { return int64(f.ExportOffset) })
		mutate("export class out of range", func(f *File) { f.Exports[1].Class = ExportRef(99) }, func(f *File) int64 { return -1 })
		mutate("export outer out of range", func(f *File) { f.Exports[1].Outer = ImportRef(99) }, func(f *File) int64 { return -1 })
		mutate("export super out of range", func(f *File) { f.Exports[2].Super = ImportRef(77) }, func(f *File) int64 { return -1 })
	}
}

// TestDocsGamesTable keeps docs/supported-files.md's supported-games table
// equal to the licensee table.
func TestDocsGamesTable(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "supported-files.md"))
	if err != nil {
		t.Skipf("docs/supported-files.md: %v", err)
	}
	if want := GamesTable(); !bytes.Contains(doc, []byte(want)) {
		t.Errorf("docs/supported-files.md does not hold the current games table; replace it with:\n%s", want)
	}
}

// TestGame123: 123/0 is what both Lineage 2 and Unreal II XMP write; the
// label says so instead of picking one.
func TestGame123(t *testing.T) {
	for vl, want := range map[[2]uint16]string{
		{123, 0}: "ambiguous: Lineage 2 or Unreal II: eXpanded MultiPlayer / Desert Thunder",
		{124, 0}: "Unreal II: eXpanded MultiPlayer / Desert Thunder",
		{123, 2}: "Dead Man's Hand",
	} {
		if have := Game(vl[0], vl[1]); have != want {
			t.Errorf("%d/%d: have %q, want %q", vl[0], vl[1], have, want)
		}
	}
}
