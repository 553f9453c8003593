package redirect

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/upkdeps/upkdeps/internal/fsutil"
	"github.com/upkdeps/upkdeps/internal/testutil"
	"github.com/upkdeps/upkdeps/uz"
)

// FuzzDecompressFile feeds damaged compressed packages to DecompressFile:
// it must never panic, and must either publish a file or leave the output
// folder empty.
func FuzzDecompressFile(f *testing.F) {
	// Small seeds: the fuzzer minimises every input that finds new
	// coverage, for up to a minute each, at a cost that grows with its
	// size; seeds of a few hundred bytes keep that to seconds. The .uz2 of
	// two chunks, cut at the border, is the small package followed by
	// zeros (its 40 KiB of generated payload made a 5 KB seed, whose
	// mutants took the fuzzer's whole time minimising: 80 executions in
	// 45 s).
	small := packageImage(f, spec{exports: []string{"A:Class", "B:Class"}, payload: 512, guid: 5})
	two := append(bytes.Clone(small), make([]byte, 40<<10)...)
	pack := func(img []byte, uz2 bool) []byte {
		var b bytes.Buffer
		if uz2 {
			w := uz.NewWriter2(&b, 1)
			w.Write(img)
			w.Close()
		} else {
			w, _ := uz.NewWriter(&b, "Seed.u", uz.Sig1234)
			w.Write(img)
			w.Close()
		}
		return b.Bytes()
	}
	a, b := pack(small, false), pack(small, true)
	f.Add(a, false)
	f.Add(b, true)
	f.Add(a[:len(a)/2], false)
	f.Add(b[:len(b)/2], true)
	b2 := pack(two, true)
	f.Add(b2[:chunkBorders(b2)[0]], true)
	// An fsync per execution would be most of the fuzzer's time, and
	// nothing here survives a crash anyway.
	sync := fsutil.SyncFile
	fsutil.SyncFile = func(*os.File) error { return nil }
	f.Cleanup(func() { fsutil.SyncFile = sync })
	// One folder for every execution (a t.TempDir per execution, created
	// and removed, was most of an execution's time): the input is
	// rewritten and the output folder emptied each time.
	dir := f.TempDir()
	out := filepath.Join(dir, "out")
	f.Fuzz(func(t *testing.T, data []byte, uz2 bool) {
		name := "In.u.uz"
		if uz2 {
			name += "2"
		}
		in := filepath.Join(dir, name)
		writeRaw(t, in, data)
		os.RemoveAll(out)
		if err := os.Mkdir(out, 0o755); err != nil {
			t.Fatal(err)
		}
		// One goroutine: the decoder's workers cost goroutines per input
		// and can make its coverage vary with their scheduling; with one,
		// 29,636 executions in 45 s against 21,988, run back to back.
		// The output does not depend on them (TestDecompressCorrupt).
		res, err := DecompressFile(ctx, in, out, DecompressOptions{Limit: 4 << 20, Workers: 1})
		left := testutil.DirNames(t, out)
		switch {
		case err != nil && len(left) > 0:
			t.Fatalf("error %v, yet files left: %v", err, left)
		case err == nil && (len(left) != 1 || filepath.Join(out, left[0]) != res.Dst):
			t.Fatalf("success, but the folder holds %v (result %s)", left, res.Dst)
		}
	})
}

// FuzzManifest checks that parseManifest never panics and accepts only
// entries it can use.
func FuzzManifest(f *testing.F) {
	m := &Manifest{SchemaVersion: 1, Entries: []ManifestEntry{{Name: "A", File: "A.u", GUID: "0123456789ABCDEF0123456789ABCDEF",
		Size: 10, SHA256: "x", CompressedFile: "A.u.uz", CompressedSize: 5}}}
	f.Add(m.marshal())
	f.Add([]byte(`{"schema_version": 1, "entries": [{"name": "x", "file": "../x", "compressed_file": "y"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := parseManifest(data)
		if err != nil {
			return
		}
		for _, e := range m.Entries {
			if e.Name == "" || e.Size < 0 {
				t.Fatalf("accepted %+v", e)
			}
		}
	})
}
