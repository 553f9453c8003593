package graph

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/internal/demo"
	"github.com/upkdeps/upkdeps/search"
)

// TestBenchInstallFindings checks that a small benchmark install has
// exactly the findings it plants: every import it makes but those resolves,
// so object-level resolution runs on all of it.
func TestBenchInstallFindings(t *testing.T) {
	g, f, _ := buildBench(t, 120)
	if n := len(g.Packages()); n != 120+3 {
		t.Errorf("have %d packages, want 123 (120 files and 3 missing)", n)
	}
	have := checkAll(t, g, CheckOptions{ServerPackages: f.ServerPackages(), EditPackages: f.EditPackages()})
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

// TestBuildCancelled cancels a build after a few files are read and
// linked: Build returns the context's error, having read no more than the
// files in flight beyond that point.
func TestBuildCancelled(t *testing.T) {
	dir := t.TempDir()
	if err := demo.WriteBench(dir, 200); err != nil {
		t.Fatal(err)
	}
	_, s := benchIni(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var total, seen int
	progress := func(n int) func() {
		total = n
		return func() {
			if seen++; seen == 5 {
				cancel()
			}
		}
	}
	g, err := Build(ctx, FromSearcher(s), Options{Jobs: 2, Progress: progress})
	if !errors.Is(err, context.Canceled) || g != nil {
		t.Fatalf("Build = %v, %v; want no graph and context.Canceled", g, err)
	}
	if seen != 5 || total != 200 {
		t.Errorf("%d of %d files reported before the cancel took effect, want 5 of 200", seen, total)
	}
}

// buildBench writes a benchmark install of n packages (demo.WriteBench)
// and builds its graph, returning it with the install's ini and searcher.
func buildBench(t *testing.T, n int) (*Graph, *ini.File, *search.Searcher) {
	t.Helper()
	dir := t.TempDir()
	if err := demo.WriteBench(dir, n); err != nil {
		t.Fatal(err)
	}
	f, s := benchIni(t, dir)
	g, err := Build(context.Background(), FromSearcher(s), Options{Jobs: 2, Roots: RootsOf(f, 1)})
	if err != nil {
		t.Fatal(err)
	}
	return g, f, s
}

// TestCheckJobsAgree: the findings of a benchmark install are the same
// whether one worker read it (one table of objects) or two (two tables,
// whose objects the object check numbers by key), and whether one or two
// goroutines check it.
func TestCheckJobsAgree(t *testing.T) {
	dir := t.TempDir()
	if err := demo.WriteBench(dir, 300); err != nil {
		t.Fatal(err)
	}
	f, err := ini.Load(filepath.Join(dir, filepath.FromSlash(demo.BenchIni)))
	if err != nil {
		t.Fatal(err)
	}
	var want []Finding
	for _, build := range []int{1, 2} {
		s, err := search.New(f, search.Options{Generation: 1})
		if err != nil {
			t.Fatal(err)
		}
		g, err := Build(context.Background(), FromSearcher(s), Options{Jobs: build, Roots: RootsOf(f, 1)})
		if err != nil {
			t.Fatal(err)
		}
		tables := map[*objTable]bool{}
		for _, p := range g.Packages() {
			if p.scan != nil {
				tables[p.scan.tab] = true
			}
		}
		t.Logf("built with %d worker(s): %d table(s) of objects", build, len(tables))
		for _, check := range []int{1, 2} {
			have := checkAll(t, g, CheckOptions{ServerPackages: f.ServerPackages(), EditPackages: f.EditPackages(), Jobs: check})
			if want == nil {
				want = have
			} else if !reflect.DeepEqual(have, want) {
				t.Errorf("built with %d worker(s), checked with %d: %d findings differ from the first %d", build, check, len(have), len(want))
			}
		}
	}
	if len(want) != len(demo.BenchFindings) {
		t.Errorf("%d findings, want %d", len(want), len(demo.BenchFindings))
	}
}
