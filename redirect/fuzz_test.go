package redirect

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/upkdeps/upkdeps/internal/testutil"
	"github.com/upkdeps/upkdeps/uz"
)

// FuzzDecompressFile feeds damaged compressed packages to DecompressFile:
// it must never panic, and must either publish a file or leave the output
// folder empty.
func FuzzDecompressFile(f *testing.F) {
	img := packageImage(f, spec{exports: []string{"A:Class", "B:Class"}, payload: 40 << 10, guid: 5})
	var a, b bytes.Buffer
	zw, _ := uz.NewWriter(&a, "Seed.u", uz.Sig1234)
	zw.Write(img)
	zw.Close()
	z2 := uz.NewWriter2(&b, 1)
	z2.Write(img)
	z2.Close()
	f.Add(a.Bytes(), false)
	f.Add(b.Bytes(), true)
	f.Add(a.Bytes()[:len(a.Bytes())/2], false)
	f.Add(b.Bytes()[:chunkBorders(b.Bytes())[0]], true)
	f.Fuzz(func(t *testing.T, data []byte, uz2 bool) {
		dir := t.TempDir()
		name := "In.u.uz"
		if uz2 {
			name += "2"
		}
		in := filepath.Join(dir, name)
		writeRaw(t, in, data)
		out := filepath.Join(dir, "out")
		os.Mkdir(out, 0o755)
		res, err := DecompressFile(ctx, in, out, DecompressOptions{Limit: 4 << 20})
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
