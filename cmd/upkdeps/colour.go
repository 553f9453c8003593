package main

import (
	"io"
	"os"
	"regexp"
	"sync"

	"github.com/upkdeps/upkdeps/internal/progress"
)

// colourWriter colours the severity that begins a line of text output
// ("ERROR missing_package: ...", "  1. WARNING cycle: ..."): red for
// ERROR, yellow for WARNING. It sits below the termsafe filter, which
// escapes every control character read from a file, so the only escape
// sequences on the terminal are these.
type colourWriter struct{ w io.Writer }

// severityStart is compiled on first use: only a terminal's output is
// coloured, and compiling it at start cost every command.
var severityStart = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^( *(?:[0-9]+\. )?)(ERROR|WARNING)\b`)
})

func (c colourWriter) Write(p []byte) (int, error) {
	re := severityStart()
	out := re.ReplaceAllFunc(p, func(m []byte) []byte {
		sub := re.FindSubmatch(m)
		code := "\x1b[1;31m" // bold red
		if string(sub[2]) == "WARNING" {
			code = "\x1b[33m" // yellow
		}
		return append(append(append(append([]byte{}, sub[1]...), code...), sub[2]...), "\x1b[0m"...)
	})
	if _, err := c.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// colourOut returns w wrapped in a colourWriter when colour is wanted: w
// is a terminal, NO_COLOR is unset or empty (no-color.org) and TERM is
// not "dumb". A pipe or a file gets plain text.
func colourOut(w io.Writer) io.Writer {
	if os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" || !progress.IsTerminal(w) {
		return w
	}
	return colourWriter{w}
}
