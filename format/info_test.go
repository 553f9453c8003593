package format

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadInfo: a package's Info resolves its imports' paths and classes
// and its dependencies; a file that is not a package is {path, error} in
// JSON and nothing else.
func TestReadInfo(t *testing.T) {
	dir := t.TempDir()
	b := NewBuilder(69, 0)
	pkg := b.ImportPackage("Tex")
	b.Import(pkg, "Wall", "Engine", "Texture")
	path := filepath.Join(dir, "Map.unr")
	if err := WriteFile(path, b.File); err != nil {
		t.Fatal(err)
	}
	r := ReadInfo(path)
	if r.Error != "" || r.Version != 69 || r.Package != "Map" || len(r.Imports) != r.ImportCount || r.ImportCount == 0 {
		t.Fatalf("Info: %+v", r)
	}
	if got := r.Imports[len(r.Imports)-1]; got != (InfoImport{Path: "Tex.Wall", Class: "Texture", ClassPackage: "Engine"}) {
		t.Errorf("last import %+v, want Tex's Wall of class Engine.Texture", got)
	}
	if strings.Join(r.DependsOn, ",") != "Tex" || len(r.NameFlags) != len(r.Names) {
		t.Errorf("depends on %q; %d name flags for %d names", r.DependsOn, len(r.NameFlags), len(r.Names))
	}

	bad := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(bad, []byte("not a package"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = ReadInfo(bad)
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if r.Error == "" || string(data) != `{"path":`+jsonString(bad)+`,"error":`+jsonString(r.Error)+`}` {
		t.Errorf("unreadable file: %s", data)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
