package cache

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestOpenLock: a writer's Open holds the folder's lock until Close; a
// second writer gets a *LockedError at once; readers do not lock.
func TestOpenLock(t *testing.T) {
	f := newUE1Fixture(t)
	c, err := Open(context.Background(), f.cache, Options{Lock: "upkdeps cache clean"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Open(context.Background(), f.cache, Options{Lock: "upkdeps cache add"})
	var le *LockedError
	if !errors.As(err, &le) || !errors.Is(err, ErrLocked) || !strings.Contains(le.Holder, "upkdeps cache clean") {
		t.Fatalf("second writer: have %v, want a *LockedError naming the first", err)
	}
	if _, err := Open(context.Background(), f.cache, Options{}); err != nil {
		t.Errorf("reader during a write: %v", err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	c2, err := Open(context.Background(), f.cache, Options{Lock: "upkdeps cache add"})
	if err != nil {
		t.Fatalf("after Close: %v", err)
	}
	c2.Close()
	// The lock file is not an entry, a stray or a bad line.
	c3 := open(t, f.cache, Options{}, "")
	for _, s := range c3.Strays() {
		if strings.HasSuffix(s.File, LockName) {
			t.Errorf("the lock file is listed as a stray")
		}
	}
}

// TestOpenUnsafeExt refuses an extension that is not a plain one.
func TestOpenUnsafeExt(t *testing.T) {
	f := newUE1Fixture(t)
	for _, ext := range []string{".uxx/../../../outside/pwn", `.uxx\..\x`, ".u x"} {
		if _, err := Open(context.Background(), f.cache, Options{Ext: ext, Lock: "test"}); err == nil || !strings.Contains(err.Error(), "extension") {
			t.Errorf("Ext %q: have %v, want an error", ext, err)
		}
	}
	c, err := Open(context.Background(), f.cache, Options{Ext: "uxx", Lock: "test"}) // the dot is optional
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
}
