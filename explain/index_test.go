package explain

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/index"
)

// TestDBIndex: a missing package's copies in an index are named by file
// and GUID, the one with the wanted GUID first; a package the index lacks
// has none.
func TestDBIndex(t *testing.T) {
	dir := t.TempDir()
	for i, guid := range []format.GUID{{1, 2, 3, 4}, {5, 6, 7, 8}} {
		b := format.NewBuilder(69, 0)
		b.File.GUID = guid
		b.ExportSpec("Skins.Red:Engine.Texture", 16)
		sub := filepath.Join(dir, "collection", []string{"old", "new"}[i])
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := format.WriteFile(filepath.Join(sub, "TNaliMeshSkins.utx"), b.File); err != nil {
			t.Fatal(err)
		}
	}
	db, err := index.Open(filepath.Join(dir, "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if _, err := db.Add(ctx, filepath.Join(dir, "collection"), index.AddOptions{}); err != nil {
		t.Fatal(err)
	}
	idx := DBIndex(db)
	copies := idx(ctx, "TNaliMeshSkins", "00000005000000060000000700000008")
	if len(copies) != 2 || !strings.HasSuffix(copies[0], filepath.Join("new", "TNaliMeshSkins.utx")+" (GUID 00000005000000060000000700000008)") ||
		!strings.Contains(copies[1], filepath.Join("old", "TNaliMeshSkins.utx")) {
		t.Errorf("copies %q", copies)
	}
	if none := idx(ctx, "Nothing", ""); len(none) != 0 {
		t.Errorf("a package the index lacks: %q", none)
	}
}

// TestReportFailed: a problem, a line not understood or one dropped fails
// the report; package map lines of packages the install has do not.
func TestReportFailed(t *testing.T) {
	for _, tc := range []struct {
		log  string
		want bool
	}{
		{"Log: nothing to see\n", false},
		{ut99CantFind + "\n", true},
		{ue2Unknown + "\n", true},
	} {
		rep, err := Explain(context.Background(), strings.NewReader(tc.log), "x.log", Options{})
		if err != nil || rep.Failed() != tc.want {
			t.Errorf("%q: failed %v, err %v; want %v", tc.log, rep.Failed(), err, tc.want)
		}
	}
	if rep := (&Report{Dropped: 1}); !rep.Failed() {
		t.Error("a dropped line does not fail the report")
	}
}
