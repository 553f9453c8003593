package graph

import (
	"context"
	"testing"
	"time"
)

func TestZZPhases(t *testing.T) {
	dir := "/tmp/bench20k"
	for range 3 {
		s := benchSearcher(nil, dir)
		t0 := time.Now()
		g, err := Build(context.Background(), FromSearcher(s), Options{Jobs: 2})
		if err != nil {
			t.Fatal(err)
		}
		t1 := time.Now()
		roots := g.roots(CheckOptions{})
		parent := g.reach(roots)
		t2 := time.Now()
		g.checkMissing(BuiltinNatives(), parent)
		t3 := time.Now()
		g.checkObjects(CheckOptions{Jobs: 2, Natives: BuiltinNatives()}, parent)
		t4 := time.Now()
		g.checkCase(parent)
		g.checkCycles()
		t5 := time.Now()
		g.Check(CheckOptions{})
		t6 := time.Now()
		t.Logf("build %v reach %v missing %v objects %v case+cycles %v fullcheck %v", t1.Sub(t0), t2.Sub(t1), t3.Sub(t2), t4.Sub(t3), t5.Sub(t4), t6.Sub(t5))
	}
}
