package archive

import (
	"bytes"
	"testing"
)

// FuzzWalk walks arbitrary bytes as a .umod and as a .zip: never a panic,
// every member within the archive and the limits.
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
		lim := Limits{MaxMembers: 100, MaxMemberSize: 1 << 20, MaxTotal: 4 << 20, MaxNestedSize: 1 << 20}
		WalkReader(name, bytes.NewReader(data), int64(len(data)), lim, func(m *Member) error {
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
	})
}
