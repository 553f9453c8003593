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

// Bytes writes a size for people: "512 B", "1.5 KiB", up to TiB.
func Bytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 3; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGT"[exp])
}

// Percent writes part as a percentage of whole with one decimal, or "-"
// when whole is 0.
func Percent(part, whole int64) string {
	if whole == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(part)/float64(whole))
}
