package par

import (
	"context"
	"sync/atomic"
	"testing"
)

func TestForEach(t *testing.T) {
	for _, tc := range []struct{ n, jobs int }{{0, 4}, {1, 0}, {10, 1}, {100, 3}, {5, 50}} {
		seen := make([]int32, tc.n)
		var maxWorker atomic.Int32
		if err := ForEach(context.Background(), tc.n, tc.jobs, func(w, i int) {
			atomic.AddInt32(&seen[i], 1)
			for {
				m := maxWorker.Load()
				if int32(w) <= m || maxWorker.CompareAndSwap(m, int32(w)) {
					break
				}
			}
		}); err != nil {
			t.Fatal(err)
		}
		for i, c := range seen {
			if c != 1 {
				t.Errorf("n=%d jobs=%d: item %d ran %d times", tc.n, tc.jobs, i, c)
			}
		}
		if int(maxWorker.Load()) >= Workers(tc.n, tc.jobs) {
			t.Errorf("n=%d jobs=%d: worker %d out of range", tc.n, tc.jobs, maxWorker.Load())
		}
	}
}

func TestForEachCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var ran atomic.Int32
	err := ForEach(ctx, 1000, 2, func(_, i int) {
		if ran.Add(1) == 10 {
			cancel()
		}
	})
	if err != context.Canceled || ran.Load() >= 1000 {
		t.Errorf("have err %v after %d items, want context.Canceled early", err, ran.Load())
	}
}
