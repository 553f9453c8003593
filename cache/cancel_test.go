package cache

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
)

// TestOpenCancelled: a cancelled context (Ctrl-C) stops Open with its
// error, reading no header, and leaves no lock behind.
func TestOpenCancelled(t *testing.T) {
	f := newUE1Fixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if c, err := Open(ctx, f.cache, Options{Lock: "test"}); !errors.Is(err, context.Canceled) || c != nil {
		t.Fatalf("have %v, %v; want nil, context.Canceled", c, err)
	}
	c, err := Open(context.Background(), f.cache, Options{Lock: "test"})
	if err != nil {
		t.Fatalf("after the cancelled Open: %v", err)
	}
	c.Close()
}

// TestPlanRunCancelled: Ctrl-C during Run stops it before the next
// action; what was done stays done, and the same command run again (a new
// plan) completes the job.
func TestPlanRunCancelled(t *testing.T) {
	f := newUE1Fixture(t)
	c := open(t, f.cache, Options{}, f.ini)
	p := c.PlanExtract(extractOptions(t, f.ini))
	ctx, cancel := context.WithCancel(context.Background())
	done := 0
	err := p.Run(ctx, func(Action) {
		done++
		if done == 2 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || done != 2 || len(p.Actions) <= 2 {
		t.Fatalf("have %v after %d of %d actions; want context.Canceled after 2", err, done, len(p.Actions))
	}
	c = open(t, f.cache, Options{}, f.ini)
	p2 := c.PlanExtract(extractOptions(t, f.ini))
	if err := p2.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	for name, rel := range map[string]string{"Alpha.u": "System/Alpha.u", "Map.unr": "Maps/Map.unr", "Tex.utx": "Textures/Tex.utx"} {
		if have := readFile(t, filepath.Join(f.root, filepath.FromSlash(rel))); have != string(f.pkgs[name]) {
			t.Errorf("%s: wrong content after the second run", rel)
		}
	}
}
