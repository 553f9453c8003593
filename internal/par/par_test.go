package par

import (
	"context"
	"errors"
	"runtime"
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

func TestOrdered(t *testing.T) {
	for _, tc := range []struct{ n, jobs, window int }{{0, 2, 4}, {1, 1, 1}, {50, 3, 4}, {50, 4, 0}, {7, 20, 100}} {
		var inFlight, peak atomic.Int32
		var got []int
		err := Ordered(tc.n, tc.jobs, tc.window, func(i int) int {
			v := inFlight.Add(1)
			for {
				m := peak.Load()
				if v <= m || peak.CompareAndSwap(m, v) {
					break
				}
			}
			return i * i
		}, func(i, v int) error {
			inFlight.Add(-1)
			if v != i*i {
				t.Errorf("item %d: have %d, want %d", i, v, i*i)
			}
			got = append(got, i)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range got {
			if v != i {
				t.Fatalf("n=%d: consumed out of order: %v", tc.n, got)
			}
		}
		if len(got) != tc.n {
			t.Errorf("n=%d: consumed %d items", tc.n, len(got))
		}
		// Produced but not yet consumed never exceeds the window.
		if lim := int32(max(tc.window, Workers(tc.n, tc.jobs))); peak.Load() > lim {
			t.Errorf("n=%d jobs=%d window=%d: %d results held at once", tc.n, tc.jobs, tc.window, peak.Load())
		}
	}
}

func TestOrderedStopsOnError(t *testing.T) {
	var produced atomic.Int32
	boom := errors.New("boom")
	err := Ordered(1000, 2, 4, func(i int) int { produced.Add(1); return i }, func(i, v int) error {
		if i == 3 {
			return boom
		}
		return nil
	})
	if err != boom {
		t.Fatalf("have %v, want boom", err)
	}
	if n := produced.Load(); n > 3+4+1 {
		t.Errorf("%d items produced after the error at item 3 (window 4)", n)
	}
}

// TestJobs: 0 or less is one goroutine per core, as --jobs 0 is on the
// command line; Workers never starts more than the items or fewer than one.
func TestJobs(t *testing.T) {
	cores := runtime.GOMAXPROCS(0)
	for _, c := range []struct{ n, jobs, want int }{
		{100, 0, cores}, {100, -1, cores}, {100, 3, 3}, {2, 8, 2}, {0, 4, 1}, {1, 0, 1},
	} {
		if got := Workers(c.n, c.jobs); got != c.want {
			t.Errorf("Workers(%d, %d) = %d, want %d", c.n, c.jobs, got, c.want)
		}
	}
	if Jobs(0) != cores || Jobs(5) != 5 {
		t.Errorf("Jobs(0) = %d, Jobs(5) = %d, want %d and 5", Jobs(0), Jobs(5), cores)
	}
}
