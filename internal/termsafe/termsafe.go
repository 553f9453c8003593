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
	if safePrefix(s, false) == len(s) {
		return s
	}
	var b strings.Builder
	write(&b, s, false)
	return b.String()
}

// safePrefix returns how many bytes at the start of s need no escape. Its
// loop takes printable ASCII, newline and tab a byte at a time without
// decoding; other bytes are decoded and asked of escape.
func safePrefix[T string | []byte](s T, keepCR bool) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f || c == '\n' || c == '\t' {
			i++
			continue
		}
		if c < 0x80 {
			if c == '\r' && keepCR {
				i++
				continue
			}
			return i
		}
		// At most 4 bytes, converted on the stack.
		r, n := utf8.DecodeRuneInString(string(s[i:min(i+utf8.UTFMax, len(s))]))
		if r == utf8.RuneError && n <= 1 || escape(r, keepCR) != "" {
			return i
		}
		i += n
	}
	return len(s)
}

// write appends s to b escaped: its safe runs as they are, each character
// that needs it as its escape, each byte that is not UTF-8 as \xNN.
func write(b *strings.Builder, s string, keepCR bool) {
	for len(s) > 0 {
		n := safePrefix(s, keepCR)
		b.WriteString(s[:n])
		s = s[n:]
		if len(s) == 0 {
			return
		}
		r, size := utf8.DecodeRuneInString(s)
		if r == utf8.RuneError && size <= 1 {
			fmt.Fprintf(b, `\x%02x`, s[0])
		} else {
			b.WriteString(escape(r, keepCR))
		}
		s = s[size:]
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
	n := safePrefix(p, w.KeepCR)
	if n == len(p) {
		return w.W.Write(p)
	}
	var b strings.Builder
	b.Grow(len(p) + 16)
	b.Write(p[:n])
	write(&b, string(p[n:]), w.KeepCR)
	if _, err := io.WriteString(w.W, b.String()); err != nil {
		return 0, err
	}
	return len(p), nil
}
