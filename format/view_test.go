package format

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// sameAsFile reports the first difference between the View v and the
// File f read from the same bytes, or "".
func sameAsFile(f *File, v *View) string {
	if !reflect.DeepEqual(f.Header, *v.Header()) {
		return fmt.Sprintf("header: have %+v, want %+v", *v.Header(), f.Header)
	}
	if v.NameCount() != len(f.Names) {
		return fmt.Sprintf("names: have %d, want %d", v.NameCount(), len(f.Names))
	}
	for i := -1; i <= len(f.Names); i++ {
		if have, want := v.NameAt(int32(i)), f.NameAt(int32(i)); have != want {
			return fmt.Sprintf("name %d: have %q, want %q", i, have, want)
		}
		if i >= 0 && i < len(f.Names) && v.NameFlags(int32(i)) != f.Names[i].Flags {
			return fmt.Sprintf("name %d: flags %#x, want %#x", i, v.NameFlags(int32(i)), f.Names[i].Flags)
		}
	}
	if !slices2Equal(f.Imports, v.Imports()) || !slices2Equal(f.Exports, v.Exports()) {
		return "import or export table differs"
	}
	var refs []Ref
	for r := range v.AllImports() {
		refs = append(refs, r)
	}
	for r := range v.AllExports() {
		refs = append(refs, r)
	}
	if len(refs) != len(f.Imports)+len(f.Exports) {
		return fmt.Sprintf("iterators: %d refs, want %d", len(refs), len(f.Imports)+len(f.Exports))
	}
	for _, r := range refs {
		hc, hp := v.ClassOf(r)
		wc, wp := f.ClassOf(r)
		if v.ObjectPath(r) != f.ObjectPath(r) || hc != wc || hp != wp || v.ImportPackage(r) != f.ImportPackage(r) {
			return fmt.Sprintf("ref %d: have %s %s.%s, want %s %s.%s", r, v.ObjectPath(r), hp, hc, f.ObjectPath(r), wp, wc)
		}
	}
	return ""
}

func slices2Equal[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestViewMatchesFile reads the sample package in every readable layout
// (names of 8-bit Latin-1 and UTF-16 text among them, which a View
// converts on access) through one Reader's View and through NewFile.
func TestViewMatchesFile(t *testing.T) {
	var rd Reader
	dir := t.TempDir()
	vls := append(readableQuirks(), [2]uint16{61, 0}, [2]uint16{64, 0}, [2]uint16{68, 0}, [2]uint16{69, 0})
	for _, vl := range vls {
		img, err := Marshal(quirkSample(vl[0], vl[1]))
		if err != nil {
			t.Fatal(err)
		}
		want, err := NewFile(bytes.NewReader(img), int64(len(img)))
		if err != nil {
			t.Fatalf("%d/%d: NewFile: %v", vl[0], vl[1], err)
		}
		path := filepath.Join(dir, "Sample.u")
		if err := os.WriteFile(path, img, 0o644); err != nil {
			t.Fatal(err)
		}
		v, err := rd.View(path)
		if err != nil {
			t.Fatalf("%d/%d: View: %v", vl[0], vl[1], err)
		}
		want.PackageName = "Sample"
		if d := sameAsFile(want, v); d != "" {
			t.Errorf("%d/%d: %s", vl[0], vl[1], d)
		}
		if v.PackageName() != "Sample" {
			t.Errorf("%d/%d: PackageName %q", vl[0], vl[1], v.PackageName())
		}
		// The Reader's next Open is an eager File again.
		if f, err := rd.Open(path); err != nil || len(f.Names) != len(want.Names) {
			t.Fatalf("%d/%d: Open after View: %v, %d names", vl[0], vl[1], err, len(f.Names))
		}
	}
}

// TestViewLatin1 checks the name a View converts on access: an 8-bit
// name read by the fast path is Latin-1, as File reads it.
func TestViewLatin1(t *testing.T) {
	b := NewBuilder(69, 0)
	b.ImportPath("Engine.Actor", "Core", "Class")
	b.Export(0, "Ünïcödé", 0, 0, 10)
	img, err := Marshal(b.File)
	if err != nil {
		t.Fatal(err)
	}
	var rd Reader
	v, err := rd.ViewAt(bytes.NewReader(img), int64(len(img)), "X.u")
	if err != nil {
		t.Fatal(err)
	}
	if have := v.ObjectName(ExportRef(0)); have != "Ünïcödé" {
		t.Errorf("have %q, want %q", have, "Ünïcödé")
	}
}

// TestViewErrors checks a View refuses what File refuses, with the same
// error (offset included): a name index out of range, a truncated table.
func TestViewErrors(t *testing.T) {
	img, err := Marshal(sample(69, 0))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		mod  func([]byte) []byte
	}{
		{"truncated", func(b []byte) []byte { return b[:len(b)-3] }},
		{"name count", func(b []byte) []byte { c := bytes.Clone(b); c[12] = 2; return c }},
		{"import count", func(b []byte) []byte { c := bytes.Clone(b); c[28] = 200; return c }},
	} {
		b := tc.mod(img)
		_, want := NewFile(bytes.NewReader(b), int64(len(b)))
		var rd Reader
		_, have := rd.ViewAt(bytes.NewReader(b), int64(len(b)), "X.u")
		if want == nil || have == nil {
			t.Errorf("%s: have %v, want %v", tc.name, have, want)
			continue
		}
		var pe *PathError
		if !errors.As(have, &pe) || pe.Err.Error() != want.Error() {
			t.Errorf("%s: have %v, want %v", tc.name, have, want)
		}
	}
}

