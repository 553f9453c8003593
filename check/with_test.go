package check

import (
	"archive/zip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestReadModCancelled: a cancelled context (Ctrl-C) stops reading a mod,
// archive or folder, before the next file.
func TestReadModCancelled(t *testing.T) {
	dir := t.TempDir()
	folder := filepath.Join(dir, "mod")
	if err := os.MkdirAll(filepath.Join(folder, "System"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(folder, "System", "Mod.int"), []byte("[Public]\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	zf, err := os.Create(filepath.Join(dir, "mod.zip"))
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(zf)
	w, _ := zw.Create("System/Mod.int")
	w.Write([]byte("[Public]\r\n"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	zf.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, src := range []string{zf.Name(), folder} {
		err := readMod(ctx, src, DefaultMaxHeld, func(string, []byte, error) error {
			t.Errorf("%s: a file was read after the cancel", src)
			return nil
		})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: have %v", src, err)
		}
	}
}

// TestHeldSameBytesOnce: a mod's members with the same bytes are held and
// counted once (a .umod's 200 entries on the same 10 MB held 2 GB), and
// the copy read for a member already held is the spare the next member is
// read into.
func TestHeldSameBytesOnce(t *testing.T) {
	h := newHeld(8)
	a := h.keep([]byte("abcd"))
	b := []byte("abcd")
	if got := h.keep(b); &got[0] != &a[0] || h.n != 4 || &h.spare[0] != &b[0] {
		t.Errorf("same bytes: held %d bytes, shared %v, spare %q", h.n, &got[0] == &a[0], h.spare)
	}
	if err := h.fits(4); err != nil {
		t.Errorf("4 more bytes of 8 after 4 held: %v", err)
	}
	c := h.keep(append(h.spare[:0], "wxyz"...))
	if string(a) != "abcd" || string(c) != "wxyz" || h.n != 8 || h.spare != nil {
		t.Errorf("held %q and %q (%d bytes), spare %q", a, c, h.n, h.spare)
	}
	if err := h.fits(1); err == nil {
		t.Error("one byte over the limit fits")
	}
}
