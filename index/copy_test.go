package index

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/upkdeps/upkdeps/archive"
)

// TestCopyToPastMemberLimit: a loose package bigger than the archive
// member limit (1 GiB by default; 1 KiB here) is streamed whole and checks
// out, where reading it into memory under the limit cut it and called it
// "changed since it was indexed".
func TestCopyToPastMemberLimit(t *testing.T) {
	dir := t.TempDir()
	data := pkgBytes(t, 1, nil, "Big:Class")
	data = append(data, make([]byte, 8<<10)...) // trailing bytes the reader never looks at
	write(t, filepath.Join(dir, "src", "Big.u"), data)
	db, err := Open(filepath.Join(dir, "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if _, err := db.Add(ctx, filepath.Join(dir, "src"), AddOptions{}); err != nil {
		t.Fatal(err)
	}
	ps, err := db.Find(ctx, Query{Name: "big"})
	if err != nil || len(ps) != 1 {
		t.Fatalf("find: %v %v", ps, err)
	}
	var buf bytes.Buffer
	if _, err := CopyTo(ctx, &buf, &ps[0], archive.Limits{MaxMemberSize: 1 << 10}); err != nil || !bytes.Equal(buf.Bytes(), data) {
		t.Fatalf("CopyTo: %v (%d of %d bytes)", err, buf.Len(), len(data))
	}
	// A cancelled context stops the copy.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := CopyTo(cctx, &buf, &ps[0], archive.Limits{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: have %v", err)
	}
	// Same size, other bytes: ErrChanged; ForgetContent makes Add read it again.
	data[len(data)-1] = 1
	st, _ := os.Stat(filepath.Join(dir, "src", "Big.u"))
	write(t, filepath.Join(dir, "src", "Big.u"), data)
	os.Chtimes(filepath.Join(dir, "src", "Big.u"), st.ModTime(), st.ModTime())
	if _, err := CopyTo(ctx, &buf, &ps[0], archive.Limits{}); !errors.Is(err, ErrChanged) {
		t.Errorf("changed: have %v", err)
	}
	if err := db.ForgetContent(ctx, &ps[0]); err != nil {
		t.Fatal(err)
	}
	res, err := db.Add(ctx, filepath.Join(dir, "src"), AddOptions{})
	if err != nil || res.Read != 1 {
		t.Errorf("re-add after ForgetContent: %+v %v", res, err)
	}
	os.Remove(filepath.Join(dir, "src", "Big.u"))
	if _, err := CopyTo(ctx, &buf, &ps[0], archive.Limits{}); !errors.Is(err, ErrGone) {
		t.Errorf("gone: have %v", err)
	}
}
