package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestAddUnrealArchive: a metadata checkout becomes items; adding it again
// after a file is gone drops that file's items; removing the source drops
// them all; a bad file is a warning.
func TestAddUnrealArchive(t *testing.T) {
	meta := t.TempDir()
	write := func(name string, i int) {
		text := fmt.Sprintf("--- !<MAP>\ncontentType: \"MAP\"\ngame: \"Unreal Tournament\"\nname: \"Map%d\"\nhash: \"%040x\"\nfileSize: 10\n"+
			"files:\n- name: \"Map%d.unr\"\n  fileSize: 5\n  hash: \"%040x\"\ndownloads:\n- url: \"https://example.invalid/%d\"\n  direct: true\n  state: \"OK\"\n", i, i, i, i+100, i)
		if err := os.WriteFile(filepath.Join(meta, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.yml", 1)
	write("b.yml", 2)
	if err := os.WriteFile(filepath.Join(meta, "bad.yml"), []byte("hash: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := Open(filepath.Join(t.TempDir(), "i.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	res, err := db.AddUnrealArchive(ctx, meta, 2)
	if err != nil {
		t.Fatal(err)
	}
	if res.Items != 2 || res.Files != 3 || len(res.Warnings) != 1 || res.Source.Kind != KindMetadata {
		t.Errorf("first add: %+v", res)
	}
	items, err := db.ArchiveItems(ctx, "Unreal Tournament")
	if err != nil || len(items) != 2 || len(items[0].Files) != 1 || len(items[0].Downloads) != 1 {
		t.Fatalf("items %+v, %v", items, err)
	}
	os.Remove(filepath.Join(meta, "b.yml"))
	if _, err := db.AddUnrealArchive(ctx, meta, 2); err != nil {
		t.Fatal(err)
	}
	if items, _ := db.ArchiveItems(ctx); len(items) != 1 || items[0].Name != "Map1" {
		t.Errorf("after re-add: %+v", items)
	}
	if vs, _ := db.ArchiveVersions(ctx, "map1"); len(vs) != 1 || len(vs[0].Items) != 1 {
		t.Errorf("versions: %+v", vs)
	}
	// find's report: a name alone brings the catalogue's versions, a
	// Pkg.Object does not (the catalogue lists no objects).
	if rep, err := db.Report(ctx, "Map1", Query{Name: "map1"}); err != nil || len(rep.Archive) != 1 || len(rep.Copies) != 0 || rep.Query != "Map1" || rep.SchemaVersion != FindReportVersion {
		t.Errorf("find report: %+v, %v", rep, err)
	}
	if rep, err := db.Report(ctx, "Map1.X", Query{Name: "map1", Object: "X"}); err != nil || len(rep.Archive) != 0 || rep.Archive == nil {
		t.Errorf("find report of an object: %+v, %v", rep, err)
	}
	if items, _ := db.ArchiveItems(ctx, "Unreal Tournament 2004"); len(items) != 0 {
		t.Errorf("other game: %+v", items)
	}
	if err := db.Remove(ctx, meta); err != nil {
		t.Fatal(err)
	}
	if items, _ := db.ArchiveItems(ctx); len(items) != 0 {
		t.Errorf("after remove: %+v", items)
	}
}
