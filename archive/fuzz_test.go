package archive

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// FuzzWalk walks arbitrary bytes as a .umod and as a .zip: never a panic,
// every member within the archive and the limits; a second time with
// every nested zip over 1 KiB streamed.
func FuzzWalk(f *testing.F) {
	f.Add(umodOf(f, [2]string{`System\A.u`, "aaa"}, [2]string{"in.zip", string(zipOf(f, [2]string{"B.u", "b"}))}), true)
	f.Add(umodOf(f), true)
	f.Add(zipOf(f, [2]string{"../x", "x"}, [2]string{"a/b.umod", string(umodOf(f, [2]string{"c", "c"}))}), false)
	f.Add(bombZip(f, 1<<16, 10), false)
	f.Fuzz(func(t *testing.T, data []byte, umod bool) {
		name := "f.zip"
		if umod {
			name = "f.umod"
		}
		fuzzWalkOnce(t, name, data)
		tail := nestedZipTail
		nestedZipTail = 1024
		defer func() { nestedZipTail = tail }()
		fuzzWalkOnce(t, name, data)
	})
}

// FuzzWalk7zRar walks arbitrary bytes as a .7z and as a .rar, seeded with
// small archives of each (the .7z ones made by the 7z tool when it is
// installed, and a bare signature otherwise): never a panic, every member
// within its name rules and the limits.
func FuzzWalk7zRar(f *testing.F) {
	f.Add(rarOf(f, [2]string{`System\A.u`, "aaa"}, [2]string{"B.u", "bb"}), false)
	f.Add(rarDeclaring(f, map[string]uint32{"A.u": 1 << 30}, [2]string{"A.u", "a"}), false)
	f.Add([]byte("7z\xbc\xaf\x27\x1c\x00\x04"), true)
	if seed, ok := sevenZipSeed(f); ok {
		f.Add(seed, true)
	}
	f.Fuzz(func(t *testing.T, data []byte, sevenZip bool) {
		name := "f.rar"
		if sevenZip {
			name = "f.7z"
		}
		fuzzWalkOnce(t, name, data)
	})
}

// fuzzWalkOnce walks data as the archive name says, under small limits,
// and fails on a member with an insecure name or more bytes than declared.
func fuzzWalkOnce(t *testing.T, name string, data []byte) {
	lim := Limits{MaxMembers: 100, MaxMemberSize: 1 << 20, MaxTotal: 4 << 20, MaxNestedSize: 1 << 20}
	WalkReader(context.Background(), name, bytes.NewReader(data), int64(len(data)), lim, func(m *Member) error {
		if m.Err != nil {
			return nil
		}
		if _, err := SafeName(m.Name); err != nil {
			t.Fatalf("member %q passed with an insecure name", m.Name)
		}
		b, err := m.ReadAll()
		if err == nil && int64(len(b)) > m.Size {
			t.Fatalf("member %q: %d bytes, declared %d", m.Name, len(b), m.Size)
		}
		return nil
	})
}

// sevenZipSeed makes a two-member .7z with the 7z tool, when installed.
func sevenZipSeed(f *testing.F) ([]byte, bool) {
	bin, err := exec.LookPath("7z")
	if err != nil {
		return nil, false
	}
	dir := f.TempDir()
	for name, text := range map[string]string{"A.u": "aaaa", "in/B.u": "bbbb"} {
		p := filepath.Join(dir, "src", filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(text), 0o644)
	}
	out := filepath.Join(dir, "seed.7z")
	cmd := exec.Command(bin, "a", "-bd", out, ".")
	cmd.Dir = filepath.Join(dir, "src")
	if err := cmd.Run(); err != nil {
		return nil, false
	}
	data, err := os.ReadFile(out)
	return data, err == nil
}
