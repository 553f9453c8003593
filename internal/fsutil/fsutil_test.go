package fsutil

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/internal/testutil"
)

func TestSafeFileName(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"Core.u", true},
		{"DM-Mita]I[.unr", true},
		{"CTF-420-OutForBlood.unr", true},
		{"Foo..u", true},
		{".hidden.u", true},
		{"Ünïcödé.utx", true},
		{"CONSOLE.u", true}, // only the exact device names
		{"COM10.u", true},
		{"LPT0.u", true},
		{strings.Repeat("a", 253) + ".u", true},

		{"", false},
		{".", false},
		{"..", false},
		{`..\..\System\Core.u`, false},
		{"../../System/Core.u", false},
		{"Maps/DM-Deck16.unr", false},
		{`C:evil.u`, false},
		{`C:\Windows\evil.u`, false},
		{"Core.u:stream", false},
		{"CON.u", false},
		{"con", false},
		{"Nul.tar.gz", false},
		{"AUX .u", false},
		{"COM1.u", false},
		{"lpt9", false},
		{"COM¹.u", false},
		{"PRN", false},
		{"bad\x00name.u", false},
		{"bad\nname.u", false},
		{"esc\x1b[31m.u", false},
		{"del\x7f.u", false},
		{"c1\u0085.u", false},
		{"trailing.", false},
		{"trailing ", false},
		{"what?.u", false},
		{"star*.u", false},
		{`quo"te.u`, false},
		{"pipe|.u", false},
		{"<lt>.u", false},
		{"bad\xffutf8.u", false},
		{strings.Repeat("a", 254) + ".u", false},
	}
	for _, tt := range tests {
		err := SafeFileName(tt.name)
		if have := err == nil; have != tt.ok {
			t.Errorf("SafeFileName(%q): have %v, want ok=%v", tt.name, err, tt.ok)
		}
		var ne *NameError
		if err != nil && !errors.As(err, &ne) {
			t.Errorf("SafeFileName(%q): error %T, want *NameError", tt.name, err)
		}
	}
}

func FuzzSafeFileName(f *testing.F) {
	for _, s := range []string{"Core.u", `..\x`, "C:a", "CON.u", "a\x00b", "x.", "COM¹"} {
		f.Add(s)
	}
	dir := filepath.FromSlash("/install/System")
	f.Fuzz(func(t *testing.T, name string) {
		if SafeFileName(name) != nil {
			return
		}
		p := filepath.Join(dir, name)
		if filepath.Dir(p) != dir || filepath.Base(p) != name {
			t.Errorf("accepted %q, which joins to %q", name, p)
		}
	})
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "cache.ini")
	if err := WriteFileAtomic(p, []byte("[Cache]\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	if have := read(t, p); have != "[Cache]\n" {
		t.Errorf("content: have %q", have)
	}
	// Windows keeps one permission bit, the read-only attribute: 0640 is
	// writable, which os reports as 0666.
	wantMode := fs.FileMode(0o640)
	if runtime.GOOS == "windows" {
		wantMode = 0o666
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != wantMode {
		t.Errorf("mode: have %v, want %v", st.Mode().Perm(), wantMode)
	}
	if err := WriteFileAtomic(p, []byte("[Cache]\nA=B\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if have := read(t, p); have != "[Cache]\nA=B\n" {
		t.Errorf("replaced content: have %q", have)
	}
	if have := testutil.DirNames(t, dir); len(have) != 1 {
		t.Errorf("folder after writes: have %v, want only cache.ini", have)
	}
}

// failRename makes Rename fail for the duration of the test.
func failRename(t *testing.T) {
	t.Helper()
	old := Rename
	Rename = func(string, string) error { return errors.New("simulated crash") }
	t.Cleanup(func() { Rename = old })
}

func TestWriteAtomicRenameFails(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "cache.ini")
	write(t, p, "old")
	failRename(t)
	err := WriteFileAtomic(p, []byte("new"), 0o644)
	if err == nil || !strings.Contains(err.Error(), "simulated crash") {
		t.Fatalf("have %v, want the rename error", err)
	}
	if have := read(t, p); have != "old" {
		t.Errorf("after a failed rename: have %q, want the old content", have)
	}
	if have := testutil.DirNames(t, dir); len(have) != 1 {
		t.Errorf("temporary file left behind: %v", have)
	}
}

func TestCopyFileAtomic(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src.uxx")
	dst := filepath.Join(dir, "Foo.u")
	write(t, src, "package bytes")

	if err := CopyFileAtomic(src, dst, false); err != nil {
		t.Fatal(err)
	}
	if have := read(t, dst); have != "package bytes" {
		t.Errorf("copy: have %q", have)
	}
	// Identical: no-op even without force, and src itself is "identical".
	if err := CopyFileAtomic(src, dst, false); err != nil {
		t.Errorf("identical copy: %v", err)
	}
	if err := CopyFileAtomic(src, src, false); err != nil {
		t.Errorf("copy onto itself: %v", err)
	}
	// Different content: refused, then forced.
	write(t, dst, "other version")
	err := CopyFileAtomic(src, dst, false)
	var ee *ExistsError
	if !errors.As(err, &ee) || !errors.Is(err, ErrExists) || ee.Path != dst {
		t.Errorf("different file: have %v, want *ExistsError for %s", err, dst)
	}
	if have := read(t, dst); have != "other version" {
		t.Errorf("refused copy changed the file: %q", have)
	}
	if err := CopyFileAtomic(src, dst, true); err != nil {
		t.Fatal(err)
	}
	if have := read(t, dst); have != "package bytes" {
		t.Errorf("forced copy: have %q", have)
	}
	// Folder destination and missing source.
	if err := CopyFileAtomic(src, dir, true); err == nil {
		t.Error("copy onto a folder: no error")
	}
	if err := CopyFileAtomic(filepath.Join(dir, "none"), dst, true); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing source: have %v, want fs.ErrNotExist", err)
	}
}

