package redirect

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/internal/testutil"
	"github.com/upkdeps/upkdeps/uz"
)

var ctx = context.Background()

func TestCompressRoundTrip(t *testing.T) {
	big := packageImage(t, spec{exports: []string{"A:Class", "B:Class"}, payload: 300 << 10, guid: 3})
	for _, tc := range []struct {
		name string
		data []byte
		kind uz.Kind
		sig  int32
	}{
		{"Empty.u", nil, uz.KindUZ, 0},
		{"One.u", []byte{7}, uz.KindUZ2, 0},
		{"Block.u", bytes.Repeat([]byte("abcdefgh"), 32768/8), uz.KindUZ2, 0},
		{"Big.u", big, uz.KindUZ, uz.Sig1234},
		{"Big.u", big, uz.KindUZ, uz.Sig5678},
		{"Big.u", big, uz.KindUZ2, 0},
	} {
		t.Run(fmt.Sprintf("%s-%v-%d", tc.name, tc.kind, tc.sig), func(t *testing.T) {
			dir := t.TempDir()
			src := filepath.Join(dir, tc.name)
			writeRaw(t, src, tc.data)
			dst := filepath.Join(dir, uz.CompressedName(tc.name, tc.kind))
			res, err := CompressFile(ctx, src, dst, CompressOptions{Kind: tc.kind, Signature: tc.sig, AllowBigger: true})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != Created || res.Size != int64(len(tc.data)) || res.SHA256 != sum(tc.data) {
				t.Errorf("compress result %+v", res)
			}
			out := filepath.Join(dir, "out")
			os.Mkdir(out, 0o755)
			dres, err := DecompressFile(ctx, dst, out, DecompressOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if have := readRaw(t, filepath.Join(out, tc.name)); !bytes.Equal(have, tc.data) {
				t.Errorf("round trip differs: %d bytes, want %d", len(have), len(tc.data))
			}
			// A .uz2 of a non-package cannot be checked for completeness.
			wantWarn := tc.kind == uz.KindUZ2 && tc.name != "Big.u"
			if dres.Dst != filepath.Join(out, tc.name) || dres.SHA256 != res.SHA256 || dres.CompressedSHA256 != res.CompressedSHA256 ||
				(len(dres.Warnings) > 0) != wantWarn {
				t.Errorf("decompress result %+v", dres)
			}
			// Again: unchanged; the different existing file is refused.
			if again, err := CompressFile(ctx, src, dst, CompressOptions{Kind: tc.kind, Signature: tc.sig, AllowBigger: true}); err != nil || again.Status != Unchanged {
				t.Errorf("second compress: %v, %+v", err, again)
			}
			writeRaw(t, filepath.Join(out, tc.name), []byte("something else"))
			_, err = DecompressFile(ctx, dst, out, DecompressOptions{})
			var ee *ExistsError
			if !errors.Is(err, ErrExists) || !errors.As(err, &ee) || ee.Path != filepath.Join(out, tc.name) {
				t.Errorf("decompress over a different file: have %v, want an *ExistsError", err)
			}
			if r, err := DecompressFile(ctx, dst, out, DecompressOptions{DryRun: true, Force: true}); err != nil || r.Status != Replaced {
				t.Errorf("dry run with force: %v %+v", err, r)
			}
			if string(readRaw(t, filepath.Join(out, tc.name))) != "something else" {
				t.Errorf("dry run wrote")
			}
			if _, err := DecompressFile(ctx, dst, out, DecompressOptions{Force: true}); err != nil {
				t.Errorf("forced decompress: %v", err)
			}
		})
	}
}

func TestCompressRefusesBigger(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "Noise.u")
	writeRaw(t, src, packageImage(t, spec{exports: []string{"N:Class"}, payload: 2000, random: true}))
	dst := src + ".uz"
	_, err := CompressFile(ctx, src, dst, CompressOptions{})
	var be *BiggerError
	if !errors.As(err, &be) || !errors.Is(err, ErrBigger) || be.Compressed <= be.Size || !strings.Contains(err.Error(), "v469") {
		t.Fatalf("have %v, want a BiggerError", err)
	}
	if have := testutil.DirNames(t, dir); !slices.Equal(have, []string{"Noise.u"}) {
		t.Errorf("files left: %v", have)
	}
	// .uz2 has no such limit (UE2 clients cope); --allow-bigger publishes.
	if _, err := CompressFile(ctx, src, src+".uz2", CompressOptions{Kind: uz.KindUZ2}); err != nil {
		t.Errorf(".uz2: %v", err)
	}
	if _, err := CompressFile(ctx, src, dst, CompressOptions{AllowBigger: true}); err != nil {
		t.Errorf("AllowBigger: %v", err)
	}
}

