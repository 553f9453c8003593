// Package window keeps the first and last bytes of a stream and serves
// io.ReaderAt from them: a package read as a stream (an archive member, a
// download) is described from its header and tables with bounded memory.
package window

import (
	"fmt"
	"io"
	"sync"
)

// The bytes of a package read as a stream (an archive member, a redirect
// download) that the index keeps to read its header and tables from: the
// first windowHead and the last windowTail bytes. Tables sit right after
// the header (names) and at the end of the file (imports, exports) in every
// package the engines write, so a package of any size is described with at
// most windowHead+windowTail bytes held per worker; a package whose tables
// lie elsewhere beyond that is an error naming the offset. (Variables for
// the tests only.)
var (
	Head = 4 << 20
	Tail = 16 << 20
)

// Window is an io.Writer that keeps the first head and the last tail bytes
// written to it and serves io.ReaderAt from them. It grows as bytes arrive:
// a small stream costs its own size.
type Window struct {
	headMax, tailMax int
	head             []byte
	tail             []byte // a ring once full: tail[start:] then tail[:start]
	start            int
	n                int64 // bytes written
}

// windows recycles windows: a worker reuses its buffers from package to
// package instead of leaving 20 MiB of garbage per package for the
// collector (which let the heap reach twice the live windows).
var windows sync.Pool

// Get returns an empty window of Head and Tail bytes, reused when one is
// free; Put gives it back once nothing reads it any more.
func Get() *Window {
	if w, ok := windows.Get().(*Window); ok && w.headMax == Head && w.tailMax == Tail {
		w.Reset()
		return w
	}
	return &Window{headMax: Head, tailMax: Tail}
}

// Reset empties w, keeping its memory for the next stream.
func (w *Window) Reset() { w.head, w.tail, w.start, w.n = w.head[:0], w.tail[:0], 0, 0 }

// Put gives w back for reuse.
func Put(w *Window) { windows.Put(w) }

func (w *Window) Write(p []byte) (int, error) {
	n := len(p)
	w.n += int64(n)
	if room := w.headMax - len(w.head); room > 0 {
		k := min(room, len(p))
		w.head = grow(w.head, k, w.headMax)
		w.head = append(w.head, p[:k]...)
		p = p[k:]
	}
	for len(p) > 0 {
		if len(w.tail) < w.tailMax {
			k := min(w.tailMax-len(w.tail), len(p))
			w.tail = grow(w.tail, k, w.tailMax)
			w.tail = append(w.tail, p[:k]...)
			p = p[k:]
			continue
		}
		// Full: overwrite the oldest bytes.
		if len(p) >= w.tailMax {
			p = p[len(p)-w.tailMax:]
		}
		k := copy(w.tail[w.start:], p)
		copy(w.tail, p[k:])
		w.start = (w.start + len(p)) % w.tailMax
		p = nil
	}
	return n, nil
}

// grow returns b with room for n more bytes, its capacity doubled but
// never over limit: append's own growth would overshoot the bound.
func grow(b []byte, n, limit int) []byte {
	if len(b)+n <= cap(b) {
		return b
	}
	nb := make([]byte, len(b), min(limit, max(2*cap(b), len(b)+n, 4096)))
	copy(nb, b)
	return nb
}

// Size is the number of bytes written.
func (w *Window) Size() int64 { return w.n }

// ReadAt reads from the bytes kept; a range in the middle of a stream
// longer than head and tail together is an error naming it.
func (w *Window) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("negative offset %d", off)
	}
	done := 0
	tailStart := w.n - int64(len(w.tail))
	for done < len(p) {
		x := off + int64(done)
		switch {
		case x >= w.n:
			return done, io.EOF
		case x < int64(len(w.head)):
			done += copy(p[done:], w.head[x:])
		case x >= tailStart:
			i := int(x - tailStart) // logical index in the tail
			j := (w.start + i) % len(w.tail)
			end := len(w.tail)
			if j < w.start {
				end = w.start
			}
			done += copy(p[done:], w.tail[j:end])
		default:
			return done, fmt.Errorf("offset %d of a %d-byte stream is not held (only its first %d and last %d bytes are read for the tables)",
				x, w.n, w.headMax, w.tailMax)
		}
	}
	return done, nil
}
