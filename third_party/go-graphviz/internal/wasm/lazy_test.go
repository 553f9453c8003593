package wasm

// upkdeps patch: tests of lazy.go.

import (
	"context"
	"strings"
	"testing"
)

// TestLoad: Load instantiates the module once, again after it closed, and
// fails when an enum value of the Go code is not the module's.
func TestLoad(t *testing.T) {
	ctx := context.Background()
	if err := Load(ctx); err != nil {
		t.Fatal(err)
	}
	n := Loads()
	if err := Load(ctx); err != nil || Loads() != n {
		t.Fatalf("second Load: %v, loads %d -> %d", err, n, Loads())
	}
	if err := mod.mod.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if err := Load(ctx); err != nil || Loads() != n+1 {
		t.Fatalf("Load after close: %v, loads %d -> %d", err, n, Loads())
	}
	if d, err := NewGraphDescriptor(ctx); err != nil || d == nil {
		t.Fatalf("the module loaded again does not work: %v", err)
	}

	saved := RENDER_Y_GOES_DOWN
	defer func() { RENDER_Y_GOES_DOWN = saved }()
	RENDER_Y_GOES_DOWN = saved + 100
	_ = mod.mod.Close(ctx)
	if err := Load(ctx); err == nil || !strings.Contains(err.Error(), "enum RENDER_Y_GOES_DOWN") {
		t.Errorf("Load with a wrong enum value: %v", err)
	}
	RENDER_Y_GOES_DOWN = saved
	if err := Load(ctx); err != nil {
		t.Errorf("Load after the value is right again: %v", err)
	}
}