// TestCorpusView reads every corpus package through a View and a File.
func TestCorpusView(t *testing.T) {
	paths := corpusPackages(t)
	var rd Reader
	inPlace := 0
	for _, p := range paths {
		want, werr := Open(p)
		v, verr := rd.View(p)
		if (werr == nil) != (verr == nil) || werr != nil && werr.Error() != verr.Error() {
			t.Errorf("%s: have %v, want %v", p, verr, werr)
			continue
		}
		if werr != nil {
			continue
		}
		if d := sameAsFile(want, v); d != "" {
			t.Errorf("%s: %s", p, d)
		}
		if v.f.lazyOffs != nil {
			inPlace++
		}
		want.Close()
	}
	t.Logf("%d of %d packages' name tables read in place", inPlace, len(paths))
}

// FuzzView feeds arbitrary bytes to View and NewFile: the two must agree
// on every error and every name, path and class.
func FuzzView(f *testing.F) {
	for _, img := range fuzzSeeds(f) {
		f.Add(img)
	}
	for _, vl := range readableQuirks() {
		img, err := Marshal(quirkSample(vl[0], vl[1]))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(img)
	}
	var rd Reader
	f.Fuzz(func(t *testing.T, data []byte) {
		want, werr := NewFile(bytes.NewReader(data), int64(len(data)))
		v, verr := rd.ViewAt(bytes.NewReader(data), int64(len(data)), "Fuzz.u")
		if (werr == nil) != (verr == nil) {
			t.Fatalf("have %v, want %v", verr, werr)
		}
		if werr != nil {
			if verr.(*PathError).Err.Error() != werr.Error() {
				t.Fatalf("have %v, want %v", verr, werr)
			}
			return
		}
		want.PackageName = "Fuzz"
		if d := sameAsFile(want, v); d != "" {
			t.Fatal(d)
		}
	})
}

// TestViewNamesInPlace checks the name table a View reads where it lies,
// without copying: taken for a table of one-byte-length records (plain,
// Latin-1 and 62-byte names among them), with the same names and flags as
// File reads; a table holding a UTF-16 name, a name too long for one
// length byte or an empty one (length 0, no NUL) is read the careful way,
// to the same result.
func TestViewNamesInPlace(t *testing.T) {
	long := string(bytes.Repeat([]byte("n"), 62))
	for _, tc := range []struct {
		extra   string
		inPlace bool
	}{{"Plain", true}, {"名前", false}, {long + "x", false}, {"", false}} {
		b := NewBuilder(69, 0)
		actor := b.ImportPath("Engine.Actor", "Core", "Class")
		cls := b.Export(0, "MyActor", 0, actor, 2000)
		b.Export(cls, "Tick", b.ImportPath("Core.Function", "Core", "Class"), 0, 50)
		b.Export(0, "Ünïcödé", 0, actor, 10)
		b.Export(0, long, 0, actor, 10)
		b.Name(tc.extra)
		img, err := Marshal(b.File)
		if err != nil {
			t.Fatal(err)
		}
		want, err := NewFile(bytes.NewReader(img), int64(len(img)))
		if err != nil {
			t.Fatal(err)
		}
		want.PackageName = "X"
		var rd Reader
		v, err := rd.ViewAt(bytes.NewReader(img), int64(len(img)), "X.u")
		if err != nil {
			t.Fatal(err)
		}
		if inPlace := v.f.lazyOffs != nil; inPlace != tc.inPlace {
			t.Errorf("extra name %q: read in place %v, want %v", tc.extra, inPlace, tc.inPlace)
		}
		if d := sameAsFile(want, v); d != "" {
			t.Errorf("extra name %q: %s", tc.extra, d)
		}
	}
}

// TestViewNamesConverted reads names that are not plain ASCII (Latin-1
// and NUL bytes at either side of the 8- and 16-byte words the in-place
// reading tests at once, up to the longest one-byte-length record)
// through a View, its table read in place and, with a UTF-16 name added,
// the careful way: each the same as Open decodes it, and the same on a
// second ask.
func TestViewNamesConverted(t *testing.T) {
	long := strings.Repeat("x", 61)
	names := map[string]string{ // written (Latin-1): decoded
		"Ab\x00cd":              "Ab",
		"Ünïcödé":               "Ünïcödé",
		"abcdefgé":              "abcdefgé",
		"abcdefgh\x00x":         "abcdefgh",
		"abcdefghijklmnoÿ":      "abcdefghijklmnoÿ",
		"abcdefghijklmnop\x00q": "abcdefghijklmnop",
		"abcdefghijklmnopqà":    "abcdefghijklmnopqà",
		long + "é":              long + "é",
		"\x00":                  "",
		"Plain":                 "Plain",
	}
	dir := t.TempDir()
	for _, extra := range []string{"", "名前"} {
		b := NewBuilder(69, 0)
		actor := b.ImportPath("Engine.Actor", "Core", "Class")
		keys := slices.Sorted(maps.Keys(names))
		for _, n := range keys {
			b.Export(0, n, 0, actor, 10)
		}
		if extra != "" {
			b.Name(extra)
		}
		img, err := Marshal(b.File)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "X.u")
		if err := os.WriteFile(path, img, 0o644); err != nil {
			t.Fatal(err)
		}
		want, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var rd Reader
		v, err := rd.View(path)
		if err != nil {
			t.Fatal(err)
		}
		if inPlace := v.f.lazyOffs != nil; inPlace != (extra == "") {
			t.Errorf("extra name %q: read in place %v", extra, inPlace)
		}
		if d := sameAsFile(want, v); d != "" {
			t.Errorf("extra name %q: %s", extra, d)
		}
		for i, n := range keys {
			for range 2 {
				if have := v.ObjectName(ExportRef(i)); have != names[n] {
					t.Errorf("extra name %q: %q reads %q, want %q", extra, n, have, names[n])
				}
			}
		}
		want.Close()
	}
}
