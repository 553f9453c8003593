// Package par runs independent work items on a bounded number of
// goroutines.
package par

import (
	"context"
	"runtime"
	"sync"
)

// Jobs is how many goroutines a jobs setting asks for: jobs itself, or
// one per core (GOMAXPROCS) when it is 0 or less. Every library option
// named Jobs means this, as the command line's --jobs does.
func Jobs(jobs int) int {
	if jobs <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return jobs
}

// ForEach calls fn(worker, i) for every i in [0, n) on Workers(n, jobs)
// goroutines; worker in [0, Workers(n, jobs)) identifies the goroutine,
// so callers can keep per-goroutine state in a slice. It stops handing out
// items once ctx is done, waits for the running calls, and then returns
// ctx's error; otherwise nil.
func ForEach(ctx context.Context, n, jobs int, fn func(worker, i int)) error {
	work := make(chan int)
	var wg sync.WaitGroup
	for w := range Workers(n, jobs) {
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

// Workers returns how many goroutines ForEach and Ordered start for n
// items: Jobs(jobs), but no more than n and at least one.
func Workers(n, jobs int) int { return max(1, min(Jobs(jobs), n)) }

// Ordered calls produce(i) for every i in [0, n) on Workers(n, jobs)
// goroutines and consume(i, v) with each result on the calling
// goroutine, in the order of i, as soon as it and every result before it
// are there. Production runs at most window items (at least the number of
// goroutines) ahead of consumption, so that at most that many results are
// held at once whatever n is. When consume returns an error, Ordered starts
// no more items, waits for the running ones and returns the error.
func Ordered[T any](n, jobs, window int, produce func(i int) T, consume func(i int, v T) error) error {
	workers := Workers(n, jobs)
	window = max(window, workers)
	// Item i's result goes through slot i % window: at most window items
	// are started and not consumed, so a slot is empty again when the item
	// window places later is started (and n items need not make n
	// channels).
	window = min(window, max(n, 1))
	slots := make([]chan T, window)
	for i := range slots {
		slots[i] = make(chan T, 1)
	}
	tokens := make(chan struct{}, window) // one per item started and not consumed
	stop := make(chan struct{})
	work := make(chan int)
	go func() {
		defer close(work)
		for i := range n {
			select {
			case tokens <- struct{}{}:
			case <-stop:
				return
			}
			select {
			case work <- i:
			case <-stop:
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				slots[i%window] <- produce(i)
			}
		}()
	}
	var err error
	for i := range n {
		v := <-slots[i%window]
		if err = consume(i, v); err != nil {
			break
		}
		<-tokens
	}
	close(stop)
	wg.Wait()
	return err
}
