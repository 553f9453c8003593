package graph

import (
	"context"
	"errors"
	"testing"

	"github.com/upkdeps/upkdeps/internal/demo"
)

// TestCheckCancelled: a cancelled context (Ctrl-C) stops Check and
// ScanSources with its error, and no findings: the object check looks at
// no import once it is done.
func TestCheckCancelled(t *testing.T) {
	g, f, s := buildBench(t, 120)
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
