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
