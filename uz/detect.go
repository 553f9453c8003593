package uz

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
)

// Kind is a redirect compression format.
type Kind int

const (
	KindUnknown Kind = iota
	KindUZ           // UE1 .uz
	KindUZ2          // UE2 .uz2
)

func (k Kind) String() string {
	switch k {
	case KindUZ:
		return "uz"
	case KindUZ2:
		return "uz2"
	}
	return "unknown"
}

// DetectSize is how many leading bytes Detect needs to see a whole .uz
// header; fewer are fine, Detect then judges on what it has.
const DetectSize = 4 + 5 + 2*maxNameLen

// Detect classifies a file by its first bytes (a download cache's
// Cache????.tmp files carry no extension). A .uz starts with signature 1234
// or 5678 and a well-formed original file name; a .uz2 with a chunk header
// within the format's limits followed by a zlib stream header.
func Detect(b []byte) Kind {
	if len(b) >= 4 {
		sig := int32(binary.LittleEndian.Uint32(b))
		if sig == Sig1234 || sig == Sig5678 {
			in := &input{r: bytes.NewReader(b), buf: make([]byte, min(len(b), DetectSize)+1)}
			if _, err := readHeader(in); err == nil || errors.Is(err, io.ErrUnexpectedEOF) {
				return KindUZ
			}
		}
	}
	if len(b) >= uz2HeaderSize+2 {
		csize := binary.LittleEndian.Uint32(b)
		usize := binary.LittleEndian.Uint32(b[4:])
		cmf, flg := b[8], b[9]
		if csize >= 8 && csize <= uz2MaxCompressed && usize >= 1 && usize <= uz2ChunkSize &&
			cmf&0x0f == 8 && cmf>>4 <= 7 && flg&0x20 == 0 && (uint(cmf)<<8|uint(flg))%31 == 0 {
			return KindUZ2
		}
	}
	return KindUnknown
}
