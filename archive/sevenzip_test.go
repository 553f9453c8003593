package archive

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/upkdeps/upkdeps/internal/testutil"
)

// sevenZip runs the 7z tool (skipping when it is absent) to pack the
// files into a .7z with the extra switches, and returns its bytes.
func sevenZip(t testing.TB, files map[string][]byte, switches ...string) []byte {
	t.Helper()
	bin, err := exec.LookPath("7z")
	if err != nil {
		t.Skip("7z (p7zip-full) is not installed")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	for name, b := range files {
		p := filepath.Join(src, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "out.7z")
	cmd := exec.Command(bin, append(append([]string{"a", "-bd"}, switches...), out, ".")...)
	cmd.Dir = src
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("7z %v: %v\n%s", switches, err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// read7z walks a .7z in memory and returns "path=bytes or error" per
// member.
func read7z(t testing.TB, data []byte) map[string]string {
	t.Helper()
	got := map[string]string{}
	err := WalkReader(context.Background(), "t.7z", bytes.NewReader(data), int64(len(data)), Limits{}, func(m *Member) error {
		b, err := m.ReadAll()
		if err != nil {
			got[m.Path()] = "error: " + err.Error()
			return nil
		}
		got[m.Path()] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// Test7zCoders reads archives of every coder the package replaces (LZMA,
// LZMA2, PPMd; solid, several members) as 7z writes them: the capped
// decoders give the same bytes.
func Test7zCoders(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	// 300 KiB of text; under the race detector, which makes the LZMA and
	// PPMd decoders ten times slower, 100 KiB (the runs without it decode
	// the 300).
	text := make([]byte, 300<<10)
	if raceEnabled {
		text = text[:100<<10]
	}
	for i := range text {
		text[i] = "abcdefgh ijkl\n"[rng.IntN(14)]
	}
	files := map[string][]byte{"System/A.u": text, "System/B.u": []byte("bee"), "Maps/C.unr": text[1000:50000]}
	for _, sw := range [][]string{
		{"-m0=lzma2", "-mx=9"}, {"-m0=lzma:d=24"}, {"-m0=ppmd:mem=16m:o=8"}, {"-m0=lzma2:d=1m", "-ms=off"},
	} {
		got := read7z(t, sevenZip(t, files, sw...))
		for name, want := range files {
			if got[name] != string(want) {
				t.Errorf("%v: %s: have %.80q, want %d bytes", sw, name, got[name], len(want))
			}
		}
	}
}

// Test7zDictionaryUsed: an LZMA2 header declaring a 4 GiB dictionary for
// a few hundred KiB decodes with a dictionary of that size (the member
// reads), where the library allocated what the header said.
func Test7zDictionaryUsed(t *testing.T) {
	files := map[string][]byte{"System/A.u": bytes.Repeat([]byte("upkdeps "), 40<<10)}
	for _, prop := range []byte{38, 40} { // 2 GiB, 4 GiB - 1
		got := read7z(t, testutil.PatchLZMA2Dict(t, sevenZip(t, files, "-m0=lzma2", "-mhc=off"), prop))
		if got["System/A.u"] != string(files["System/A.u"]) {
			t.Errorf("dictionary byte %d: have %.200q", prop, got["System/A.u"])
		}
	}
}

// TestCoderDictionaryLimit: a coder whose header asks for more than
// MaxDictionary of memory for output larger than that is refused before
// anything is allocated, naming the declared size.
func TestCoderDictionaryLimit(t *testing.T) {
	in := func() []io.ReadCloser { return []io.ReadCloser{io.NopCloser(strings.NewReader(""))} }
	lzmaProps := binary.LittleEndian.AppendUint32([]byte{0x5d}, 1<<31)
	for _, tc := range []struct {
		name string
		new  func([]byte, uint64, []io.ReadCloser) (io.ReadCloser, error)
		p    []byte
		out  uint64
		want string
	}{
		{"LZMA2 2 GiB", newLZMA2, []byte{38}, 1 << 30, "2147483648-byte dictionary (2048 MiB)"},
		{"LZMA2 4 GiB", newLZMA2, []byte{40}, 300 << 20, "4294967295-byte dictionary"},
		{"LZMA 2 GiB", newLZMA, lzmaProps, 1 << 30, "2147483648-byte dictionary"},
		{"PPMd 1 GiB", newPPMd, binary.LittleEndian.AppendUint32([]byte{6}, 1<<30), 10, "1073741824-byte dictionary"},
		{"solid block", newLZMA2, []byte{16}, 17 << 30, "a solid block of 18253611008 bytes"},
	} {
		r, err := tc.new(tc.p, tc.out, in())
		if err == nil {
			r.Close()
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: have %v, want ErrLimit and %q", tc.name, err, tc.want)
		}
	}
	// Just under: 256 MiB of output with a 2 GiB dictionary is read.
	r, err := newLZMA2([]byte{38}, MaxDictionary, in())
	if err != nil {
		t.Errorf("256 MiB of output: %v", err)
	} else {
		r.Close()
	}
}

// TestZstdCoder: the Zstandard coder (7-Zip's zstd fork writes it; p7zip
// does not) decodes a stream, and a frame asking for a window over the
// cap fails.
func TestZstdCoder(t *testing.T) {
	want := bytes.Repeat([]byte("zstd "), 10000)
	var buf bytes.Buffer
	zw, _ := zstd.NewWriter(&buf)
	zw.Write(want)
	zw.Close()
	r, err := newZstd(nil, uint64(len(want)), []io.ReadCloser{io.NopCloser(bytes.NewReader(buf.Bytes()))})
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r)
	r.Close()
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("have %d bytes, %v", len(got), err)
	}
	// A frame header: magic, descriptor 0 (no size, window descriptor
	// follows), window descriptor 0xF8 (exponent 31+10: 2 TiB).
	frame := []byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, 0xF8, 0x01, 0x00, 0x00}
	r, err = newZstd(nil, 1, []io.ReadCloser{io.NopCloser(bytes.NewReader(frame))})
	if err == nil {
		_, err = io.ReadAll(r)
		r.Close()
	}
	if err == nil {
		t.Error("a 2 TiB window: no error")
	}
}
