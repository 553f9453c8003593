package archive

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestNestedHeldOnce: a nested archive of 8 MiB is read into one buffer
// of its size; the walk allocates little more than that (reading it
// whole grew a buffer by doubling: 16 MiB and more, both buffers at once
// while copying). A nested zip up to nestedZipTail (16 MiB) is held so;
// a longer one is streamed (TestNestedZipStreamedMemory, and
// TestBombNested in cmd/upkdeps, which measures a 256 MiB one in a child
// process).
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

// TestNestedRARStreamed: a .rar nested in a zip is read front to back
// from the zip's member, never held: its members read back, and the walk
// of an 8 MiB one allocates a fraction of it.
func TestNestedRARStreamed(t *testing.T) {
	const size = 8 << 20
	big := string(make([]byte, size))
	inner := rarOf(t, [2]string{"System/A.u", "aaa"}, [2]string{"Maps/Big.unr", big})
	outer := zipOf(t, [2]string{"in.rar", string(inner)}, [2]string{"B.u", "bee"})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var have []string
	err := WalkReader(context.Background(), "x.zip", bytes.NewReader(outer), int64(len(outer)), Limits{}, func(m *Member) error {
		rc, err := m.Open()
		if err != nil {
			t.Errorf("%s: %v", m.Path(), err)
			return nil
		}
		defer rc.Close()
		var n int64
		buf := make([]byte, 64<<10)
		for {
			k, err := rc.Read(buf)
			n += int64(k)
			if err != nil {
				if err.Error() != "EOF" {
					t.Errorf("%s: %v", m.Path(), err)
				}
				break
			}
		}
		have = append(have, m.Path()+"="+strconv.FormatInt(n, 10))
		return nil
	})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if want := "in.rar!System/A.u=3|in.rar!Maps/Big.unr=8388608|B.u=3"; strings.Join(have, "|") != want {
		t.Errorf("have %q, want %q", have, want)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > size/2 {
		t.Errorf("the walk allocated %d bytes for a %d-byte nested .rar: want it streamed", got, len(inner))
	}
}
