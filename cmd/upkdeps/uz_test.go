package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/internal/testutil"
	"github.com/upkdeps/upkdeps/uz"
)

// genPackage returns a package of the given version whose one export holds
// payload bytes of compressible data (seeded by guid).
func genPackage(t testing.TB, version uint16, guid uint32, payload int) []byte {
	t.Helper()
	b := format.NewBuilder(version, 0)
	b.File.Flags = format.FlagAllowDownload
	b.File.GUID = format.GUID{guid, guid * 3, guid * 5, guid * 7}
	b.Export(0, "Data", b.ImportPath("Engine.Texture", "Core", "Class"), 0, int32(payload))
	img, err := format.Marshal(b.File)
	if err != nil {
		t.Fatal(err)
	}
	ex := b.File.Exports[0]
	data := img[ex.SerialOffset : ex.SerialOffset+ex.SerialSize]
	rng := rand.New(rand.NewPCG(uint64(guid), 1))
	words := []string{"Texture", "Palette", "\x00\x00\x00", "Mip", "USize", "VSize "}
	for i := 0; i < len(data); {
		i += copy(data[i:], words[rng.IntN(len(words))])
	}
	return img
}

func writeFile(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestUZRoundTrip(t *testing.T) {
	t.Chdir(t.TempDir())
	writeFile(t, "in/Mod.u", genPackage(t, 69, 1, 400<<10))    // UE1, over one BWT block
	writeFile(t, "in/Map.ut2", genPackage(t, 128, 2, 100<<10)) // UE2
	writeFile(t, "in/Tex.utx", genPackage(t, 68, 3, 20<<10))
	out, errOut, code := runCLI(t, "uz", "compress", "-o", "packed", "in/Tex.utx", "in/Mod.u", "in/Map.ut2")
	if code != exitOK {
		t.Fatalf("compress: code %d, stderr %q", code, errOut)
	}
	golden(t, "uz-compress.txt", out)
	if have := testutil.DirNames(t, "packed"); !slices.Equal(have, []string{"Map.ut2.uz2", "Mod.u.uz", "Tex.utx.uz"}) {
		t.Errorf("packed: %v", have)
	}
	// The same again: unchanged. A dry run writes nothing.
	if out, _, code := runCLI(t, "uz", "compress", "-o", "packed", "in/Mod.u"); code != exitOK || !strings.Contains(out, "unchanged") {
		t.Errorf("second compress: code %d, out %q", code, out)
	}
	if out, _, code := runCLI(t, "uz", "compress", "--dry-run", "-o", "dry", "in/Mod.u"); code != exitOK || !strings.Contains(out, "would be created") {
		t.Errorf("dry run: code %d, out %q", code, out)
	}
	if _, err := os.Stat("dry"); err == nil {
		t.Errorf("dry run created its output folder")
	}
	// Signature 5678 and an explicit format.
	if _, errOut, code := runCLI(t, "uz", "compress", "--sig", "5678", "-o", "sig", "in/Mod.u"); code != exitOK {
		t.Errorf("--sig 5678: code %d, %q", code, errOut)
	}
	if b := readFile(t, "sig/Mod.u.uz"); binary.LittleEndian.Uint32(b) != 5678 {
		t.Errorf("--sig 5678 wrote signature %d", binary.LittleEndian.Uint32(b))
	}
	if _, errOut, code := runCLI(t, "uz", "compress", "--format", "uz2", "-o", "fmt", "in/Mod.u"); code != exitOK || len(testutil.DirNames(t, "fmt")) != 1 {
		t.Errorf("--format uz2: code %d, %q", code, errOut)
	}

	out, errOut, code = runCLI(t, "uz", "decompress", "-o", "unpacked", "packed/Tex.utx.uz", "packed/Mod.u.uz", "packed/Map.ut2.uz2", "sig/Mod.u.uz", "fmt/Mod.u.uz2")
	if code != exitFindings || !strings.Contains(errOut, "is also the output of") {
		t.Errorf("decompress of two Mod.u: code %d, want %d and a refusal; stderr %q", code, exitFindings, errOut)
	}
	golden(t, "uz-decompress.txt", out)
	for _, n := range []string{"Tex.utx", "Mod.u", "Map.ut2"} {
		if !bytes.Equal(readFile(t, "unpacked/"+n), readFile(t, "in/"+n)) {
			t.Errorf("%s: round trip differs", n)
		}
	}
	if _, errOut, code := runCLI(t, "uz", "decompress", "-o", "unpacked2", "sig/Mod.u.uz"); code != exitOK || !bytes.Equal(readFile(t, "unpacked2/Mod.u"), readFile(t, "in/Mod.u")) {
		t.Errorf("5678 round trip: code %d, %q", code, errOut)
	}
	// An existing different file is not replaced without --force.
	writeFile(t, "unpacked/Mod.u", []byte("other"))
	if _, errOut, code := runCLI(t, "uz", "decompress", "-o", "unpacked", "packed/Mod.u.uz"); code != exitFindings || !strings.Contains(errOut, "--force") {
		t.Errorf("over a different file: code %d, stderr %q", code, errOut)
	}
	if _, _, code := runCLI(t, "uz", "decompress", "--force", "-o", "unpacked", "packed/Mod.u.uz"); code != exitOK || !bytes.Equal(readFile(t, "unpacked/Mod.u"), readFile(t, "in/Mod.u")) {
		t.Errorf("--force: code %d", code)
	}
}

func TestUZUsage(t *testing.T) {
	t.Chdir(t.TempDir())
	writeFile(t, "Mod.u", genPackage(t, 69, 1, 100))
	writeFile(t, "notes.txt", []byte("hello"))
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"uz", "compress", "--format", "zip", "Mod.u"}, exitError, "--format"},
		{[]string{"uz", "compress", "--sig", "1", "Mod.u"}, exitError, "--sig"},
		{[]string{"uz", "compress", "--format", "uz2", "--sig", "5678", "Mod.u"}, exitError, "--sig"},
		{[]string{"uz", "compress", "-o", "Mod.u", "Mod.u"}, exitError, "not a folder"},
		{[]string{"uz", "compress"}, exitError, "requires at least 1 arg"},
		{[]string{"uz", "compress", "notes.txt"}, exitFindings, "give --format"},
		{[]string{"uz", "compress", "nosuch.u"}, exitFindings, "nosuch.u"},
		{[]string{"uz", "decompress", "notes.txt"}, exitFindings, "not a .uz or .uz2"},
	} {
		_, errOut, code := runCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: code %d, stderr %q; want %d and %q", tc.args, code, errOut, tc.code, tc.want)
		}
	}
}

