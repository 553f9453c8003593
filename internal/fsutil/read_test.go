package fsutil

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestReadRegular: the bounded read returns the file up to its limit, a
// typed *TooBigError over it, the open's error for a missing file.
func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "X.ini")
	for _, tt := range []struct {
		size, max int64
		big       bool
	}{{0, 0, false}, {5, 5, false}, {6, 5, true}, {100, 1 << 20, false}} {
		data := []byte(strings.Repeat("x", int(tt.size)))
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		have, err := ReadRegular(path, tt.max)
		var big *TooBigError
		switch {
		case tt.big:
			if !errors.As(err, &big) || !errors.Is(err, ErrTooBig) || big.Size != tt.size || big.Limit != tt.max || big.Path != path {
				t.Errorf("size %d, max %d: have %v, want a TooBigError", tt.size, tt.max, err)
			}
		case err != nil || string(have) != string(data):
			t.Errorf("size %d, max %d: have %d bytes, %v", tt.size, tt.max, len(have), err)
		}
	}
	if _, err := ReadRegular(filepath.Join(dir, "none"), 10); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: have %v", err)
	}
}

// TestReadRegularPastStat reads a file whose size Stat does not tell (a
// /proc file says 0 bytes): what is there, bounded by the limit, not what
// Stat promised.
func TestReadRegularPastStat(t *testing.T) {
	const path = "/proc/self/status"
	if runtime.GOOS != "linux" {
		t.Skip("needs Linux's /proc")
	}
	if st, err := os.Stat(path); err != nil || st.Size() != 0 || !st.Mode().IsRegular() {
		t.Skipf("%s: not a regular file of size 0 here (%v)", path, err)
	}
	data, err := ReadRegular(path, 1<<20)
	if err != nil || !strings.Contains(string(data), "Name:") {
		t.Errorf("have %d bytes, %v; want the file's text", len(data), err)
	}
	var big *TooBigError
	if _, err := ReadRegular(path, 10); !errors.As(err, &big) || big.Size != 11 || big.Limit != 10 {
		t.Errorf("limit 10: have %v, want a TooBigError after 11 bytes", err)
	}
}
