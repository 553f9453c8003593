package gvrender

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/upkdeps/upkdeps/third_party/go-graphviz"
)

// busy holds a token while the library works: it holds one module, so one
// render runs at a time, and a render abandoned when its caller's context
// was done keeps it until Graphviz finishes.
var (
	busy      = make(chan struct{}, 1)
	cacheOnce sync.Once
)

// noFiles is the file system Graphviz sees: none. Upstream gives it the
// host's, relative to the working folder, for the files a DOT attribute
// names (image=, shapefile=); our DOT names none.
type noFiles struct{}

func (noFiles) Open(name string) (fs.File, error) {
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// Render lays out src (DOT) with Graphviz's dot layout and returns it as
// format ("svg" or "png"). Renders run one at a time. When ctx is done
// first, Render returns ctx's error at once; the render goes on in the
// background until Graphviz finishes (it cannot be interrupted without
// making every render 2.7 times slower), and the next Render waits for it.
func Render(ctx context.Context, src []byte, format string) ([]byte, error) {
	if format != "svg" && format != "png" {
		return nil, fmt.Errorf("gvrender: unsupported format %q", format)
	}
	select {
	case busy <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("gvrender: %w", ctx.Err())
	}
	type result struct {
		out []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer func() { <-busy }()
		out, err := render(src, format)
		done <- result{out, err}
	}()
	select {
	case r := <-done:
		return r.out, r.err
	case <-ctx.Done():
		return nil, fmt.Errorf("gvrender: %w", ctx.Err())
	}
}

// render is Render's work, with the token held.
func render(src []byte, format string) (out []byte, err error) {
	cacheOnce.Do(func() {
		graphviz.SetFileSystem(noFiles{})
		if base, err := os.UserCacheDir(); err == nil {
			if dir, err := privateDir(base, "upkdeps", "graphviz"); err == nil {
				graphviz.SetCompilationCacheDir(dir)
			}
		}
	})
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("gvrender: graphviz failed: %v", r)
		}
	}()
	ctx := context.Background()
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
	var buf bytes.Buffer
	if err := gv.Render(ctx, g, graphviz.Format(format), &buf); err != nil {
		return nil, fmt.Errorf("gvrender: render %s: %w", format, err)
	}
	return buf.Bytes(), nil
}

// Loads returns how many times this process loaded the Graphviz module:
// 0 until the first Render.
func Loads() int {
	return graphviz.Loads()
}

// privateDir returns base/elem... after creating each missing folder 0700
// and checking that each is a real folder (not a symbolic link) of the
// user, which nobody else may write: the compiled code kept in it is run.
// A folder of the user's that others may write is made 0700.
func privateDir(base string, elem ...string) (string, error) {
	if err := os.MkdirAll(base, 0o700); err != nil {
		return "", err
	}
	dir := base
	for _, e := range elem {
		dir = filepath.Join(dir, e)
		if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return "", err
		}
		fi, err := os.Lstat(dir)
		if err != nil {
			return "", err
		}
		if !fi.IsDir() {
			return "", fmt.Errorf("%s is not a folder", dir)
		}
		if !ownedByUser(fi) {
			return "", fmt.Errorf("%s belongs to another user", dir)
		}
		if fi.Mode().Perm()&0o022 != 0 {
			if err := os.Chmod(dir, 0o700); err != nil {
				return "", err
			}
		}
	}
	return dir, nil
}
