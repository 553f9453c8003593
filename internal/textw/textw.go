// Package textw holds the small helpers of the text renderers of the
// report types: a writer that keeps its first error so printing code stays
// linear, and the singular or plural form of a count's noun.
package textw

import (
	"fmt"
	"io"
)

// Writer keeps the first write error of W so printing code stays linear:
// after a failed write, Printf does nothing and Err holds the error.
type Writer struct {
	W   io.Writer
	Err error
}

// Printf writes to W as fmt.Fprintf does unless an earlier write failed.
func (w *Writer) Printf(format string, args ...any) {
	if w.Err == nil {
		_, w.Err = fmt.Fprintf(w.W, format, args...)
	}
}

// Plural returns one when n is 1, else many.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// GUID returns g, or "(no GUID)" when g is empty.
func GUID(g string) string {
	if g == "" {
		return "(no GUID)"
	}
	return g
}

// Do calls write with W unless an earlier write failed, and keeps its
// error: a renderer of another package joins the linear printing.
func (w *Writer) Do(write func(io.Writer) error) {
	if w.Err == nil {
		w.Err = write(w.W)
	}
}
