package graph

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/internal/demo"
	"github.com/upkdeps/upkdeps/search"
)

// TestBenchInstallFindings checks that a small benchmark install has
// exactly the findings it plants: every import it makes but those resolves,
// so object-level resolution runs on all of it.
func TestBenchInstallFindings(t *testing.T) {
	dir := t.TempDir()
	if err := demo.WriteBench(dir, 120); err != nil {
		t.Fatal(err)
	}
	f, err := ini.Load(filepath.Join(dir, filepath.FromSlash(demo.BenchIni)))
	if err != nil {
		t.Fatal(err)
	}
	s, err := search.New(f, search.Options{Generation: 1})
	if err != nil {
		t.Fatal(err)
	}
	g, err := Build(context.Background(), FromSearcher(s), Options{Jobs: 2, Roots: RootsOf(f, 1)})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(g.Packages()); n != 120+3 {
		t.Errorf("have %d packages, want 123 (120 files and 3 missing)", n)
	}
	have := g.Check(CheckOptions{ServerPackages: f.ServerPackages(), EditPackages: f.EditPackages()})
	if len(have) != len(demo.BenchFindings) {
		for _, f := range have {
			t.Log(f.Kind, f.Package, f.Message)
		}
		t.Fatalf("have %d findings, want %d", len(have), len(demo.BenchFindings))
	}
	for i, want := range demo.BenchFindings {
		if string(have[i].Kind) != want[0] || have[i].Package != want[1] {
			t.Errorf("finding %d: have %s %s, want %s %s", i, have[i].Kind, have[i].Package, want[0], want[1])
		}
	}
}
