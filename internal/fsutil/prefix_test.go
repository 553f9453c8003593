package fsutil

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestErrorsNameNoPackage: what reaches a user names the file and the
// problem, never this internal package ("fsutil: ...").
func TestErrorsNameNoPackage(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "a")
	dst := filepath.Join(dir, "b")
	if err := os.WriteFile(src, []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, []byte("b"), 0o644); err != nil {
		t.Fatal(err)
	}
	errs := []error{
		CopyFileAtomic(src, dst, false),
		CopyFileAtomic(filepath.Join(dir, "missing"), dst, false),
		WriteFileAtomic(filepath.Join(dir, "no", "such", "x"), nil, 0o644),
		ErrExists, ErrNotRegular,
	}
	_, err := ReadRegular(dir, 10)
	errs = append(errs, err)
	for _, err := range errs {
		if err == nil {
			t.Error("no error")
			continue
		}
		if strings.Contains(err.Error(), "fsutil") {
			t.Errorf("%q names the package", err)
		}
	}
	if !errors.Is(errs[0], ErrExists) {
		t.Errorf("copy over a different file: %v", errs[0])
	}
}