func TestUZRefusesBigger(t *testing.T) {
	t.Chdir(t.TempDir())
	writeFile(t, "Tiny.u", genPackage(t, 69, 1, 40)) // too small for the .uz overhead
	_, errOut, code := runCLI(t, "uz", "compress", "Tiny.u")
	if code != exitFindings || !strings.Contains(errOut, "larger than its source") || !strings.Contains(errOut, "--allow-bigger") {
		t.Errorf("code %d, stderr %q", code, errOut)
	}
	if have := testutil.DirNames(t, "."); !slices.Equal(have, []string{"Tiny.u"}) {
		t.Errorf("files: %v", have)
	}
	if _, _, code := runCLI(t, "uz", "compress", "--allow-bigger", "Tiny.u"); code != exitOK {
		t.Errorf("--allow-bigger: code %d", code)
	}
}

// TestUZDecompressCorrupt: truncated and damaged input fails with the file
// and the offset, and leaves no output file.
func TestUZDecompressCorrupt(t *testing.T) {
	t.Chdir(t.TempDir())
	writeFile(t, "Mod.u", genPackage(t, 69, 7, 300<<10))
	if _, errOut, code := runCLI(t, "uz", "compress", "--format", "uz", "Mod.u"); code != exitOK {
		t.Fatal(errOut)
	}
	if _, errOut, code := runCLI(t, "uz", "compress", "--format", "uz2", "Mod.u"); code != exitOK {
		t.Fatal(errOut)
	}
	uz1, uz2 := readFile(t, "Mod.u.uz"), readFile(t, "Mod.u.uz2")
	border := 8 + int(binary.LittleEndian.Uint32(uz2))
	flip := func(b []byte, off int) []byte {
		b = slices.Clone(b)
		b[off] ^= 0x20
		return b
	}
	huge := slices.Clone(uz2)
	binary.LittleEndian.PutUint32(huge, 50000)
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"cut.u.uz", uz1[:len(uz1)/2]},
		{"cut2.u.uz", uz1[:9]},
		{"tree.u.uz", flip(uz1, 20)},
		{"data.u.uz", flip(uz1, len(uz1)*2/3)},
		{"cut.u.uz2", uz2[:len(uz2)/2]},
		{"border.u.uz2", uz2[:border]},
		{"border2.u.uz2", uz2[:2*border]},
		{"header.u.uz2", uz2[:border+5]},
		{"huge.u.uz2", huge},
		{"bits.u.uz2", flip(uz2, border/2)},
	} {
		dir := filepath.Join("out", tc.name)
		writeFile(t, filepath.Join("bad", tc.name), tc.data)
		_, errOut, code := runCLI(t, "uz", "decompress", "-o", dir, filepath.Join("bad", tc.name))
		if code != exitFindings || !strings.Contains(errOut, tc.name) || !regexp.MustCompile(`offset \d+`).MatchString(errOut) {
			t.Errorf("%s: code %d, stderr %q; want %d with the file name and the offset", tc.name, code, errOut, exitFindings)
		}
		if have := testutil.DirNames(t, dir); len(have) > 0 {
			t.Errorf("%s: files left behind: %v", tc.name, have)
		}
	}
}

