package index

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestConcurrentFirstOpen opens a new database from several connections
// at once, twenty times: every open succeeds (the first migrates, the
// others wait and find the schema), where two used to fail with "table
// sources already exists".
func TestConcurrentFirstOpen(t *testing.T) {
	const rounds, openers = 20, 4
	for r := 0; r < rounds; r++ {
		path := filepath.Join(t.TempDir(), "index.db")
		var wg sync.WaitGroup
		errs := make([]error, openers)
		for i := range openers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				d, err := Open(path)
				if err == nil {
					_, err = d.Sources(context.Background())
					d.Close()
				}
				errs[i] = err
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d, opener %d: %v", r, i, err)
			}
		}
	}
}

// TestOpenReadOnly: a read never creates a database or its folder, never
// writes a schema into an empty file, and names the database in its error;
// an existing index reads without a write.
func TestOpenReadOnly(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "no", "such", "index.db")
	if _, err := OpenReadOnly(missing); !errors.Is(err, ErrNoIndex) || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "no")); err == nil {
		t.Error("a read made the database's folder")
	}
	empty := filepath.Join(dir, "empty.db")
	write(t, empty, nil)
	if _, err := OpenReadOnly(empty); !errors.Is(err, ErrNoIndex) || !strings.Contains(err.Error(), empty) {
		t.Errorf("empty: %v", err)
	}
	if st, _ := os.Stat(empty); st.Size() != 0 {
		t.Errorf("a read wrote %d bytes into an empty file", st.Size())
	}

	path := filepath.Join(dir, "index.db")
	write(t, filepath.Join(dir, "src", "A.u"), pkgBytes(t, 1, nil, "Thing:Class"))
	d, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Add(context.Background(), filepath.Join(dir, "src"), AddOptions{}); err != nil {
		t.Fatal(err)
	}
	d.Close()
	before, _ := os.ReadFile(path)
	r, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := r.Find(context.Background(), Query{Name: "a"})
	if err != nil || len(ps) != 1 {
		t.Errorf("find read-only: %v %v", ps, err)
	}
	if _, err := r.Add(context.Background(), filepath.Join(dir, "src"), AddOptions{}); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("a write through a read-only open: %v, want an error naming the database", err)
	}
	r.Close()
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("a read-only open changed the database")
	}
}

// TestSourcesAfterInterruptedAdd stops an add after its first batch was
// written (as a kill does): the source's counts are what the index holds,
// not the 0 of a source whose add never finished.
func TestSourcesAfterInterruptedAdd(t *testing.T) {
	dir := t.TempDir()
	for i := range batchSize + 8 {
		write(t, filepath.Join(dir, "src", fmt.Sprintf("P%03d.u", i)), pkgBytes(t, uint32(i+1), nil, "Thing:Class"))
	}
	d, err := Open(filepath.Join(dir, "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	_, err = d.Add(ctx, filepath.Join(dir, "src"), AddOptions{Jobs: 1, Progress: func(int) func() {
		return func() {
			if n++; n == batchSize+1 {
				cancel()
			}
		}
	}})
	var ie *InterruptedError
	if !errors.Is(err, context.Canceled) || !errors.As(err, &ie) || ie.Done != batchSize || ie.Total != batchSize+8 {
		t.Fatalf("add: %v, want cancelled after %d of %d files", err, batchSize, batchSize+8)
	}
	srcs, err := d.Sources(context.Background())
	if err != nil || len(srcs) != 1 {
		t.Fatalf("sources: %v %v", srcs, err)
	}
	st, err := d.Stats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if srcs[0].Files == 0 || srcs[0].Files != st.Files || srcs[0].Packages != st.Packages {
		t.Errorf("list says %d files, %d packages; the index holds %d files, %d packages", srcs[0].Files, srcs[0].Packages, st.Files, st.Packages)
	}
}

// TestAddCancelledInsideMember cancels an add while it reads a member that
// expands to 1 GiB: it returns within two seconds of the cancel (the member
// stream checks the context), not after hashing the whole member. Under the
// race detector, which makes both making the member and reading it about
// ten times slower, the member is 256 MiB: still seconds to read.
func TestAddCancelledInsideMember(t *testing.T) {
	if testing.Short() {
		t.Skip("compresses 1 GiB")
	}
	size := int64(1 << 30)
	if raceEnabled {
		size = 256 << 20
	}
	dir := t.TempDir()
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, flate.BestSpeed) })
	w, _ := zw.Create("System/Big.u")
	w.Write(pkgBytes(t, 1, nil, "Thing:Class"))
	io.CopyN(w, zeroReader{}, size-1<<20)
	zw.Close()
	write(t, filepath.Join(dir, "big.zip"), zb.Bytes())
	d, err := Open(filepath.Join(dir, "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx, cancel := context.WithCancel(context.Background())
	var cancelled time.Time
	go func() {
		time.Sleep(300 * time.Millisecond)
		cancelled = time.Now()
		cancel()
	}()
	_, err = d.Add(ctx, filepath.Join(dir, "big.zip"), AddOptions{})
	took := time.Since(cancelled)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("add: %v, want cancelled", err)
	}
	if took > 2*time.Second {
		t.Errorf("add returned %v after the cancel", took)
	}
	t.Logf("returned %v after the cancel", took)
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestDiscard: Discard removes a database Open created, with its WAL
// files, and only closes one that existed before.
func TestDiscard(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "index.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	db.Discard()
	if err := db.Close(); err != nil {
		t.Errorf("Close after Discard: %v", err)
	}
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		if _, err := os.Lstat(path + suffix); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s%s after Discard: %v", path, suffix, err)
		}
	}
	db, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	db, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	db.Discard()
	ro, err := OpenReadOnly(path)
	if err != nil {
		t.Fatalf("a database that existed was removed: %v", err)
	}
	// Closed, or Windows refuses to remove the file at the test's end.
	ro.Close()
}
