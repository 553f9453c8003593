//go:build !graphvizwasm

package gvrender

import "context"

// Available reports whether this build renders in-process.
const Available = false

// Render returns ErrNotBuilt: this build has no Graphviz engine.
func Render(ctx context.Context, src []byte, format string) ([]byte, error) {
	return nil, ErrNotBuilt
}
