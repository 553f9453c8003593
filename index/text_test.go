package index

import (
	"context"
	"path/filepath"
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

// TestListRemovalStatsText: index list's line per source, remove's line
// per source removed, and stats' counts with the extensions in order.
func TestListRemovalStatsText(t *testing.T) {
	when := time.Date(2004, 3, 16, 12, 30, 5, 0, time.UTC)
	l := &SourceList{DB: "/x/index.db", Sources: []Source{
		{Kind: "dir", Location: "/games/ut", UpdatedAt: when, Files: 12, Packages: 10, Errors: 2},
		{Kind: "archive", Location: "/dl/mod.zip", UpdatedAt: when, Files: 1, Packages: 1},
	}}
	var b strings.Builder
	if err := l.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := "index: /x/index.db, 2 source(s)\n" +
		"dir          10 package(s)     12 file(s)    2 error(s)  2004-03-16 12:30:05  /games/ut\n" +
		"archive       1 package(s)      1 file(s)    0 error(s)  2004-03-16 12:30:05  /dl/mod.zip\n"
	if b.String() != want {
		t.Errorf("list:\nhave\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	if err := (&Removal{Removed: []string{"/a", "/b"}}).WriteText(&b); err != nil || b.String() != "removed /a\nremoved /b\n" {
		t.Errorf("removal: have %q, %v", b.String(), err)
	}
	b.Reset()
	st := &Stats{DB: "/x/index.db", Schema: 2, SizeBytes: 4096, Sources: 2, Files: 13, Errors: 2, Packages: 11, Names: 9, Exports: 40,
		ByExt: map[string]int{".utx": 3, ".u": 7, ".uax": 1}}
	if err := st.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want = "index: /x/index.db (schema 2, 4096 bytes)\n" +
		"2 source(s), 13 file(s) (2 unreadable), 11 package(s) with 9 distinct name(s), 40 export(s)\n" +
		"by extension: .u 7, .uax 1, .utx 3\n"
	if b.String() != want {
		t.Errorf("stats:\nhave\n%s\nwant\n%s", b.String(), want)
	}
}

// TestFindReportWriteText: find's report prints its copies with the
// object of the query it was made for, and with no copy and no catalogue
// version says the name is not in the index.
func TestFindReportWriteText(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "System", "ModA.u"), pkgBytes(t, 1, nil, "Skins.Red:Engine.Texture"))
	db := openDB(t)
	if _, err := db.Add(ctx, dir, AddOptions{}); err != nil {
		t.Fatal(err)
	}
	for query, want := range map[string]string{
		"ModA.Skins.Red": "ModA.Skins.Red: 1 copy\n  ModA.u  ",
		"Gone":           "Gone: not in the index\n",
	} {
		q, err := ParseQuery(query)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := db.Report(ctx, query, q)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := rep.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(b.String(), want) || (q.Object != "" && !strings.HasSuffix(b.String(), "  has Skins.Red (Texture)\n")) {
			t.Errorf("%s:\n%s", query, b.String())
		}
	}
}
