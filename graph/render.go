package graph

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// RenderTimeout bounds Graphviz's layout of one drawing: its time grows
// fast with the size of the graph.
const RenderTimeout = 2 * time.Minute

// ErrNoDot is returned by Render for a picture when Graphviz's dot
// program is not on PATH.
var ErrNoDot = errors.New("graphviz's dot is not on PATH")

// ErrRenderTimeout is matched (errors.Is) by Render's error when dot did
// not finish within RenderTimeout.
var ErrRenderTimeout = errors.New("graphviz dot did not finish in " + RenderTimeout.String())

// GraphvizFormat says whether format ("svg", "png", "pdf") is a picture
// that Graphviz's dot draws from the DOT text.
func GraphvizFormat(format string) bool {
	return format == "svg" || format == "png" || format == "pdf"
}

// LookDot returns the path of Graphviz's dot program, or ErrNoDot.
func LookDot() (string, error) {
	bin, err := exec.LookPath("dot")
	if err != nil {
		return "", ErrNoDot
	}
	return bin, nil
}

// Render returns the drawing in format: "dot" is the DOT text
// (WriteDOTContext); "svg", "png" and "pdf" are laid out and drawn by
// Graphviz's dot within RenderTimeout (ErrNoDot when it is not on PATH).
// Graphviz's own messages (a thousand lines on a large graph) are not
// passed on: only their first line.
func (d *Drawing) Render(ctx context.Context, format string) ([]byte, error) {
	var src bytes.Buffer
	if err := d.WriteDOTContext(ctx, &src); err != nil {
		return nil, err
	}
	if format == "dot" {
		return src.Bytes(), nil
	}
	if !GraphvizFormat(format) {
		return nil, fmt.Errorf("graph: no such format %q (dot, svg, png, pdf)", format)
	}
	bin, err := LookDot()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, RenderTimeout)
	defer cancel()
	var out, stderr bytes.Buffer
	c := exec.CommandContext(ctx, bin, "-T"+format)
	c.Stdin, c.Stdout, c.Stderr = &src, &out, &stderr
	if err := c.Run(); err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return nil, ErrRenderTimeout
		}
		return nil, fmt.Errorf("graphviz dot failed: %v: %s", err, firstLine(stderr.String()))
	}
	return out.Bytes(), nil
}

// firstLine is the first line of s, at most 200 bytes.
func firstLine(s string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	if len(first) > 200 {
		first = first[:200] + "..."
	}
	return first
}

// TooMany says whether the drawing has more than maxNodes nodes or twice
// as many edges: past these a diagram is not legible (0: no limit).
func (d *Drawing) TooMany(maxNodes int) bool {
	return maxNodes > 0 && (len(d.Nodes) > maxNodes || len(d.Edges) > 2*maxNodes)
}

// Summary is the one line that says what the diagram stands for: its
// nodes and edges against the packages and imports of the view.
func (d *Drawing) Summary() string {
	s := fmt.Sprintf("graph: %d nodes for %d packages", len(d.Nodes), d.Packages)
	if d.Collapsed > 0 {
		s += fmt.Sprintf(" (%d stock packages grouped; --stock draws them)", d.Collapsed)
	}
	s += fmt.Sprintf(", %d edges for %d imports", len(d.Edges), d.Imports)
	if d.Reduced {
		s += " (implied and base imports left out; --all-edges draws them)"
	}
	return s
}
