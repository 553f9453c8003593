// Package par runs independent work items on a bounded number of
// goroutines.
package par

import (
	"context"
	"sync"
)

// ForEach calls fn(worker, i) for every i in [0, n) on min(jobs, n)
// goroutines (at least one); worker in [0, jobs) identifies the goroutine,
// so callers can keep per-goroutine state in a slice. It stops handing out
// items once ctx is done, waits for the running calls, and then returns
// ctx's error; otherwise nil.
func ForEach(ctx context.Context, n, jobs int, fn func(worker, i int)) error {
	work := make(chan int)
	var wg sync.WaitGroup
	for w := range max(1, min(jobs, n)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				fn(w, i)
			}
		}()
	}
	var err error
feed:
	for i := range n {
		select {
		case work <- i:
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(work)
	wg.Wait()
	return err
}

// Workers returns how many goroutines ForEach starts for n items.
func Workers(n, jobs int) int { return max(1, min(jobs, n)) }
