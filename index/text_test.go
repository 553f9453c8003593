package index

import (
	"strings"
	"testing"
	"time"
)

// TestWriteFindText: one line per copy, its GUID or "(no GUID)", where it
// is (an archive member after "!") and whether it has the object asked for.
func TestWriteFindText(t *testing.T) {
	day := time.Date(2004, 3, 16, 12, 0, 0, 0, time.UTC)
	ps := []Package{
		{FileName: "Foo.u", GUID: "ABC", Version: 128, Licensee: 29, Size: 10, ModTime: day, Path: "/a/Foo.u", ObjectClass: "Class"},
		{FileName: "Foo.u", Version: 128, Licensee: 29, Size: 11, ModTime: day, Path: "/b/m.zip", Member: "System/Foo.u"},
	}
	var b strings.Builder
	if err := WriteFindText(&b, "Foo.Bar", Query{Object: "Bar"}, ps, false); err != nil {
		t.Fatal(err)
	}
	want := "Foo.Bar: 2 copies\n" +
		"  Foo.u  ABC  v128/29  10 bytes  2004-03-16  /a/Foo.u  has Bar (Class)\n" +
		"  Foo.u  (no GUID)  v128/29  11 bytes  2004-03-16  /b/m.zip!System/Foo.u  lacks Bar\n"
	if b.String() != want {
		t.Errorf("have\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	if err := WriteFindText(&b, "Gone", Query{}, nil, true); err != nil || b.String() != "Gone: no local copy in the index\n" {
		t.Errorf("have %q, %v", b.String(), err)
	}
}
