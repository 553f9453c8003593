package graph

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/internal/demo"
	"github.com/upkdeps/upkdeps/search"
)

// TestCheckCancelled: a cancelled context (Ctrl-C) stops Check and
// ScanSources with its error, and no findings: the object check looks at
// no import once it is done.
func TestCheckCancelled(t *testing.T) {
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
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, jobs := range []int{1, 2} {
		fs, err := g.Check(ctx, CheckOptions{ServerPackages: f.ServerPackages(), EditPackages: f.EditPackages(), Jobs: jobs})
		if !errors.Is(err, context.Canceled) || fs != nil {
			t.Errorf("jobs %d: have %d findings and %v, want none and context.Canceled", jobs, len(fs), err)
		}
	}
	if src, err := g.ScanSources(ctx, s.Root(), f.EditPackages(), nil); !errors.Is(err, context.Canceled) || src != nil {
		t.Errorf("ScanSources: have %v, %v; want nil, context.Canceled", src, err)
	}
	// The same graph checks in full with a live context.
	if fs := checkAll(t, g, CheckOptions{ServerPackages: f.ServerPackages(), EditPackages: f.EditPackages()}); len(fs) != len(demo.BenchFindings) {
		t.Errorf("after the cancelled runs: %d findings, want %d", len(fs), len(demo.BenchFindings))
	}
}
