package ini

import (
	"encoding/binary"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
)

// text joins lines with "\n" and a final newline.
func text(lines ...string) []byte {
	return []byte(strings.Join(lines, "\n") + "\n")
}

// crlf joins lines with "\r\n" and a final line end.
func crlf(lines ...string) []byte {
	return []byte(strings.Join(lines, "\r\n") + "\r\n")
}

// utf16Text encodes s as UTF-16 with a byte-order mark.
func utf16Text(s string, order binary.AppendByteOrder) []byte {
	units := utf16.Encode([]rune(s))
	out := make([]byte, 0, 2+2*len(units))
	out = order.AppendUint16(out, 0xFEFF)
	for _, u := range units {
		out = order.AppendUint16(out, u)
	}
	return out
}

// mustParse parses data or fails the test.
func mustParse(t *testing.T, name string, data []byte) *File {
	t.Helper()
	f, err := Parse(name, data)
	if err != nil {
		t.Fatalf("Parse(%s): %v", name, err)
	}
	return f
}

// checkStrings compares two string lists.
func checkStrings(t *testing.T, what string, have, want []string) {
	t.Helper()
	if !slices.Equal(have, want) {
		t.Errorf("%s:\nhave %q\nwant %q", what, have, want)
	}
}
