package uscript

import (
	"unicode/utf8"

	"github.com/upkdeps/upkdeps/ini"
)

// decode returns the source as bytes the lexer can read: the lenient mode
// of the ini package's decoder (ini.DecodeLenient), which reads the same
// byte-order marks as the ini reader, converts UTF-16 (LE or BE with a BOM,
// or LE without one when the first characters are plainly ASCII in UTF-16)
// to UTF-8, repairs what is invalid instead of failing, and returns 8-bit
// text (ASCII, UTF-8, Windows-1252) unchanged. UnrealScript syntax is ASCII,
// so the 8-bit encodings need no conversion to be scanned; only the evidence
// text is converted (see toUTF8).
func decode(src []byte) []byte {
	text, _ := ini.DecodeLenient(src)
	return text
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
