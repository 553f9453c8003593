package index

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"testing"

	"github.com/upkdeps/upkdeps/archive"
)

// FuzzAddFind indexes arbitrary bytes as a loose package and as the member
// of a zip, then finds them: Add never fails on the bytes (a bad file is
// an error row), a package it indexes is found by its name with the
// SHA-256 of the bytes, and a copy's bytes read back through CopyTo.
func FuzzAddFind(f *testing.F) {
	f.Add(pkgBytes(f, 1, []string{"Core"}, "Thing:Class", "Group.Tex:Engine.Texture"))
	f.Add(pkgBytes(f, 2, nil))
	f.Add([]byte("\xc1\x83\x2a\x9e\x45\x00\x00\x00"))
	// One database for every input (a new one per input makes the
	// fuzzer a hundred times slower); each input is a source of its own,
	// removed after it.
	d, err := Open(filepath.Join(f.TempDir(), "index.db"))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { d.Close() })
	// Nothing here survives a crash: no fsync at a checkpoint. And one
	// folder for every input, rewritten each time (a t.TempDir per input
	// was a third of an execution).
	if _, err := d.db.Exec("PRAGMA synchronous=OFF"); err != nil {
		f.Fatal(err)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		write(t, filepath.Join(dir, "src", "Fuzz.u"), data)
		write(t, filepath.Join(dir, "src", "in.zip"), zipBytes(t, map[string][]byte{"System/Zipped.u": data}))
		ctx := context.Background()
		res, err := d.Add(ctx, filepath.Join(dir, "src"), AddOptions{})
		if err != nil {
			t.Fatalf("add: %v", err)
		}
		defer d.Remove(ctx, filepath.Join(dir, "src"))
		sum := sha256.Sum256(data)
		for _, name := range []string{"fuzz", "zipped"} {
			ps, err := d.Find(ctx, Query{Name: name})
			if err != nil {
				t.Fatalf("find %s: %v", name, err)
			}
			if len(ps) > 1 {
				t.Fatalf("find %s: %d copies", name, len(ps))
			}
			if len(ps) == 0 {
				continue
			}
			if ps[0].SHA256 != hex.EncodeToString(sum[:]) || ps[0].Size != int64(len(data)) {
				t.Fatalf("%s: indexed %s, %d bytes; the bytes are %x, %d", name, ps[0].SHA256, ps[0].Size, sum, len(data))
			}
			var buf bytes.Buffer
			if _, err := CopyTo(ctx, &buf, &ps[0], archive.Limits{}); err != nil || !bytes.Equal(buf.Bytes(), data) {
				t.Fatalf("%s: CopyTo: %v", name, err)
			}
		}
		if res.Packages > 2 {
			t.Fatalf("%d packages from two copies", res.Packages)
		}
	})
}
