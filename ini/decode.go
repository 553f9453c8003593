package ini

import (
	"bytes"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// decode turns the bytes of an ini file into UTF-8 text, the way the engine's
// appLoadFileToString reads them: a UTF-16 byte-order mark selects UTF-16
// (little- or big-endian), a UTF-8 mark is dropped, and a file without a mark
// is UTF-8 when it is valid UTF-8 and Latin-1 (one byte, one character, as the
// engine widens ANSI text) otherwise. NUL characters are refused: no text ini
// holds them, and a UTF-16 file that lost its mark is full of them.
func decode(name string, data []byte) (string, error) {
	switch {
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}):
		return decodeUTF16(name, data[2:], false)
	case bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		return decodeUTF16(name, data[2:], true)
	}
	skip := 0
	if bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}) {
		skip = 3
		data = data[3:]
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return "", &Error{File: name, Line: lineAt(data, i), Msg: fmt.Sprintf("NUL byte at offset %d: binary data, or UTF-16 text without a byte-order mark", skip+i)}
	}
	if utf8.Valid(data) {
		return string(data), nil
	}
	out := make([]byte, 0, len(data)+len(data)/8)
	for _, b := range data {
		out = utf8.AppendRune(out, rune(b))
	}
	return string(out), nil
}

// decodeUTF16 decodes UTF-16 code units (after the byte-order mark) to UTF-8.
// Unpaired surrogates, NUL characters and a trailing odd byte are errors that
// name the line they occur on.
func decodeUTF16(name string, data []byte, bigEndian bool) (string, error) {
	out := make([]byte, 0, len(data)/2+len(data)/8)
	unit := func(i int) rune {
		if bigEndian {
			return rune(data[i])<<8 | rune(data[i+1])
		}
		return rune(data[i]) | rune(data[i+1])<<8
	}
	fail := func(msg string) error {
		return &Error{File: name, Line: lineAt(out, len(out)), Msg: msg}
	}
	for i := 0; i < len(data); i += 2 {
		if i+1 >= len(data) {
			return "", fail("truncated UTF-16 text: odd number of bytes")
		}
		r := unit(i)
		switch {
		case r == 0:
			return "", fail(fmt.Sprintf("NUL character at offset %d", i+2))
		case utf16.IsSurrogate(r):
			if r >= 0xDC00 || i+3 >= len(data) {
				return "", fail(fmt.Sprintf("invalid UTF-16: unpaired surrogate 0x%04X at offset %d", r, i+2))
			}
			r2 := unit(i + 2)
			pair := utf16.DecodeRune(r, r2)
			if pair == utf8.RuneError {
				return "", fail(fmt.Sprintf("invalid UTF-16: unpaired surrogate 0x%04X at offset %d", r, i+2))
			}
			r = pair
			i += 2
		}
		out = utf8.AppendRune(out, r)
	}
	return string(out), nil
}

// lineAt returns the 1-based line of byte offset off in b, counting line
// breaks as the scanner does: "\r\n", "\n" and a lone "\r" each end a line.
func lineAt(b []byte, off int) int {
	line := 1
	for i := 0; i < off && i < len(b); i++ {
		switch b[i] {
		case '\n':
			line++
		case '\r':
			if i+1 >= len(b) || b[i+1] != '\n' {
				line++
			}
		}
	}
	return line
}
