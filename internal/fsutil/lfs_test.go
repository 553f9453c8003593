package fsutil

import (
	"strings"
	"testing"
)

func TestLFSPointer(t *testing.T) {
	for _, tt := range []struct {
		in   string
		real int64
		ok   bool
	}{
		{"version https://git-lfs.github.com/spec/v1\noid sha256:ab\nsize 541\n", 541, true},
		{"version https://hawser.github.com/spec/v1\noid sha256:ab\n", -1, true},
		{"version https://git-lfs.github.com/spec/v1\nsize -3\n", -1, true},
		{"version 1\n", 0, false},
		{"", 0, false},
		{"version https://git-lfs.github.com/spec/v1\n" + strings.Repeat("x", 1100), 0, false}, // over the spec's 1024 bytes
	} {
		real, ok := LFSPointer(strings.NewReader(tt.in), int64(len(tt.in)))
		if real != tt.real || ok != tt.ok {
			t.Errorf("%.50q: have %d %v, want %d %v", tt.in, real, ok, tt.real, tt.ok)
		}
	}
}
