package check

import (
	"fmt"
	"io"
	"slices"

	"github.com/upkdeps/upkdeps/format"
)

// tables is a mod's package as check --with holds it: only the byte
// ranges its header and tables occupy, the ones the graph reads (with
// format.NewFile and a format.Reader's view, which read exactly these
// ranges of the same bytes), not the package. A read elsewhere is an error
// naming its offset.
type tables struct {
	member string
	size   int64
	spans  []span // sorted, apart
	held   int64  // bytes in spans
}

type span struct {
	off int64
	b   []byte
}

// keepTables parses the package r of size bytes (a member of a mod) as
// the graph will, recording what it reads, and returns those bytes alone
// with the parsed file. r is not retained.
func keepTables(member string, r io.ReaderAt, size int64) (*tables, *format.File, error) {
	rec := &recorder{r: r}
	f, err := format.NewFile(rec, size)
	if err != nil {
		return nil, nil, err
	}
	var rd format.Reader
	if _, err := rd.ViewAt(rec, size, member); err != nil {
		return nil, nil, err
	}
	slices.SortFunc(rec.read, func(a, b [2]int64) int { return int(min(max(a[0]-b[0], -1), 1)) })
	// Merge the ranges read, then copy them out of r.
	var merged [][2]int64
	for _, x := range rec.read {
		if n := len(merged); n > 0 && x[0] <= merged[n-1][1] {
			merged[n-1][1] = max(merged[n-1][1], x[1])
			continue
		}
		merged = append(merged, x)
	}
	t := &tables{member: member, size: size}
	for _, m := range merged {
		b := make([]byte, m[1]-m[0])
		if _, err := r.ReadAt(b, m[0]); err != nil && err != io.EOF {
			return nil, nil, err
		}
		t.spans = append(t.spans, span{m[0], b})
		t.held += int64(len(b))
	}
	return t, f, nil
}

// Size is the package's size.
func (t *tables) Size() int64 { return t.size }

// ReadAt reads from the ranges held.
func (t *tables) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("%s: negative offset %d", t.member, off)
	}
	done := 0
	for done < len(p) {
		x := off + int64(done)
		if x >= t.size {
			return done, io.EOF
		}
		i, _ := slices.BinarySearchFunc(t.spans, x, func(s span, x int64) int { return int(min(max(s.off-x, -1), 1)) })
		// i is the first span starting at or after x: x is in it, or in
		// the one before.
		if i == len(t.spans) || t.spans[i].off > x {
			i--
		}
		if i < 0 || x >= t.spans[i].off+int64(len(t.spans[i].b)) {
			return done, fmt.Errorf("%s: offset %d of the %d-byte package is not held (only its header and tables are)", t.member, x, t.size)
		}
		done += copy(p[done:], t.spans[i].b[x-t.spans[i].off:])
	}
	return done, nil
}

// recorder is an io.ReaderAt that notes the ranges read through it.
type recorder struct {
	r    io.ReaderAt
	read [][2]int64 // [start, end)
}

func (r *recorder) ReadAt(p []byte, off int64) (int, error) {
	n, err := r.r.ReadAt(p, off)
	if n > 0 {
		r.read = append(r.read, [2]int64{off, off + int64(n)})
	}
	return n, err
}
