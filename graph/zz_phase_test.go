package graph

import (
	"context"
	"runtime"
	"testing"
	"time"
)

func TestZZPhases(t *testing.T) {
	dir := "/tmp/upkdeps-bench-20000"
	for r := 0; r < 3; r++ {
		runtime.GC()
		t0 := time.Now()
		s := benchSearcher(nil, dir)
		t1 := time.Now()
		g, err := Build(context.Background(), FromSearcher(s), Options{Jobs: 2})
		if err != nil {
			t.Fatal(err)
		}
		t2 := time.Now()
		g.Check(context.Background(), CheckOptions{Jobs: 2})
		t3 := time.Now()
		t.Logf("search %v build %v check %v", t1.Sub(t0), t2.Sub(t1), t3.Sub(t2))
	}
}
