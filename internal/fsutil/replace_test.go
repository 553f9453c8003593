package fsutil

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestCheckReplace: a missing file or the same bytes may be written; other
// bytes (shorter, longer, same length) are refused without force and
// allowed with it; a folder is refused with force too.
func TestCheckReplace(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	data := []byte("same bytes")
	if err := CheckReplace(path, data, false); err != nil {
		t.Fatalf("missing file: %v", err)
	}
	for _, old := range []string{"same bytes", "other byte", "short", "much longer than the data"} {
		if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
			t.Fatal(err)
		}
		err := CheckReplace(path, data, false)
		if old == string(data) {
			if err != nil {
				t.Errorf("same content: %v", err)
			}
			continue
		}
		var oe *OtherContentError
		if !errors.Is(err, ErrOtherContent) || !errors.As(err, &oe) || oe.Path != path {
			t.Errorf("old %q: err %v, want an *OtherContentError for %s", old, err, path)
		}
		if err != nil && err.Error() != path+" exists with other content: not overwritten" {
			t.Errorf("message %q", err)
		}
		if err := CheckReplace(path, data, true); err != nil {
			t.Errorf("old %q with force: %v", old, err)
		}
	}
	for _, force := range []bool{false, true} {
		if err := CheckReplace(dir, data, force); !errors.Is(err, ErrNotRegular) {
			t.Errorf("folder, force %v: err %v, want ErrNotRegular", force, err)
		}
	}
}
