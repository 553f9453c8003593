package uz

import (
	"encoding/binary"
	"fmt"
	"io"
	"unicode/utf16"
	"unicode/utf8"
)

// Signatures of a .uz file. Sig1234 is the classic codec chain every UE1
// client reads (RLE, BWT, MTF, Huffman); Sig5678 adds a second RLE pass
// before Huffman and is readable only by UT v469 and later.
const (
	Sig1234 int32 = 1234
	Sig5678 int32 = 5678
)

// maxNameLen bounds the embedded original file name, in characters
// including the terminating NUL. Real names are file names (< 256).
const maxNameLen = 1024

// Header is the start of a .uz file.
type Header struct {
	Signature int32  // Sig1234 or Sig5678
	Name      string // original file name, as stored (not checked to be a plain name)
}

// readHeader parses the signature and the FString original file name.
func readHeader(in *input) (Header, error) {
	var h Header
	sig, err := in.readInt32("signature")
	if err != nil {
		return h, err
	}
	if sig != Sig1234 && sig != Sig5678 {
		return h, &FormatError{Offset: 0, Msg: fmt.Sprintf("not a .uz file: signature %d (want 1234 or 5678)", sig)}
	}
	h.Signature = sig
	at := in.byteOffset()
	n, err := readCompactIndex(in)
	if err != nil {
		return h, err
	}
	switch {
	case n == 0:
		return h, nil
	case n > maxNameLen || n < -maxNameLen:
		return h, &FormatError{Offset: at, Msg: fmt.Sprintf("original file name length %d over the maximum %d", n, maxNameLen)}
	case n > 0: // Latin-1, NUL-terminated
		b := make([]byte, n)
		if err := in.readFull(b, "file name"); err != nil {
			return h, err
		}
		if b[n-1] != 0 {
			return h, &FormatError{Offset: at, Msg: "original file name not NUL-terminated"}
		}
		r := make([]rune, 0, n-1)
		for _, c := range b[:n-1] {
			if c == 0 {
				return h, &FormatError{Offset: at, Msg: "NUL inside original file name"}
			}
			r = append(r, rune(c))
		}
		h.Name = string(r)
	default: // UTF-16LE, NUL-terminated
		n = -n
		b := make([]byte, 2*n)
		if err := in.readFull(b, "file name"); err != nil {
			return h, err
		}
		u := make([]uint16, n)
		for i := range u {
			u[i] = binary.LittleEndian.Uint16(b[2*i:])
		}
		if u[n-1] != 0 {
			return h, &FormatError{Offset: at, Msg: "original file name not NUL-terminated"}
		}
		for _, c := range u[:n-1] {
			if c == 0 {
				return h, &FormatError{Offset: at, Msg: "NUL inside original file name"}
			}
		}
		h.Name = string(utf16.Decode(u[:n-1]))
	}
	return h, nil
}

// readCompactIndex reads the engine's variable-length signed integer:
// the first byte holds the sign (0x80), a continuation flag (0x40) and six
// bits; each further byte a continuation flag (0x80) and seven bits; at
// most five bytes.
func readCompactIndex(in *input) (int32, error) {
	at := in.byteOffset()
	b0, err := in.readByte("file name length")
	if err != nil {
		return 0, err
	}
	v := uint32(b0 & 0x3f)
	more := b0&0x40 != 0
	for shift := uint(6); more; shift += 7 {
		if shift > 27 {
			return 0, &FormatError{Offset: at, Msg: "file name length: compact index longer than five bytes"}
		}
		b, err := in.readByte("file name length")
		if err != nil {
			return 0, err
		}
		v |= uint32(b&0x7f) << shift
		more = b&0x80 != 0
	}
	if v > 1<<31-1 {
		return 0, &FormatError{Offset: at, Msg: "file name length: compact index out of range"}
	}
	if b0&0x80 != 0 {
		return -int32(v), nil
	}
	return int32(v), nil
}

// appendCompactIndex appends v in the engine's compact index encoding.
func appendCompactIndex(dst []byte, v int32) []byte {
	u := uint32(v)
	var b0 byte
	if v < 0 {
		b0 = 0x80
		u = uint32(-int64(v))
	}
	b0 |= byte(u & 0x3f)
	u >>= 6
	if u != 0 {
		b0 |= 0x40
	}
	dst = append(dst, b0)
	for u != 0 {
		b := byte(u & 0x7f)
		u >>= 7
		if u != 0 {
			b |= 0x80
		}
		dst = append(dst, b)
	}
	return dst
}

// appendHeader appends the signature and the name as the engine's FString:
// Latin-1 with a positive length when every character fits in a byte,
// otherwise UTF-16LE with a negative length; lengths count the NUL.
func appendHeader(dst []byte, h Header) ([]byte, error) {
	if !utf8.ValidString(h.Name) {
		return nil, fmt.Errorf("uz: file name %q is not valid UTF-8", h.Name)
	}
	latin1 := true
	n := 0
	for _, r := range h.Name {
		if r == 0 {
			return nil, fmt.Errorf("uz: file name %q contains NUL", h.Name)
		}
		if r > 0xff {
			latin1 = false
		}
		n++
	}
	if n == 0 {
		return nil, fmt.Errorf("uz: empty file name")
	}
	if n+1 > maxNameLen {
		return nil, fmt.Errorf("uz: file name longer than %d characters", maxNameLen-1)
	}
	dst = binary.LittleEndian.AppendUint32(dst, uint32(h.Signature))
	if latin1 {
		dst = appendCompactIndex(dst, int32(n+1))
		for _, r := range h.Name {
			dst = append(dst, byte(r))
		}
		return append(dst, 0), nil
	}
	u := utf16.Encode([]rune(h.Name))
	dst = appendCompactIndex(dst, -int32(len(u)+1))
	for _, c := range u {
		dst = binary.LittleEndian.AppendUint16(dst, c)
	}
	return append(dst, 0, 0), nil
}

// ReadHeader reads the header of a .uz file from r: its signature and the
// original file name it stores (a *FormatError when r does not start with
// one). Callers that only look at a file, such as a cache listing, use it
// to name what a .uz holds without decompressing anything.
func ReadHeader(r io.Reader) (Header, error) {
	return readHeader(newInput(r))
}
