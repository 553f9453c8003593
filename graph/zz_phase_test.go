package graph

import (
	"context"
	"runtime"
	"syscall"
	"testing"
	"time"
)

func zzCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestZZPhases(t *testing.T) {
	dir := "/tmp/upkdeps-bench-20000"
	for r := 0; r < 4; r++ {
		runtime.GC()
		t0, c0 := time.Now(), zzCPU()
		s := benchSearcher(nil, dir)
		t1, c1 := time.Now(), zzCPU()
		g, err := Build(context.Background(), FromSearcher(s), Options{Jobs: 2})
		if err != nil {
			t.Fatal(err)
		}
		t2, c2 := time.Now(), zzCPU()
		g.Check(context.Background(), CheckOptions{Jobs: 2})
		t3, c3 := time.Now(), zzCPU()
		t.Logf("search %v/%v build %v/%v check %v/%v (wall/cpu)", t1.Sub(t0).Round(time.Millisecond), (c1 - c0).Round(time.Millisecond),
			t2.Sub(t1).Round(time.Millisecond), (c2 - c1).Round(time.Millisecond), t3.Sub(t2).Round(time.Millisecond), (c3 - c2).Round(time.Millisecond))
	}
}
