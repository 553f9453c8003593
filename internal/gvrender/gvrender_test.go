package gvrender

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/upkdeps/upkdeps/internal/testutil"
)

// chain is the DOT of n nodes n0 -> n1 -> ... with labels L0, L1, ...
func chain(n int) []byte {
	var b bytes.Buffer
	b.WriteString("digraph g {\n")
	for i := range n {
		fmt.Fprintf(&b, "n%d [label=\"L%d\"];\n", i, i)
		if i > 0 {
			fmt.Fprintf(&b, "n%d -> n%d;\n", i-1, i)
		}
	}
	b.WriteString("}\n")
	return b.Bytes()
}

func TestRender(t *testing.T) {
	testutil.PrivateUserCache(t)
	ctx := context.Background()
	svg, err := Render(ctx, chain(7), "svg")
	if err != nil {
		t.Fatal(err)
	}
	if have := strings.Count(string(svg), `class="node"`); have != 7 || !strings.Contains(string(svg), ">L6</text>") {
		t.Errorf("svg: %d nodes, want 7 with L6:\n%.400s", have, svg)
	}
	b, err := Render(ctx, chain(7), "png")
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("png: %v", err)
	}
	// Seven nodes stacked: taller than wide, and something drawn in black.
	r, dark := img.Bounds(), 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if cr, cg, cb, ca := img.At(x, y).RGBA(); ca > 0x8000 && cr+cg+cb < 0x8000 {
				dark++
			}
		}
	}
	if r.Dy() < 3*r.Dx() || dark < 100 {
		t.Errorf("png: %dx%d with %d dark pixels, want a tall drawing", r.Dx(), r.Dy(), dark)
	}
	if _, err := Render(ctx, chain(2), "gif"); err == nil {
		t.Error("gif: no error")
	}
	if _, err := Render(ctx, []byte("digraph { a -> "), "svg"); err == nil {
		t.Error("bad DOT: no error")
	}
}

// TestRenderDeadline: a render past its context's deadline returns the
// context's error at once, though Graphviz cannot be interrupted: it
// finishes in the background, holding the engine, so a caller that cannot
// wait gives up on its own deadline and one that can gets its drawing.
func TestRenderDeadline(t *testing.T) {
	testutil.PrivateUserCache(t)
	if _, err := Render(context.Background(), chain(2), "svg"); err != nil {
		t.Fatal(err)
	}
	// 100 nodes of two scattered edges each: about 1.3 s of layout.
	var big bytes.Buffer
	big.WriteString("digraph g {\n")
	for i := range 100 {
		fmt.Fprintf(&big, "n%d -> n%d; n%d -> n%d;\n", i, (i*7+1)%100, i, (i*13+5)%100)
	}
	big.WriteString("}\n")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := Render(ctx, big.Bytes(), "svg"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("render past the deadline: %v, want DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("render returned %v after its start, deadline 20 ms", d)
	}
	waiter, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if _, err := Render(waiter, chain(2), "svg"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("render while the engine is busy, 10 ms deadline: %v, want DeadlineExceeded", err)
	}
	svg, err := Render(context.Background(), chain(3), "svg")
	if err != nil || strings.Count(string(svg), `class="node"`) != 3 {
		t.Fatalf("render after the abandoned one: %v", err)
	}
}

// TestRenderReadsNoFiles: Graphviz reads no file of the host, such as the
// picture a DOT image attribute names.
func TestRenderReadsNoFiles(t *testing.T) {
	testutil.PrivateUserCache(t)
	t.Chdir(t.TempDir())
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 40, 30))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("p.png", b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	svg, err := Render(context.Background(), []byte(`digraph { a [image="p.png", label=""] }`), "svg")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(svg), "<image") {
		t.Errorf("the svg holds the host's p.png:\n%s", svg)
	}
}

func TestPrivateDir(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix permissions")
	}
	base := t.TempDir()
	dir, err := privateDir(base, "upkdeps", "graphviz")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{filepath.Join(base, "upkdeps"), dir} {
		if fi, err := os.Lstat(d); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
			t.Errorf("%s: %v %v, want a folder 0700", d, fi.Mode(), err)
		}
	}
	// A folder others may write is made private; a link or a file is refused.
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if _, err := privateDir(base, "upkdeps", "graphviz"); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(dir); fi.Mode().Perm() != 0o700 {
		t.Errorf("group-writable folder left %v", fi.Mode())
	}
	other := t.TempDir()
	if err := os.Symlink(other, filepath.Join(base, "link")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	if _, err := privateDir(base, "link", "graphviz"); err == nil {
		t.Error("a symbolic link was used")
	}
	if err := os.WriteFile(filepath.Join(base, "file"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := privateDir(base, "file"); err == nil {
		t.Error("a file was used")
	}
	if os.Geteuid() == 0 {
		theirs := filepath.Join(base, "theirs")
		if err := os.Mkdir(theirs, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(theirs, 12345, 12345); err != nil {
			t.Fatal(err)
		}
		if _, err := privateDir(base, "theirs"); err == nil || !strings.Contains(err.Error(), "another user") {
			t.Errorf("another user's folder: %v", err)
		}
	}
}
