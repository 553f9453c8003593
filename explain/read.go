package explain

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxLineLength bounds a line: the rest of a longer line is skipped (and
// counted in Report.LinesTruncated).
const MaxLineLength = 16 << 10

// lineReader yields the lines of a log as UTF-8, whatever its encoding.
type lineReader struct {
	br        *bufio.Reader
	enc       string
	truncated int
}

// newLineReader sniffs the byte-order mark.
func newLineReader(r io.Reader) (*lineReader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	lr := &lineReader{br: br, enc: "8-bit"}
	head, err := br.Peek(3)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	switch {
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}):
		lr.enc = "UTF-16LE"
		br.Discard(2)
	case bytes.HasPrefix(head, []byte{0xFE, 0xFF}):
		lr.enc = "UTF-16BE"
		br.Discard(2)
	case bytes.HasPrefix(head, []byte{0xEF, 0xBB, 0xBF}):
		lr.enc = "UTF-8"
		br.Discard(3)
	}
	return lr, nil
}

// next returns the next line without its end (CRLF or LF), at most
// MaxLineLength bytes, and false at the end.
func (lr *lineReader) next() (string, bool, error) {
	if lr.enc == "UTF-16LE" || lr.enc == "UTF-16BE" {
		return lr.next16()
	}
	var line []byte
	long := false
	for {
		chunk, err := lr.br.ReadSlice('\n')
		if len(line)+len(chunk) <= MaxLineLength {
			line = append(line, chunk...)
		} else if !long {
			line = append(line, chunk[:MaxLineLength-len(line)]...)
			long = true
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if long {
			lr.truncated++
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return "", false, err
		}
		if len(line) == 0 && err != nil {
			return "", false, nil
		}
		return toText(bytes.TrimRight(line, "\r\n")), true, nil
	}
}

// next16 decodes UTF-16 code units up to a line feed.
func (lr *lineReader) next16() (string, bool, error) {
	var units []uint16
	long := false
	var b [2]byte
	for {
		if _, err := io.ReadFull(lr.br, b[:]); err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				if len(units) == 0 {
					return "", false, nil
				}
				break
			}
			return "", false, err
		}
		u := uint16(b[0]) | uint16(b[1])<<8
		if lr.enc == "UTF-16BE" {
			u = uint16(b[1]) | uint16(b[0])<<8
		}
		if u == '\n' {
			break
		}
		if len(units) < MaxLineLength/2 {
			units = append(units, u)
		} else {
			long = true
		}
	}
	if long {
		lr.truncated++
	}
	s := string(utf16.Decode(units))
	for len(s) > 0 && (s[len(s)-1] == '\r') {
		s = s[:len(s)-1]
	}
	return s, true, nil
}

// toText is b as UTF-8, read as Latin-1 (the engine's ANSI) when it is not
// valid UTF-8.
func toText(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	out := make([]rune, len(b))
	for i, c := range b {
		out[i] = rune(c)
	}
	return string(out)
}
