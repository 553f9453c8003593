package check

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/format"
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
		err := readMod(ctx, src, func(string, io.ReaderAt, int64, error) error {
			t.Errorf("%s: a file was read after the cancel", src)
			return nil
		})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: have %v", src, err)
		}
	}
}

// TestKeepTables: check --with holds a mod's package as the ranges of its
// header and tables (the graph reads nothing else), not its bytes: a
// package of 64 MiB of serial data holds a few hundred bytes, it reads as
// the whole package did, and a read of its serial data is an error naming
// the offset.
func TestKeepTables(t *testing.T) {
	b := format.NewBuilder(69, 0)
	b.File.GUID = format.GUID{1, 2, 3, 4}
	b.ImportSpec("Engine.Actor:Core.Class")
	b.ExportSpec("Thing:Class", 64<<20)
	data, err := format.Marshal(b.File)
	if err != nil {
		t.Fatal(err)
	}
	tb, f, err := keepTables("System/Big.u", bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if tb.held > 64<<10 || tb.Size() != int64(len(data)) || f.GUID != b.File.GUID {
		t.Errorf("holds %d of %d bytes (size %d), GUID %v", tb.held, len(data), tb.Size(), f.GUID)
	}
	again, err := format.NewFile(tb, tb.Size())
	if err != nil || len(again.Imports) != 2 || len(again.Exports) != 1 || again.Exports[0].SerialSize != 64<<20 {
		t.Errorf("read again from the tables: %v, %+v", err, again)
	}
	var rd format.Reader
	if _, err := rd.ViewAt(tb, tb.Size(), "Big.u"); err != nil {
		t.Errorf("viewed from the tables: %v", err)
	}
	off := int64(f.Exports[0].SerialOffset)
	if _, err := tb.ReadAt(make([]byte, 16), off); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("offset %d of the %d-byte package is not held", off, len(data))) {
		t.Errorf("serial data at %d: have %v", off, err)
	}
}

// TestRunWithHeldLimit: the tables of a mod's packages are held in memory
// up to WithOptions.MaxHeld in all; those past it are listed as not
// checked, the others are checked.
func TestRunWithHeldLimit(t *testing.T) {
	in := openDemo(t)
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	held := int64(0)
	for i, name := range []string{"System/ModA.u", "System/ModB.u", "System/ModC.u"} {
		b := format.NewBuilder(69, 0)
		b.File.GUID = format.GUID{uint32(i + 1), 2, 3, 4} // different bytes: the same bytes are held once
		b.ImportSpec("Engine.Actor:Core.Class")
		b.ExportSpec("Thing:Class", 64)
		data, err := format.Marshal(b.File)
		if err != nil {
			t.Fatal(err)
		}
		tb, _, err := keepTables(name, bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		if i < 2 {
			held += tb.held
		}
		w, _ := zw.Create(name)
		w.Write(data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	mod := filepath.Join(t.TempDir(), "mod.zip")
	if err := os.WriteFile(mod, zb.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := RunWith(context.Background(), in, nil, mod, WithOptions{Options: Options{Jobs: 2}, MaxHeld: held})
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("not checked: the tables of the mod's packages would hold more than %d bytes in memory", held)
	if len(w.Unreadable) != 1 || w.Unreadable[0].Member != "System/ModC.u" || w.Unreadable[0].Error != want || len(w.Packages) != 2 || !w.Fails() {
		t.Errorf("unreadable %+v, %d packages; want System/ModC.u: %q and 2", w.Unreadable, len(w.Packages), want)
	}
}
