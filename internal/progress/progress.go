// Package progress draws a progress bar on stderr when, and only when, it is
// a terminal; elsewhere (pipes, CI, files) it is silent.
package progress

import (
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Bar counts done work items. A nil *Bar is valid and does nothing, so
// callers need no checks.
type Bar struct{ pb *progressbar.ProgressBar }

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// New returns a bar for total items described by what, drawn on w when w is
// a terminal and enabled is true; otherwise nil.
func New(w io.Writer, enabled bool, total int, what string) *Bar {
	if !enabled || total <= 0 || !IsTerminal(w) {
		return nil
	}
	return &Bar{pb: progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetPredictTime(true),
	)}
}

// Add records n more items done. Safe for concurrent use.
func (b *Bar) Add(n int) {
	if b != nil {
		b.pb.Add(n)
	}
}

// Done clears the bar.
func (b *Bar) Done() {
	if b != nil {
		b.pb.Finish()
	}
}