func TestCompressNotAPackage(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "readme.txt")
	writeRaw(t, src, []byte("hello"))
	if _, err := CompressFile(ctx, src, src+".uz", CompressOptions{}); err == nil || !strings.Contains(err.Error(), "not an unreal package") {
		t.Errorf("have %v, want a not-a-package error", err)
	}
	if _, err := CompressFile(ctx, src, src+".uz2", CompressOptions{Kind: uz.KindUZ2}); err != nil {
		t.Errorf("explicit format: %v", err)
	}
}

// chunkBorders returns the offsets of every chunk header of a .uz2 after
// the first.
func chunkBorders(b []byte) []int {
	var out []int
	for off := 0; off+8 <= len(b); {
		off += 8 + int(binary.LittleEndian.Uint32(b[off:]))
		if off < len(b) {
			out = append(out, off)
		}
	}
	return out
}

// TestDecompressCorrupt cuts and damages real compressed packages: every
// case must fail with the file name and an offset, and leave no file.
func TestDecompressCorrupt(t *testing.T) {
	img := packageImage(t, spec{exports: []string{"A:Class", "B:Class"}, payload: 300 << 10, guid: 9})
	dir := t.TempDir()
	src := filepath.Join(dir, "Pkg.u")
	writeRaw(t, src, img)
	for _, kind := range []uz.Kind{uz.KindUZ, uz.KindUZ2} {
		packed := filepath.Join(dir, uz.CompressedName("Pkg.u", kind))
		if _, err := CompressFile(ctx, src, packed, CompressOptions{Kind: kind}); err != nil {
			t.Fatal(err)
		}
		good := readRaw(t, packed)
		type bad struct {
			name string
			data []byte
		}
		var cases []bad
		cuts := []int{0, 1, 3, 4, 6, 10, 20, len(good) / 3, len(good) / 2, len(good) - 1}
		if kind == uz.KindUZ2 {
			cuts = append(cuts, chunkBorders(good)...)
			for _, b := range chunkBorders(good)[:3] {
				cuts = append(cuts, b+4, b+9)
			}
		}
		for _, c := range cuts {
			cases = append(cases, bad{fmt.Sprintf("cut at %d", c), good[:c]})
		}
		for _, off := range []int{15, 25, 40, len(good) / 4, len(good) * 3 / 4} {
			b := slices.Clone(good)
			b[off] ^= 0x04
			cases = append(cases, bad{fmt.Sprintf("bit flipped at %d", off), b})
		}
		if kind == uz.KindUZ2 {
			b := slices.Clone(good)
			binary.LittleEndian.PutUint32(b, 40000) // chunk size over the maximum
			cases = append(cases, bad{"oversized chunk", b})
		}
		for _, tc := range cases {
			work := t.TempDir()
			in := filepath.Join(work, uz.CompressedName("Pkg.u", kind))
			writeRaw(t, in, tc.data)
			out := filepath.Join(work, "out")
			os.Mkdir(out, 0o755)
			res, err := DecompressFile(ctx, in, out, DecompressOptions{Workers: 3})
			// One goroutine or several: the same result, the same error.
			res1, err1 := DecompressFile(ctx, in, out, DecompressOptions{Workers: 1, Force: true})
			if fmt.Sprint(err1) != fmt.Sprint(err) || (res1 == nil) != (res == nil) || res != nil && res1.SHA256 != res.SHA256 {
				t.Errorf("%v %s: 1 worker: %v, several: %v", kind, tc.name, err1, err)
			}
			if err == nil {
				// A flipped tree bit can leave the output intact: then the
				// tree is not the engine's and says so.
				if !bytes.Equal(readRaw(t, res.Dst), img) || len(res.Warnings) == 0 {
					t.Errorf("%v %s: undetected corruption (warnings %q)", kind, tc.name, res.Warnings)
				}
				continue
			}
			if !strings.Contains(err.Error(), in) || !strings.Contains(err.Error(), "offset") {
				t.Errorf("%v %s: error %q lacks the file name or the offset", kind, tc.name, err)
			}
			if left := testutil.DirNames(t, out); len(left) > 0 {
				t.Errorf("%v %s: files left behind: %v", kind, tc.name, left)
			}
		}
	}
}

