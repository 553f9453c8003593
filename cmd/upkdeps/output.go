package main

import (
	"encoding/json"
	"io"

	"github.com/upkdeps/upkdeps/internal/termsafe"
)

// emit prints a report: as JSON with --json, else with text; then returns
// errFindings when failed, for exit code 1.
func (a *app) emit(w io.Writer, report any, text func(io.Writer) error, failed bool) error {
	var err error
	if a.cfg.JSON {
		err = writeJSON(w, report)
	} else {
		// Names read from files reach the text: a terminal must not obey
		// an ESC sequence hidden in one (w may be sanitized already: an
		// escaped text passes a second filter unchanged).
		err = text(&termsafe.Writer{W: w})
	}
	if err != nil {
		return err
	}
	if failed {
		return errFindings
	}
	return nil
}

// writeJSON writes v as indented JSON with a trailing newline.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
