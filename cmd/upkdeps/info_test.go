package main

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/upkdeps/upkdeps/format"
)

// writeInfoFixtures writes a UE1 and a UE2 package and a non-package into the
// current folder.
func writeInfoFixtures(t *testing.T) {
	t.Helper()
	b := format.NewBuilder(69, 0)
	b.File.Flags = format.FlagAllowDownload | format.FlagServerSideOnly
	b.File.GUID = format.GUID{0x11111111, 0x22222222, 0x33333333, 0x44444444}
	actor := b.ImportPath("Engine.Actor", "Core", "Class")
	b.Import(actor, "Touching", "Core", "ObjectProperty")
	tex := b.ImportPath("Engine.Texture", "Core", "Class")
	grp := b.ExportGroup(0, "Skins")
	b.Export(grp, "Gold", tex, 0, 64)
	b.Export(0, "Pad", 0, actor, 512)
	if err := format.WriteFile("MyMod.u", b.File); err != nil {
		t.Fatal(err)
	}
	m := format.NewBuilder(128, 29)
	m.File.GUID = format.GUID{1, 2, 3, 4}
	m.Export(0, "MyLevel", m.ImportPath("Engine.Level", "Core", "Class"), 0, 100)
	m.ImportPath("MyMod.Pad", "Core", "Class")
	if err := format.WriteFile("DM-Test.ut2", m.File); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("notes.txt", []byte("not a package"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestInfo(t *testing.T) {
	t.Chdir(t.TempDir())
	writeInfoFixtures(t)

	out, _, code := runCLI(t, "info", "--names", "--imports", "--exports", "MyMod.u", "DM-Test.ut2")
	if code != exitOK {
		t.Errorf("info: code %d", code)
	}
	golden(t, "info.txt", out)

	out, _, code = runCLI(t, "info", "--json", "MyMod.u", "notes.txt")
	if code != exitFindings {
		t.Errorf("info with a non-package: code %d, want %d", code, exitFindings)
	}
	golden(t, "info.json", out)
	var doc struct {
		SchemaVersion int              `json:"schema_version"`
		Files         []map[string]any `json:"files"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.SchemaVersion != format.InfoSchemaVersion || len(doc.Files) != 2 {
		t.Fatalf("info --json: schema_version %d, %d files; want %d, 2", doc.SchemaVersion, len(doc.Files), format.InfoSchemaVersion)
	}
	reports := doc.Files
	for _, key := range []string{"path", "version", "licensee", "flags", "flag_names", "guid", "name_count", "import_count", "export_count", "depends_on", "imports", "exports"} {
		if _, ok := reports[0][key]; !ok {
			t.Errorf("info --json lacks %q", key)
		}
	}
	if len(reports[1]) != 2 || reports[1]["error"] == nil {
		t.Errorf("unreadable file: have %v, want {path, error}", reports[1])
	}
}