func TestDecompressNames(t *testing.T) {
	data := packageImage(t, spec{exports: []string{"A:Class"}, payload: 1000})
	for _, tc := range []struct {
		embedded, input, want string
		warn                  bool
	}{
		{"Mod.u", "download.uz", "Mod.u", false},
		{"../../System/Core.u", "Evil.u.uz", "Evil.u", true},
		{`..\..\System\Core.u`, "Evil.u.uz", "Evil.u", true},
		{"/etc/passwd", "Evil.u.UZ", "Evil.u", true},
		{"C:Core.u", "Evil.u.uz", "Evil.u", true},
		{"CON", "Evil.u.uz", "Evil.u", true},
		{"Core.u.", "Evil.u.uz", "Evil.u", true},
		{"bad\x01name.u", "0000.tmp", "", true}, // the output would replace the input
	} {
		dir := t.TempDir()
		var buf bytes.Buffer
		zw, err := uz.NewWriter(&buf, tc.embedded, uz.Sig1234)
		if err != nil {
			t.Fatalf("%q: %v", tc.embedded, err)
		}
		zw.Write(data)
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		in := filepath.Join(dir, tc.input)
		writeRaw(t, in, buf.Bytes())
		res, err := DecompressFile(ctx, in, dir, DecompressOptions{})
		if tc.want == "" {
			if err == nil || !strings.Contains(err.Error(), "replace the input") {
				t.Errorf("%q: have %v, want a refusal", tc.embedded, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.embedded, err)
			continue
		}
		if res.Dst != filepath.Join(dir, tc.want) || (len(res.Warnings) > 0) != tc.warn {
			t.Errorf("%q: wrote %s (warnings %q), want %s", tc.embedded, res.Dst, res.Warnings, tc.want)
		}
		if have := testutil.DirNames(t, dir); !slices.Equal(have, sorted(tc.input, tc.want)) {
			t.Errorf("%q: folder holds %v", tc.embedded, have)
		}
	}
}

func sorted(s ...string) []string {
	slices.Sort(s)
	return s
}

func TestDecompressNotCompressed(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "notes.txt")
	writeRaw(t, in, []byte("just text, long enough to look at"))
	out := filepath.Join(dir, "out")
	os.Mkdir(out, 0o755)
	if _, err := DecompressFile(ctx, in, out, DecompressOptions{}); err == nil || !strings.Contains(err.Error(), "not a .uz or .uz2") {
		t.Errorf("have %v", err)
	}
	// A .uz2 of something that is not a package decodes with a warning.
	src := filepath.Join(dir, "notes2.txt")
	writeRaw(t, src, bytes.Repeat([]byte("text "), 10000))
	if _, err := CompressFile(ctx, src, src+".uz2", CompressOptions{Kind: uz.KindUZ2}); err != nil {
		t.Fatal(err)
	}
	res, err := DecompressFile(ctx, src+".uz2", out, DecompressOptions{})
	if err != nil || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "cannot be checked") {
		t.Errorf("non-package .uz2: %v, %+v", err, res)
	}
	// An empty .uz2 is what a failed download leaves.
	writeRaw(t, filepath.Join(dir, "Empty.u.uz2"), nil)
	if _, err := DecompressFile(ctx, filepath.Join(dir, "Empty.u.uz2"), out, DecompressOptions{}); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("empty .uz2: have %v", err)
	}
	// The output limit.
	if _, err := DecompressFile(ctx, src+".uz2", out, DecompressOptions{Limit: 1000, Force: true}); !errors.Is(err, uz.ErrLimit) {
		t.Errorf("limit: have %v, want ErrLimit", err)
	}
}
