package archive

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// zipOf writes a .zip with the given members (name -> content) in order.
func zipOf(t testing.TB, members ...[2]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, m := range members {
		w, err := zw.Create(m[0])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(m[1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func umodOf(t testing.TB, members ...[2]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	u := NewUMODWriter(&buf)
	for _, m := range members {
		if err := u.Add(m[0], []byte(m[1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := u.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

type seen struct {
	path, content string
	err           error
}

func walkAll(t testing.TB, name string, data []byte, lim Limits) ([]seen, error) {
	t.Helper()
	var out []seen
	err := WalkReader(context.Background(), name, bytes.NewReader(data), int64(len(data)), lim, func(m *Member) error {
		s := seen{path: m.Path(), err: m.Err}
		if m.Err == nil {
			b, err := m.ReadAll()
			s.content, s.err = string(b), err
		}
		out = append(out, s)
		return nil
	})
	return out, err
}

func TestWalkKinds(t *testing.T) {
	inner := zipOf(t, [2]string{"System/Inner.u", "inner bytes"})
	tests := []struct {
		name string
		data []byte
		want []string
	}{
		{"mod.zip", zipOf(t, [2]string{"System/A.u", "aaa"}, [2]string{"Textures/B.utx", "bb"}, [2]string{"pack.zip", string(inner)}),
			[]string{"System/A.u=aaa", "Textures/B.utx=bb", "pack.zip!System/Inner.u=inner bytes"}},
		{"mod.umod", umodOf(t, [2]string{`System\A.u`, "aaa"}, [2]string{`System\Manifest.ini`, "[Setup]"}, [2]string{"in.zip", string(inner)}),
			[]string{"System/A.u=aaa", "System/Manifest.ini=[Setup]", "in.zip!System/Inner.u=inner bytes"}},
		{"mod.ut2mod", umodOf(t), nil},
	}
	for _, tt := range tests {
		got, err := walkAll(t, tt.name, tt.data, Limits{})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		var have []string
		for _, s := range got {
			if s.err != nil {
				t.Errorf("%s: %s: %v", tt.name, s.path, s.err)
			}
			have = append(have, s.path+"="+s.content)
		}
		if strings.Join(have, "|") != strings.Join(tt.want, "|") {
			t.Errorf("%s:\nhave %q\nwant %q", tt.name, have, tt.want)
		}
	}
}

func TestHostileNames(t *testing.T) {
	data := zipOf(t, [2]string{"../evil.u", "x"}, [2]string{"/abs.u", "x"}, [2]string{`C:\win.u`, "x"},
		[2]string{`a\..\..\b.u`, "x"}, [2]string{"ok/fine.u", "ok"})
	got, err := walkAll(t, "hostile.zip", data, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 5 {
		t.Fatalf("have %d members, want 5", len(got))
	}
	for _, s := range got[:4] {
		if !errors.Is(s.err, ErrInsecurePath) {
			t.Errorf("%s: have error %v, want ErrInsecurePath", s.path, s.err)
		}
	}
	if got[4].err != nil || got[4].content != "ok" {
		t.Errorf("the local member: have %q, %v", got[4].content, got[4].err)
	}
}

// bombZip stores a deflated member of n zero bytes whose header declares
// only declared bytes.
func bombZip(t testing.TB, n, declared int) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: "bomb.u", Method: zip.Deflate})
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 1<<20)
	for left := n; left > 0; left -= len(chunk) {
		w.Write(chunk[:min(left, len(chunk))])
	}
	zw.Close()
	data := buf.Bytes()
	// Patch the declared uncompressed size in both headers.
	patch := func(sig string, off int) {
		for i := 0; ; {
			j := bytes.Index(data[i:], []byte(sig))
			if j < 0 {
				return
			}
			p := i + j + off
			data[p], data[p+1], data[p+2], data[p+3] = byte(declared), byte(declared>>8), byte(declared>>16), byte(declared>>24)
			i = p
		}
	}
	patch("PK\x03\x04", 22)
	patch("PK\x01\x02", 24)
	return data
}

func TestZipBomb(t *testing.T) {
	// 64 MiB of zeros that claim to be 1 KiB: reading stops at the claim.
	// Under the race detector, which makes deflating the fixture ten times
	// slower, 8 MiB: still 8,192 times the claim.
	size, honestSize := 64<<20, 8<<20
	if raceEnabled {
		size, honestSize = 8<<20, 2<<20
	}
	data := bombZip(t, size, 1024)
	got, err := walkAll(t, "bomb.zip", data, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].err == nil {
		t.Fatalf("have %+v, want one member with an error", got)
	}
	// The honest declaration over the member limit cannot be opened.
	honest := bombZip(t, honestSize, honestSize)
	got, err = walkAll(t, "bomb.zip", honest, Limits{MaxMemberSize: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !errors.Is(got[0].err, ErrLimit) {
		t.Fatalf("have %+v, want ErrLimit", got)
	}
}

func TestManyMembers(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := range 100_000 {
		if _, err := zw.CreateHeader(&zip.FileHeader{Name: "f" + strings.Repeat("x", i%3), Method: zip.Store}); err != nil {
			t.Fatal(err)
		}
	}
	zw.Close()
	n := 0
	err := WalkReader(context.Background(), "many.zip", bytes.NewReader(buf.Bytes()), int64(buf.Len()), Limits{}, func(m *Member) error { n++; return nil })
	if !errors.Is(err, ErrLimit) {
		t.Fatalf("have %v, want ErrLimit", err)
	}
	if n != 0 {
		t.Errorf("%d members walked before the count was refused", n)
	}
	// The same through a umod directory.
	var files [][2]string
	for range 30_000 {
		files = append(files, [2]string{"a", ""})
	}
	u := umodOf(t, files...)
	if _, err := walkAll(t, "many.umod", u, Limits{}); !errors.Is(err, ErrLimit) {
		t.Fatalf("umod: have %v, want ErrLimit", err)
	}
}

func TestUMODMalformed(t *testing.T) {
	good := umodOf(t, [2]string{"System/A.u", "aaa"})
	dirOff := 3
	tests := []struct {
		name string
		edit func([]byte) []byte
		want string
	}{
		{"short", func(b []byte) []byte { return b[:10] }, "too short"},
		{"magic", func(b []byte) []byte { b[len(b)-20] ^= 1; return b }, "no UMOD trailer"},
		{"size", func(b []byte) []byte { b[len(b)-12]++; return b }, "the trailer says"},
		{"dir offset", func(b []byte) []byte { b[len(b)-16] = 0xff; return b }, "past the trailer"},
		{"count", func(b []byte) []byte { b[dirOff] = 0x3f; return b }, "does not fit"},
		{"name length", func(b []byte) []byte { b[dirOff+1] = 0x3f; return b }, "truncated"},
		{"file range", func(b []byte) []byte { b[len(b)-20-8] = 0xff; return b }, "run past"},
	}
	for _, tt := range tests {
		b := tt.edit(append([]byte(nil), good...))
		_, err := ReadUMODDirectory(bytes.NewReader(b), int64(len(b)))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: have %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestCorruptNested(t *testing.T) {
	data := zipOf(t, [2]string{"bad.zip", "not a zip at all"}, [2]string{"A.u", "a"})
	got, err := walkAll(t, "outer.zip", data, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].err == nil || got[0].path != "bad.zip" || got[1].err != nil {
		t.Fatalf("have %+v, want an error for bad.zip and A.u read", got)
	}
}

// Test7z makes a .7z with the p7zip tool when it is installed (.ci/run
// installs it); no Go library writes .7z.
func Test7z(t *testing.T) {
	bin, err := exec.LookPath("7z")
	if err != nil {
		t.Skip("7z (p7zip-full) is not installed: the .7z reader is not tested")
	}
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "src", "System"), 0o755)
	os.WriteFile(filepath.Join(dir, "src", "System", "A.u"), []byte("seven"), 0o644)
	os.WriteFile(filepath.Join(dir, "src", "in.zip"), zipOf(t, [2]string{"B.u", "bee"}), 0o644)
	out := filepath.Join(dir, "mod.7z")
	cmd := exec.Command(bin, "a", "-bd", out, ".")
	cmd.Dir = filepath.Join(dir, "src")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("7z: %v\n%s", err, b)
	}
	var have []string
	err = Walk(context.Background(), out, Limits{}, func(m *Member) error {
		b, err := m.ReadAll()
		if err != nil {
			t.Errorf("%s: %v", m.Path(), err)
		}
		have = append(have, m.Path()+"="+string(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(have, "|") != "System/A.u=seven|in.zip!B.u=bee" && strings.Join(have, "|") != "in.zip!B.u=bee|System/A.u=seven" {
		t.Errorf("have %q", have)
	}
	// -spf stores the absolute path: the member is refused.
	abs := filepath.Join(dir, "abs.7z")
	if b, err := exec.Command(bin, "a", "-bd", "-spf", abs, filepath.Join(dir, "src", "System", "A.u")).CombinedOutput(); err != nil {
		t.Fatalf("7z -spf: %v\n%s", err, b)
	}
	n := 0
	err = Walk(context.Background(), abs, Limits{}, func(m *Member) error {
		n++
		if !errors.Is(m.Err, ErrInsecurePath) {
			t.Errorf("%s: have %v, want ErrInsecurePath", m.Name, m.Err)
		}
		return nil
	})
	if err != nil || n != 1 {
		t.Errorf("abs.7z: %d members, %v", n, err)
	}
	// A bomb: 8 MiB of zeros (a few KiB packed) against a 1 MiB member
	// limit: the member is refused, the walk goes on.
	bombDir := filepath.Join(dir, "bomb")
	os.MkdirAll(bombDir, 0o755)
	os.WriteFile(filepath.Join(bombDir, "Zero.utx"), make([]byte, 8<<20), 0o644)
	os.WriteFile(filepath.Join(bombDir, "Small.u"), []byte("ok"), 0o644)
	bomb := filepath.Join(dir, "bomb.7z")
	cmd = exec.Command(bin, "a", "-bd", bomb, ".")
	cmd.Dir = bombDir
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("7z bomb: %v\n%s", err, b)
	}
	if st, _ := os.Stat(bomb); st.Size() > 1<<20 {
		t.Fatalf("the bomb is %d bytes: not a bomb", st.Size())
	}
	results := map[string]error{}
	err = Walk(context.Background(), bomb, Limits{MaxMemberSize: 1 << 20}, func(m *Member) error {
		if m.Err != nil {
			results[m.Path()] = m.Err
			return nil
		}
		_, err := m.ReadAll()
		results[m.Path()] = err
		return nil
	})
	if err != nil || !errors.Is(results["Zero.utx"], ErrLimit) || results["Small.u"] != nil {
		t.Errorf("bomb.7z: %v, members %v", err, results)
	}
	// More members than allowed: refused before any is read.
	manyDir := filepath.Join(dir, "many")
	os.MkdirAll(manyDir, 0o755)
	for i := range 40 {
		os.WriteFile(filepath.Join(manyDir, "f"+strconv.Itoa(i)+".u"), []byte("x"), 0o644)
	}
	many := filepath.Join(dir, "many.7z")
	cmd = exec.Command(bin, "a", "-bd", many, ".")
	cmd.Dir = manyDir
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("7z many: %v\n%s", err, b)
	}
	n = 0
	err = Walk(context.Background(), many, Limits{MaxMembers: 30}, func(m *Member) error { n++; return nil })
	if !errors.Is(err, ErrLimit) || n != 0 {
		t.Errorf("many.7z: %d members walked, %v; want ErrLimit before any", n, err)
	}
	// The tool compresses headers: the size they unpack to is read from
	// their streams info, before the library unpacks them.
	for _, f := range []string{out, bomb, many} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if n, ok := sevenZipEncodedHeaderSize(bytes.NewReader(data), int64(len(data))); !ok || n < 20 || n > 4<<10 {
			t.Errorf("%s: encoded header of %d bytes (%v), want its small size read", filepath.Base(f), n, ok)
		}
	}
}

func TestRAR(t *testing.T) {
	data := rarOf(t, [2]string{`System\A.u`, "rar bytes"}, [2]string{"..\\evil.u", "x"}, [2]string{"in.zip", string(zipOf(t, [2]string{"B.u", "bee"}))})
	got, err := walkAll(t, "mod.rar", data, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].path != "System/A.u" || got[0].content != "rar bytes" || got[0].err != nil ||
		!errors.Is(got[1].err, ErrInsecurePath) || got[2].path != "in.zip!B.u" || got[2].content != "bee" {
		t.Fatalf("have %+v", got)
	}
}

func TestWalkStops(t *testing.T) {
	data := zipOf(t, [2]string{"A.u", "a"}, [2]string{"B.u", "b"})
	stop := errors.New("stop")
	n := 0
	err := WalkReader(context.Background(), "x.zip", bytes.NewReader(data), int64(len(data)), Limits{}, func(m *Member) error { n++; return stop })
	if err != stop || n != 1 {
		t.Fatalf("have %v after %d members, want the walk function's error after 1", err, n)
	}
	if err := Walk(context.Background(), "nothing.txt", Limits{}, nil); err == nil {
		t.Error("a non-archive name was walked")
	}
	_ = io.EOF
}

// TestRARHostile: a stored member that holds more bytes than it declares
// stops at the declaration; an absolute name is refused.
func TestRARHostile(t *testing.T) {
	data := rarDeclaring(t, map[string]uint32{"big.u": 16}, [2]string{"/etc/abs.u", "x"}, [2]string{"big.u", strings.Repeat("z", 4096)})
	got, err := walkAll(t, "hostile.rar", data, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || !errors.Is(got[0].err, ErrInsecurePath) {
		t.Fatalf("have %+v", got)
	}
	if got[1].err == nil || len(got[1].content) > 16 {
		t.Errorf("big.u read %d bytes with a 16-byte declaration (%v)", len(got[1].content), got[1].err)
	}
}

// sparseUMOD is a UMOD of size bytes, all zero but its trailer, which puts
// the directory at offset 0.
type sparseUMOD struct{ size int64 }

func (s sparseUMOD) ReadAt(p []byte, off int64) (int, error) {
	var t [umodTrailerSize]byte
	binary.LittleEndian.PutUint32(t[0:], umodMagic)
	binary.LittleEndian.PutUint32(t[8:], uint32(s.size))
	n := 0
	for i := range p {
		pos := off + int64(i)
		if pos >= s.size {
			return n, io.EOF
		}
		p[i] = 0
		if k := pos - (s.size - umodTrailerSize); k >= 0 {
			p[i] = t[k]
		}
		n++
	}
	return n, nil
}

func TestUMODHugeDirectory(t *testing.T) {
	_, err := ReadUMODDirectory(sparseUMOD{100 << 20}, 100<<20)
	if err == nil || !strings.Contains(err.Error(), "over the") {
		t.Fatalf("have %v, want the directory refused", err)
	}
}

// TestSevenZipHeaderLimit: a .7z whose start header claims a header over
// max7zHeader, or whose compressed header declares it unpacks to more, is
// refused before the library reads it (a million-entry member list held
// 312 MB plain, 185 MB compressed, before the member count could be
// checked).
func TestSevenZipHeaderLimit(t *testing.T) {
	sevenZip := func(header []byte, size uint64) []byte {
		start := binary.LittleEndian.AppendUint64(nil, 0)
		start = binary.LittleEndian.AppendUint64(start, size)
		start = binary.LittleEndian.AppendUint32(start, crc32.ChecksumIEEE(header))
		data := append([]byte{'7', 'z', 0xbc, 0xaf, 0x27, 0x1c, 0, 4}, binary.LittleEndian.AppendUint32(nil, crc32.ChecksumIEEE(start))...)
		return append(append(data, start...), header...)
	}
	over := binary.LittleEndian.AppendUint32([]byte{0xF0}, max7zHeader+1)               // a 7z NUMBER, 4 bytes after its first
	encoded := []byte{0x17, 0x06, 0x00, 0x01, 0x09, 0x10, 0x0A, 0x01, 1, 2, 3, 4, 0x00, // pack info at 0: one stream of 16 bytes, its CRC
		0x07, 0x0B, 0x01, 0x00, 0x02, // unpack info: one folder of two coders:
		0x23, 0x03, 0x01, 0x01, 0x05, 0x5D, 0, 0, 1, 0, // LZMA with 5 bytes of properties
		0x14, 0x03, 0x03, 0x01, 0x1B, 0x04, 0x01, // BCJ2, 4 in, 1 out
		0x01, 0x00, // one bind pair
		0x00, 0x01, 0x02, 0x03, // the packed streams
		0x0C, 0x20} // the unpack sizes: 32, then the big one
	encoded = append(append(encoded, over...), 0x00, 0x00)
	for _, tt := range []struct {
		name string
		data []byte
		want string
	}{
		{"plain", sevenZip(nil, max7zHeader+1), fmt.Sprintf("the 7z header is %d bytes", max7zHeader+1)},
		{"encoded", sevenZip(encoded, uint64(len(encoded))), fmt.Sprintf("the 7z header unpacks to %d bytes", max7zHeader+1)},
	} {
		err := WalkReader(context.Background(), "big.7z", bytes.NewReader(tt.data), int64(len(tt.data)), Limits{}, func(*Member) error { return nil })
		if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: have %v, want %q", tt.name, err, tt.want)
		}
	}
}
