//go:build graphvizwasm

package gvrender

import (
	"bytes"
	"context"
	"fmt"

	"github.com/goccy/go-graphviz"
)

// Available reports whether this build renders in-process.
const Available = true

// Render lays out src (DOT) with Graphviz's dot layout and returns it as
// format ("svg" or "png").
func Render(ctx context.Context, src []byte, format string) ([]byte, error) {
	if format != "svg" && format != "png" {
		return nil, fmt.Errorf("gvrender: unsupported format %q", format)
	}
	gv, err := graphviz.New(ctx)
	if err != nil {
		return nil, fmt.Errorf("gvrender: %w", err)
	}
	defer gv.Close()
	g, err := graphviz.ParseBytes(src)
	if err != nil {
		return nil, fmt.Errorf("gvrender: parse DOT: %w", err)
	}
	defer g.Close()
	var out bytes.Buffer
	if err := gv.Render(ctx, g, graphviz.Format(format), &out); err != nil {
		return nil, fmt.Errorf("gvrender: render %s: %w", format, err)
	}
	return out.Bytes(), nil
}
