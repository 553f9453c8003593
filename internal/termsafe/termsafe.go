// Package termsafe escapes what a terminal would obey in text that comes
// from files: names inside archives, packages and inis are hostile until
// shown harmless. An ESC in a member name must print as \x1b, not clear the
// screen or set the window title. JSON passes through unchanged in meaning:
// the encoder escapes C0 controls itself, and what it leaves raw (C1, bidi
// controls) is written as a JSON-valid \uXXXX.
package termsafe

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// escape returns the escape of r when a terminal could act on it: C0
// controls but newline and tab (and carriage return when keepCR), DEL, the
// C1 controls (U+0080-U+009F: 8-bit CSI among them), and the bidirectional
// overrides and isolates that reorder what is shown. "" when r is harmless.
func escape(r rune, keepCR bool) string {
	switch {
	case r == '\n' || r == '\t' || (r == '\r' && keepCR):
		return ""
	case r < 0x20:
		return fmt.Sprintf(`\x%02x`, r)
	case r == 0x7f || (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f:
		// \u, not \x: valid inside a JSON string too, where the encoder
		// leaves these characters raw (C0 it escapes itself).
		return fmt.Sprintf(`\u%04x`, r)
	}
	return ""
}

// String returns s with every control character (newline and tab kept)
// written as an escape (\x1b; \u007f, \u009b, \u202e for DEL, C1 and bidi)
// and each byte that is not UTF-8 as \xNN.
func String(s string) string {
	if clean(s, false) {
		return s
	}
	var b strings.Builder
	write(&b, s, false)
	return b.String()
}

func clean(s string, keepCR bool) bool {
	for _, r := range s {
		if r == utf8.RuneError || escape(r, keepCR) != "" {
			return false
		}
	}
	return true
}

func write(b *strings.Builder, s string, keepCR bool) {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(b, `\x%02x`, s[i])
		case escape(r, keepCR) != "":
			b.WriteString(escape(r, keepCR))
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
}

// Writer escapes (as String does) everything written through it to W.
// Each Write should hold whole lines or at least whole characters, as one
// fmt.Fprintf call does: a character cut between two writes is escaped as
// bytes.
type Writer struct {
	W io.Writer
	// KeepCR passes carriage returns through (a progress line on stderr).
	KeepCR bool
}

func (w *Writer) Write(p []byte) (int, error) {
	s := string(p)
	if clean(s, w.KeepCR) {
		return w.W.Write(p)
	}
	var b strings.Builder
	write(&b, s, w.KeepCR)
	if _, err := io.WriteString(w.W, b.String()); err != nil {
		return 0, err
	}
	return len(p), nil
}
