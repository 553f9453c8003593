package uscript

import (
	"unicode/utf16"
	"unicode/utf8"
)

// decode returns the source as bytes the lexer can read: UTF-8 with its BOM
// removed, UTF-16 (LE or BE with a BOM, or LE without one when the first
// characters are plainly ASCII in UTF-16) converted to UTF-8, anything else
// (ASCII, UTF-8, Windows-1252) unchanged. UnrealScript syntax is ASCII, so
// the 8-bit encodings need no conversion to be scanned; only the evidence
// text is converted (see lineText).
func decode(src []byte) []byte {
	switch {
	case len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF:
		return src[3:]
	case len(src) >= 2 && src[0] == 0xFF && src[1] == 0xFE:
		return fromUTF16(src[2:], false)
	case len(src) >= 2 && src[0] == 0xFE && src[1] == 0xFF:
		return fromUTF16(src[2:], true)
	case len(src) >= 4 && src[0] != 0 && src[1] == 0 && src[2] != 0 && src[3] == 0:
		return fromUTF16(src, false)
	}
	return src
}

// fromUTF16 converts UTF-16 to UTF-8. The result is at most 1.5 times the
// input (a 2-byte BMP unit becomes at most 3 bytes; a 4-byte pair, 4). A
// trailing odd byte is dropped; unpaired surrogates become U+FFFD.
func fromUTF16(b []byte, bigEndian bool) []byte {
	out := make([]byte, 0, len(b)+len(b)/2)
	for i := 0; i+1 < len(b); i += 2 {
		u := uint16(b[i]) | uint16(b[i+1])<<8
		if bigEndian {
			u = uint16(b[i])<<8 | uint16(b[i+1])
		}
		r := rune(u)
		if utf16.IsSurrogate(r) {
			r = utf8.RuneError
			if u < 0xDC00 && i+3 < len(b) {
				u2 := uint16(b[i+2]) | uint16(b[i+3])<<8
				if bigEndian {
					u2 = uint16(b[i+2])<<8 | uint16(b[i+3])
				}
				if d := utf16.DecodeRune(rune(u), rune(u2)); d != utf8.RuneError {
					r = d
					i += 2
				}
			}
		}
		out = utf8.AppendRune(out, r)
	}
	return out
}

// cp1252 maps the bytes 0x80-0x9F of Windows-1252 to runes; the other high
// bytes are Latin-1. Undefined positions map to U+FFFD.
var cp1252 = [32]rune{
	'€', '\uFFFD', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\uFFFD', 'Ž', '\uFFFD',
	'\uFFFD', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\uFFFD', 'ž', 'Ÿ',
}

// toUTF8 returns s as valid UTF-8, reading it as Windows-1252 when it is not
// UTF-8 already (the encoding UnrealEd writes).
func toUTF8(s []byte) string {
	if utf8.Valid(s) {
		return string(s)
	}
	out := make([]byte, 0, len(s)*2)
	for _, c := range s {
		switch {
		case c < 0x80:
			out = append(out, c)
		case c < 0xA0:
			out = utf8.AppendRune(out, cp1252[c-0x80])
		default:
			out = utf8.AppendRune(out, rune(c))
		}
	}
	return string(out)
}