func TestSameContent(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("x", 200<<10)
	files := map[string]string{"a": big + "1", "b": big + "1", "c": big + "2", "d": "short", "e": ""}
	for n, s := range files {
		write(t, filepath.Join(dir, n), s)
	}
	tests := []struct {
		a, b string
		want bool
	}{
		{"a", "b", true}, {"a", "c", false}, {"a", "d", false}, {"e", "e", true}, {"d", "e", false},
	}
	for _, tt := range tests {
		have, err := SameContent(filepath.Join(dir, tt.a), filepath.Join(dir, tt.b))
		if err != nil || have != tt.want {
			t.Errorf("SameContent(%s, %s): have %v, %v, want %v", tt.a, tt.b, have, err, tt.want)
		}
	}
	if _, err := SameContent(filepath.Join(dir, "a"), filepath.Join(dir, "none")); err == nil {
		t.Error("missing file: no error")
	}
}

func TestReadOnlyFolder(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: folder permissions are not enforced")
	}
	if runtime.GOOS == "windows" {
		t.Skip("Windows ignores a folder's read-only attribute, all chmod 0555 sets (MS-FSCC 2.6)")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	write(t, src, "data")
	ro := filepath.Join(dir, "ro")
	if err := os.Mkdir(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(ro, 0o755) })
	if err := CopyFileAtomic(src, filepath.Join(ro, "dst"), false); !errors.Is(err, fs.ErrPermission) {
		t.Errorf("copy into a read-only folder: have %v, want fs.ErrPermission", err)
	}
	if have := testutil.DirNames(t, ro); len(have) != 0 {
		t.Errorf("read-only folder gained %v", have)
	}
}

func TestRemoveFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x")
	write(t, p, "x")
	if err := RemoveFile(p); err != nil {
		t.Fatal(err)
	}
	if err := RemoveFile(p); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("second removal: have %v, want fs.ErrNotExist", err)
	}
}

func TestIsTemp(t *testing.T) {
	for name, want := range map[string]bool{".upkdeps-123.tmp": true, "0000.tmp": false, ".upkdeps-1": false} {
		if have := IsTemp(name); have != want {
			t.Errorf("IsTemp(%q): have %v, want %v", name, have, want)
		}
	}
}

// TestReplaceReadOnly: an atomic write replaces a read-only file (a game
// copied from a CD keeps its files read-only on Windows) as a rename does
// on Linux, and the new file has the permissions asked for. wine 8 lets
// the rename replace a read-only file; Windows itself is said to refuse
// (go-billy#186), which this test would show there.
func TestReplaceReadOnly(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "Core.u")
	write(t, p, "old")
	if err := os.Chmod(p, 0o444); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(p, 0o644) })
	if err := WriteFileAtomic(p, []byte("new"), 0o644); err != nil {
		t.Fatalf("replacing a read-only file: %v", err)
	}
	if have := read(t, p); have != "new" {
		t.Errorf("content: have %q", have)
	}
	if st, _ := os.Stat(p); st.Mode().Perm()&0o200 == 0 {
		t.Errorf("mode: have %v, want writable", st.Mode().Perm())
	}
	// A read-only file asked for stays read-only, and is replaced again.
	if err := WriteFileAtomic(p, []byte("newer"), 0o444); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(p, []byte("newest"), 0o444); err != nil {
		t.Fatalf("replacing a read-only file again: %v", err)
	}
	if st, _ := os.Stat(p); st.Mode().Perm()&0o200 != 0 || read(t, p) != "newest" {
		t.Errorf("mode %v, content %q; want read-only, newest", st.Mode().Perm(), read(t, p))
	}
	if have := testutil.DirNames(t, dir); len(have) != 1 {
		t.Errorf("folder after writes: have %v, want only Core.u", have)
	}
}

// TestReplaceOpenFile: replacing a file that another handle holds open
// (the game or a server running from the install) works on Linux; on
// Windows, which refuses to rename over a file open without delete
// sharing, it fails with an error naming the file and leaves the old file
// whole and no temporary file behind.
func TestReplaceOpenFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "Core.u")
	write(t, p, "old")
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	err = WriteFileAtomic(p, []byte("new"), 0o644)
	if runtime.GOOS != "windows" {
		if err != nil || read(t, p) != "new" {
			t.Fatalf("have %v, content %q; want new", err, read(t, p))
		}
		return
	}
	if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "another program") || !errors.Is(err, fs.ErrPermission) {
		t.Fatalf("replacing an open file: have %v, want a permission error naming %s and the likely cause", err, p)
	}
	if have := read(t, p); have != "old" {
		t.Errorf("content after the refusal: have %q, want old", have)
	}
	if have := testutil.DirNames(t, dir); len(have) != 1 {
		t.Errorf("folder after the refusal: have %v, want only Core.u", have)
	}
}
