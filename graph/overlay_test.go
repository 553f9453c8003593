package graph

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/format"
)

// TestOverlay reads a package that is not on disk from Options.Overlay
// (check --with), including the class-mismatch explanation that re-reads
// the file.
func TestOverlay(t *testing.T) {
	dir := t.TempDir()
	writeSpecs(t, dir, []pkgSpec{{file: "Map.unr", imports: []string{"Mod.Thing:Core.Class", "Mod.Skin:Engine.Texture"}}})
	b := format.NewBuilder(69, 0)
	b.File.GUID = format.GUID{9, 9, 9, 9}
	b.ExportSpec("Thing:Class", 16)
	b.ExportSpec("Skin:Engine.Sound", 16)
	data, err := format.Marshal(b.File)
	if err != nil {
		t.Fatal(err)
	}
	virtual := filepath.Join(dir, "Mod.u")
	// Without the overlay Mod is missing.
	g, err := Build(context.Background(), dirResolver{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p := g.Package("Mod"); p == nil || !p.Missing() {
		t.Fatalf("without the overlay: %+v", p)
	}
	r := overlayResolver{dirResolver{dir}, virtual}
	g, err = Build(context.Background(), r, Options{Overlay: map[string]Held{virtual: bytes.NewReader(data)}})
	if err != nil {
		t.Fatal(err)
	}
	p := g.Package("Mod")
	if p == nil || p.Missing() || p.Err != nil || p.GUID != (format.GUID{9, 9, 9, 9}).String() {
		t.Fatalf("with the overlay: %+v", p)
	}
	if _, err := os.Stat(virtual); err == nil {
		t.Fatal("the overlay file was written")
	}
	fs := findingsOf(checkAll(t, g, CheckOptions{}), ClassMismatch)
	if len(fs) != 1 || !strings.Contains(strings.Join(ObjectStrings(fs[0].Objects), " "), "exported as Engine.Sound") {
		t.Errorf("class mismatch through the overlay: %+v", fs)
	}
}

type overlayResolver struct {
	dirResolver
	file string
}

func (r overlayResolver) Candidates() []Candidate {
	return append(r.dirResolver.Candidates(), Candidate{Name: "Mod", File: r.file, Rel: "Mod.u"})
}

func (r overlayResolver) Resolve(name string) Resolution {
	if strings.EqualFold(name, "Mod") {
		return Resolution{File: r.file, Rel: "Mod.u"}
	}
	return r.dirResolver.Resolve(name)
}
