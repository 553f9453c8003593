package ini

import (
	"bytes"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// Encoding is how the text of a file is stored. Decode tells it; Encode
// writes text back in it, so that an editor keeps a file's encoding.
type Encoding int

const (
	UTF8      Encoding = iota // UTF-8 (or ASCII) without a byte-order mark
	UTF8BOM                   // UTF-8 with a byte-order mark
	Latin1                    // 8-bit text that is not valid UTF-8: the engine's ANSI, one byte one character
	Latin1BOM                 // Latin-1 after a UTF-8 byte-order mark (a file two tools have edited)
	UTF16LE                   // UTF-16 little-endian with a byte-order mark (UT2004's user inis)
	UTF16BE                   // UTF-16 big-endian with a byte-order mark
)

func (e Encoding) String() string {
	switch e {
	case UTF8:
		return "UTF-8"
	case UTF8BOM:
		return "UTF-8 with BOM"
	case Latin1:
		return "Latin-1"
	case Latin1BOM:
		return "Latin-1 after a UTF-8 BOM"
	case UTF16LE:
		return "UTF-16LE"
	case UTF16BE:
		return "UTF-16BE"
	}
	return fmt.Sprintf("Encoding(%d)", int(e))
}

// byte-order marks
var (
	bomUTF8    = []byte{0xEF, 0xBB, 0xBF}
	bomUTF16LE = []byte{0xFF, 0xFE}
	bomUTF16BE = []byte{0xFE, 0xFF}
)

// sniff tells the encoding from a byte-order mark, and the mark's length.
// Without a mark it returns UTF8 and 0: the caller tells UTF-8 from Latin-1.
func sniff(data []byte) (Encoding, int) {
	switch {
	case bytes.HasPrefix(data, bomUTF16LE):
		return UTF16LE, 2
	case bytes.HasPrefix(data, bomUTF16BE):
		return UTF16BE, 2
	case bytes.HasPrefix(data, bomUTF8):
		return UTF8BOM, 3
	}
	return UTF8, 0
}

// Decode turns the bytes of an ini file into UTF-8 text, the way the engine's
// appLoadFileToString reads them: a UTF-16 byte-order mark selects UTF-16
// (little- or big-endian), a UTF-8 mark is dropped, and a file without a mark
// is UTF-8 when it is valid UTF-8 and Latin-1 (one byte, one character, as the
// engine widens ANSI text) otherwise. NUL characters are refused: no text ini
// holds them, and a UTF-16 file that lost its mark is full of them. Invalid
// UTF-16 (an odd byte count, an unpaired surrogate) is refused too. Errors
// are *Error values naming name and the line. Parse decodes with it; an
// editor keeps the Encoding to write the file back (see Encode).
func Decode(name string, data []byte) (string, Encoding, error) {
	enc, skip := sniff(data)
	if enc == UTF16LE || enc == UTF16BE {
		out, bad := decodeUTF16(data[skip:], enc == UTF16BE, false)
		if bad != nil {
			return "", enc, &Error{File: name, Line: lineAt(out, len(out)), Msg: bad.msg(skip)}
		}
		return string(out), enc, nil
	}
	data = data[skip:]
	if ver, ok := lineage2Header(data); ok {
		return "", enc, &Error{File: name, Line: 1, Msg: fmt.Sprintf("an encrypted Lineage 2 file (header Lineage2Ver%s, UTF-16): "+
			"the game decrypts it when it loads it; decrypt it first to read it as an ini", ver)}
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return "", enc, &Error{File: name, Line: lineAt(data, i), Msg: fmt.Sprintf("NUL byte at offset %d: binary data, or UTF-16 text without a byte-order mark", skip+i)}
	}
	if utf8.Valid(data) {
		return string(data), enc, nil
	}
	out := make([]byte, 0, len(data)+len(data)/8)
	for _, b := range data {
		out = utf8.AppendRune(out, rune(b))
	}
	if enc == UTF8BOM {
		return string(out), Latin1BOM, nil
	}
	return string(out), Latin1, nil
}

// DecodeLenient is Decode for source text (UnrealScript .uc files) that
// must be read whatever it holds; it never fails. The byte-order marks are
// read as by Decode, and a file without one whose first two characters are
// ASCII in UTF-16LE (UnrealEd's "Unicode" export without a mark) is read as
// UTF-16LE. Invalid UTF-16 is repaired (an unpaired surrogate becomes
// U+FFFD, a trailing odd byte is dropped) and NUL characters are kept.
// 8-bit text (ASCII, UTF-8, Windows-1252) is returned as it is, without its
// UTF-8 mark: the caller converts what it shows. The result may share
// data's memory.
func DecodeLenient(data []byte) ([]byte, Encoding) {
	enc, skip := sniff(data)
	if enc == UTF8 && len(data) >= 4 && data[0] != 0 && data[1] == 0 && data[2] != 0 && data[3] == 0 {
		enc = UTF16LE
	}
	if enc == UTF16LE || enc == UTF16BE {
		out, _ := decodeUTF16(data[skip:], enc == UTF16BE, true)
		return out, enc
	}
	return data[skip:], enc
}

// badUTF16 is what decodeUTF16 refuses, at byte offset off of its input.
type badUTF16 struct {
	off  int
	unit rune // the unit refused; -1 for a trailing odd byte
}

// msg describes the problem; skip is the length of the byte-order mark, so
// that the offset counts from the start of the file.
func (b *badUTF16) msg(skip int) string {
	switch {
	case b.unit < 0:
		return "truncated UTF-16 text: odd number of bytes"
	case b.unit == 0:
		return fmt.Sprintf("NUL character at offset %d", skip+b.off)
	}
	return fmt.Sprintf("invalid UTF-16: unpaired surrogate 0x%04X at offset %d", b.unit, skip+b.off)
}

// decodeUTF16 decodes UTF-16 code units (after the byte-order mark) to
// UTF-8. Strict (lenient false), it stops at the first unpaired surrogate,
// NUL character or trailing odd byte and returns what it decoded before it
// and the problem. Lenient, it replaces unpaired surrogates with U+FFFD,
// keeps NUL characters and drops a trailing odd byte.
func decodeUTF16(data []byte, bigEndian, lenient bool) ([]byte, *badUTF16) {
	out := make([]byte, 0, len(data)/2+len(data)/8)
	unit := func(i int) rune {
		if bigEndian {
			return rune(data[i])<<8 | rune(data[i+1])
		}
		return rune(data[i]) | rune(data[i+1])<<8
	}
	for i := 0; i < len(data); i += 2 {
		if i+1 >= len(data) {
			if lenient {
				break
			}
			return out, &badUTF16{off: i, unit: -1}
		}
		r := unit(i)
		switch {
		case r == 0 && !lenient:
			return out, &badUTF16{off: i, unit: 0}
		case utf16.IsSurrogate(r):
			pair := utf8.RuneError
			if r < 0xDC00 && i+3 < len(data) {
				pair = utf16.DecodeRune(r, unit(i+2))
			}
			switch {
			case pair != utf8.RuneError:
				r = pair
				i += 2
			case lenient:
				r = utf8.RuneError
			default:
				return out, &badUTF16{off: i, unit: r}
			}
		}
		out = utf8.AppendRune(out, r)
	}
	return out, nil
}

// Encode returns text stored in encoding e, with e's byte-order mark: the
// inverse of Decode. Text that Latin-1 cannot hold (a character above
// U+00FF) is an error naming the character. For UTF8 and UTF8BOM the text is
// written as it is.
func (e Encoding) Encode(text string) ([]byte, error) {
	switch e {
	case UTF8BOM:
		return append(append(make([]byte, 0, 3+len(text)), bomUTF8...), text...), nil
	case Latin1, Latin1BOM:
		out := make([]byte, 0, 3+len(text))
		if e == Latin1BOM {
			out = append(out, bomUTF8...)
		}
		for _, r := range text {
			if r > 0xFF {
				return nil, fmt.Errorf("%q cannot be written in Latin-1", r)
			}
			out = append(out, byte(r))
		}
		return out, nil
	case UTF16LE, UTF16BE:
		out := make([]byte, 0, 2+2*len(text))
		if e == UTF16LE {
			out = append(out, bomUTF16LE...)
		} else {
			out = append(out, bomUTF16BE...)
		}
		put := func(u uint16) {
			if e == UTF16LE {
				out = append(out, byte(u), byte(u>>8))
			} else {
				out = append(out, byte(u>>8), byte(u))
			}
		}
		for _, r := range text {
			if r1, r2 := utf16.EncodeRune(r); r1 != utf8.RuneError {
				put(uint16(r1))
				put(uint16(r2))
			} else {
				put(uint16(r))
			}
		}
		return out, nil
	}
	return []byte(text), nil
}

// lineAt returns the 1-based line of byte offset off in b, counting line
// breaks as Lines does: "\r\n", "\n" and a lone "\r" each end a line.
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

// lineage2Header reports whether data starts with the header of Lineage 2's
// encrypted files: "Lineage2Ver" and a number (111, 120, 121, 211, 212,
// 413, ...) in UTF-16LE without a byte-order mark, 28 bytes (FORMAT.md,
// "Licensee variants"; UE Viewer's UnPackage2.cpp). It returns the number.
func lineage2Header(data []byte) (string, bool) {
	const magic = "Lineage2Ver"
	if len(data) < 2*(len(magic)+3) {
		return "", false
	}
	var ver []byte
	for i := range len(magic) + 3 {
		c, hi := data[2*i], data[2*i+1]
		if hi != 0 {
			return "", false
		}
		if i < len(magic) {
			if c != magic[i] {
				return "", false
			}
		} else if c < '0' || c > '9' {
			return "", false
		} else {
			ver = append(ver, c)
		}
	}
	return string(ver), true
}
