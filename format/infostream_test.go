package format

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeInfoFiles writes a package and a non-package into dir and returns
// paths naming them, and a missing file, several times over.
func writeInfoFiles(t *testing.T, dir string) []string {
	t.Helper()
	b := NewBuilder(69, 0)
	b.Export(0, "Pad", 0, b.ImportPath("Engine.Actor", "Core", "Class"), 512)
	if err := WriteFile(filepath.Join(dir, "MyMod.u"), b.File); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a package"), 0o644); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for range 7 {
		for _, name := range []string{"MyMod.u", "notes.txt", "absent.u"} {
			paths = append(paths, filepath.Join(dir, name))
		}
	}
	return paths
}

// TestWriteInfosSameBytes: the streamed JSON of many files, read by
// several workers with a small window, is byte for byte what encoding the
// whole slice at once writes, errors included; the text is each file's
// WriteText with a blank line between two.
func TestWriteInfosSameBytes(t *testing.T) {
	paths := writeInfoFiles(t, t.TempDir())
	infos := make([]Info, len(paths))
	var wantText bytes.Buffer
	for i, p := range paths {
		infos[i] = ReadInfo(p)
		if i > 0 {
			wantText.WriteString("\n")
		}
		if err := infos[i].WriteText(&wantText, true, false, true); err != nil {
			t.Fatal(err)
		}
	}
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetIndent("", "  ")
	if err := enc.Encode(struct {
		SchemaVersion int    `json:"schema_version"`
		Files         []Info `json:"files"`
	}{InfoSchemaVersion, infos}); err != nil {
		t.Fatal(err)
	}
	for _, jobs := range []int{1, 3} {
		var have bytes.Buffer
		failed, err := WriteInfos(&have, paths, InfoOptions{JSON: true, Jobs: jobs})
		if err != nil || !failed {
			t.Fatalf("jobs=%d: failed=%v err=%v, want failed and no error", jobs, failed, err)
		}
		if have.String() != want.String() {
			t.Errorf("jobs=%d: streamed JSON differs:\n%s\nwant:\n%s", jobs, have.String(), want.String())
		}
		have.Reset()
		if _, err := WriteInfos(&have, paths, InfoOptions{Names: true, Exports: true, Jobs: jobs}); err != nil {
			t.Fatal(err)
		}
		if have.String() != wantText.String() || !strings.Contains(have.String(), "Pad") {
			t.Errorf("jobs=%d: text differs:\n%s\nwant:\n%s", jobs, have.String(), wantText.String())
		}
	}
	var empty bytes.Buffer
	if failed, err := WriteInfos(&empty, nil, InfoOptions{JSON: true}); err != nil || failed {
		t.Fatalf("no paths: failed=%v err=%v", failed, err)
	}
	if empty.String() != "{\n  \"schema_version\": 1,\n  \"files\": []\n}\n" {
		t.Errorf("no paths: %q", empty.String())
	}
	if failed, err := WriteInfos(&empty, paths[:1], InfoOptions{}); err != nil || failed {
		t.Errorf("one readable package: failed=%v err=%v", failed, err)
	}
}
