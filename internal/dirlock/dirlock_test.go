package dirlock

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func TestDir(t *testing.T) {
	dir := t.TempDir()
	l, err := Dir(dir, "upkdeps cache clean")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Dir(dir, "upkdeps cache add")
	var le *LockedError
	if !errors.As(err, &le) || !errors.Is(err, ErrLocked) {
		t.Fatalf("second lock: have %v, want a *LockedError", err)
	}
	if !strings.Contains(le.Holder, "upkdeps cache clean") || !strings.Contains(le.Holder, "pid ") {
		t.Errorf("holder: have %q, want the first command and its pid", le.Holder)
	}
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
	l2, err := Dir(dir, "upkdeps cache add")
	if err != nil {
		t.Fatalf("after unlock: %v", err)
	}
	l2.Unlock()
	if _, err := Dir(filepath.Join(dir, "missing"), "x"); err == nil {
		t.Error("no error for a missing folder")
	}
}