// TestUZHostileNames: a .uz's embedded name is used only when it is a
// plain file name.
func TestUZHostileNames(t *testing.T) {
	t.Chdir(t.TempDir())
	pkg := genPackage(t, 69, 1, 2000)
	for i, name := range []string{"../escape.u", `..\..\System\Core.u`, "/abs/Core.u", "C:Core.u", "NUL", "sub/dir.u"} {
		var buf bytes.Buffer
		zw, err := uz.NewWriter(&buf, name, uz.Sig1234)
		if err != nil {
			t.Fatal(err)
		}
		zw.Write(pkg)
		zw.Close()
		in := fmt.Sprintf("in%d/Safe%d.u.uz", i, i)
		writeFile(t, in, buf.Bytes())
		out := fmt.Sprintf("out%d", i)
		stdout, errOut, code := runCLI(t, "uz", "decompress", "-o", out, in)
		want := fmt.Sprintf("Safe%d.u", i)
		if code != exitOK || !strings.Contains(errOut, "not a plain file name") || !strings.Contains(stdout, want) {
			t.Errorf("%q: code %d, stdout %q, stderr %q", name, code, stdout, errOut)
		}
		if have := testutil.DirNames(t, out); !slices.Equal(have, []string{want}) {
			t.Errorf("%q: wrote %v, want %s", name, have, want)
		}
	}
	if _, err := os.Stat("escape.u"); err == nil {
		t.Errorf("escape.u written outside the output folder")
	}
}

var corpusNote = regexp.MustCompile(`original name (.+?); decompressed copy staged as (Cache/[0-9A-F]+\.uxx)`)

// TestUZCorpus decompresses the real .uz downloads of the corpus: each
// yields its original name and the bytes of the staged .uxx.
func TestUZCorpus(t *testing.T) {
	corpus := testutil.Corpus(t)
	f, err := os.Open(filepath.Join(corpus, "MANIFEST.tsv"))
	if err != nil {
		t.Skipf("no MANIFEST.tsv: %v", err)
	}
	defer f.Close()
	type pair struct{ tmp, uxx, name string }
	var pairs []pair
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 9 || !strings.HasSuffix(cols[2], ".tmp") {
			continue
		}
		if m := corpusNote.FindStringSubmatch(cols[8]); m != nil {
			dir := filepath.Join(corpus, strings.ReplaceAll(cols[0], "/", "__"))
			pairs = append(pairs, pair{filepath.Join(dir, cols[2]), filepath.Join(dir, m[2]), m[1]})
		}
	}
	if len(pairs) == 0 {
		t.Skip("the corpus lists no .uz downloads")
	}
	out := t.TempDir()
	args := []string{"uz", "decompress", "-o", out}
	for _, p := range pairs {
		args = append(args, p.tmp)
	}
	_, errOut, code := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
	for _, p := range pairs {
		have, err := os.ReadFile(filepath.Join(out, p.name))
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(p.tmp), err)
			continue
		}
		if !bytes.Equal(have, readFile(t, p.uxx)) {
			t.Errorf("%s -> %s: bytes differ from %s", filepath.Base(p.tmp), p.name, filepath.Base(p.uxx))
		}
	}
	t.Logf("%d real .uz files decompressed to their original names and bytes", len(pairs))
}
