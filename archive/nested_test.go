package archive

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"runtime"
	"testing"
	"time"
)

// TestNestedHeldOnce: a nested archive of 8 MiB is read into one buffer
// of its size; the walk allocates little more than that (reading it
// whole grew a buffer by doubling: 16 MiB and more, both buffers at once
// while copying). Cheap enough for the race run; TestBombNested in
// cmd/upkdeps measures a 256 MiB one in a child process.
func TestNestedHeldOnce(t *testing.T) {
	const size = 8 << 20
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.CreateHeader(&zip.FileHeader{Name: "Big.u", Method: zip.Store})
	w.Write(make([]byte, size-200))
	zw.Close()
	inner := buf.Bytes()
	if len(inner) > size || len(inner) < size-4096 {
		t.Fatalf("inner zip of %d bytes", len(inner))
	}
	outer := zipOf(t, [2]string{"in.zip", string(inner)})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	n := 0
	err := WalkReader(context.Background(), "x.zip", bytes.NewReader(outer), int64(len(outer)), Limits{}, func(m *Member) error {
		n++
		if m.Path() != "in.zip!Big.u" || m.Err != nil {
			t.Errorf("%s: %v", m.Path(), m.Err)
		}
		return nil
	})
	runtime.ReadMemStats(&after)
	if err != nil || n != 1 {
		t.Fatalf("%d members, %v", n, err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > size+size/2 {
		t.Errorf("the walk allocated %d bytes for a %d-byte nested archive: want it held once", got, len(inner))
	}
}

// TestNestedBudget: the budget nested archives are held against makes a
// taker wait while it is spent, lets it go at a release, and gives up
// when the taker's context is done.
func TestNestedBudget(t *testing.T) {
	b := &budget{free: 100, changed: make(chan struct{})}
	ctx := context.Background()
	if err := b.acquire(ctx, 60); err != nil {
		t.Fatal(err)
	}
	got := make(chan error, 1)
	go func() { got <- b.acquire(ctx, 60) }()
	select {
	case err := <-got:
		t.Fatalf("took 60 of 40 free: %v", err)
	case <-time.After(50 * time.Millisecond):
	}
	b.release(60)
	if err := <-got; err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithCancel(ctx)
	go func() { got <- b.acquire(cctx, 60) }()
	cancel()
	if err := <-got; !errors.Is(err, context.Canceled) {
		t.Errorf("have %v, want context.Canceled", err)
	}
	b.release(60)
	if b.free != 100 {
		t.Errorf("%d free after every release, want 100", b.free)
	}
}
