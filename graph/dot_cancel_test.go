package graph

import (
	"bytes"
	"context"
	"errors"
	"testing"
)

// TestWriteDOTCancelled: a done context stops WriteDOTContext with its
// error before anything is written.
func TestWriteDOTCancelled(t *testing.T) {
	d := &Drawing{Nodes: []DrawNode{{ID: "a", Label: "A"}, {ID: "b", Label: "B"}}, Edges: []DrawEdge{{From: 0, To: 1}}}
	var buf bytes.Buffer
	if err := d.WriteDOTContext(context.Background(), &buf); err != nil || buf.Len() == 0 {
		t.Fatalf("not cancelled: %v, %d bytes", err, buf.Len())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	buf.Reset()
	if err := d.WriteDOTContext(ctx, &buf); !errors.Is(err, context.Canceled) || buf.Len() != 0 {
		t.Errorf("cancelled: have %v and %d bytes, want context.Canceled and none", err, buf.Len())
	}
}
