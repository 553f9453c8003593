package format

import (
	"bytes"
	"fmt"
	"io"
	"strings"
)

// MaxClassSerial bounds the serial data ClassDefaultBool reads.
const MaxClassSerial = 8 << 20

// ClassDefaultBool reports the value of the bool property name in the
// default properties of export i, a class of a UE2 package, read from r
// (the package file; nil: the file Open opened). found is false when the class sets no such property
// (the class's parent's default then holds).
//
// A UE2 class's serial data ends with its default properties: tagged
// properties (a compact name index, an info byte whose low nibble is the
// type, 3 for bool, whose bit 7 is a bool's value and whose bits 4-6 say
// how the size is stored, the size, the value) ending with the name None.
// They follow the class's script, whose bytecode this package does not
// parse, so their start is not known: a bool tag of name is taken where
// its bytes begin a run of well-formed tags that ends with None exactly
// at the end of the export's data. (KFRedirectTool's test RTDMut.u, a
// Killing Floor mutator, is such a class: corpus_test.go.) Data over
// MaxClassSerial is refused.
func (f *File) ClassDefaultBool(r io.ReaderAt, i int, name string) (value, found bool, err error) {
	if i < 0 || i >= len(f.Exports) {
		return false, false, fmt.Errorf("format: export %d out of range", i)
	}
	if r == nil {
		ra, ok := f.closer.(io.ReaderAt)
		if !ok {
			return false, false, fmt.Errorf("format: no file to read export %d from", i)
		}
		r = ra
	}
	e := &f.Exports[i]
	if !e.Class.IsNull() {
		return false, false, fmt.Errorf("format: export %d is not a class", i)
	}
	names := len(f.Names)
	if f.isView() {
		names = f.nameCount()
	}
	nameIdx, noneIdx := int32(-1), int32(-1)
	for j := range names {
		switch n := f.NameAt(int32(j)); {
		case nameIdx < 0 && strings.EqualFold(n, name):
			nameIdx = int32(j)
		case noneIdx < 0 && strings.EqualFold(n, "None"):
			noneIdx = int32(j)
		}
	}
	if nameIdx < 0 || noneIdx < 0 || e.SerialSize <= 0 {
		return false, false, nil
	}
	if e.SerialSize > MaxClassSerial {
		return false, false, &FormatError{Offset: int64(e.SerialOffset), Msg: fmt.Sprintf("class %s: %d bytes of serial data, over the %d read", f.NameAt(e.ObjectName), e.SerialSize, MaxClassSerial)}
	}
	data := make([]byte, e.SerialSize)
	if _, err := r.ReadAt(data, int64(e.SerialOffset)); err != nil {
		return false, false, &FormatError{Offset: int64(e.SerialOffset), Msg: fmt.Sprintf("class %s: reading its serial data: %v", f.NameAt(e.ObjectName), err)}
	}
	tag := appendCompact(nil, nameIdx)
	for off := 0; ; {
		k := bytes.Index(data[off:], tag)
		if k < 0 {
			return false, false, nil
		}
		p := off + k
		off = p + 1
		if q := p + len(tag); q < len(data) && data[q]&0x0F == 3 && tagsToEnd(data, p, int32(names), noneIdx) {
			return data[q]&0x80 != 0, true, nil
		}
	}
}

// tagsToEnd reports whether data[p:] is a run of well-formed tagged
// properties ending with None exactly at the end of data.
func tagsToEnd(data []byte, p int, names, none int32) bool {
	for p < len(data) {
		idx, n := readCompact(data[p:])
		if n == 0 || idx < 0 || idx >= names {
			return false
		}
		p += n
		if idx == none {
			return p == len(data)
		}
		if p >= len(data) {
			return false
		}
		info := data[p]
		p++
		typ := info & 0x0F
		if typ == 0 || typ > 15 {
			return false
		}
		if typ == 10 { // StructProperty: the struct's name
			s, n := readCompact(data[p:])
			if n == 0 || s < 0 || s >= names {
				return false
			}
			p += n
		}
		var size int
		switch (info >> 4) & 7 {
		case 0:
			size = 1
		case 1:
			size = 2
		case 2:
			size = 4
		case 3:
			size = 12
		case 4:
			size = 16
		case 5:
			if p+1 > len(data) {
				return false
			}
			size, p = int(data[p]), p+1
		case 6:
			if p+2 > len(data) {
				return false
			}
			size, p = int(data[p])|int(data[p+1])<<8, p+2
		case 7:
			if p+4 > len(data) {
				return false
			}
			size, p = int(data[p])|int(data[p+1])<<8|int(data[p+2])<<16|int(data[p+3])<<24, p+4
		}
		if typ == 3 {
			if size != 0 {
				return false
			}
		} else if info&0x80 != 0 { // an array index
			if p >= len(data) {
				return false
			}
			switch b := data[p]; {
			case b&0x80 == 0:
				p++
			case b&0xC0 == 0x80:
				p += 2
			default:
				p += 4
			}
		}
		if size < 0 || p+size > len(data) {
			return false
		}
		p += size
	}
	return false
}

// readCompact decodes a compact index; n is 0 when b ends inside it.
func readCompact(b []byte) (v int32, n int) {
	if len(b) == 0 {
		return 0, 0
	}
	b0 := b[0]
	u := uint32(b0 & 0x3F)
	n = 1
	if b0&0x40 != 0 {
		shift := uint(6)
		for {
			if n >= len(b) || n > 4 {
				return 0, 0
			}
			c := b[n]
			n++
			u |= uint32(c&0x7F) << shift
			shift += 7
			if c&0x80 == 0 {
				break
			}
		}
	}
	v = int32(u)
	if b0&0x80 != 0 {
		v = -v
	}
	return v, n
}

// appendCompact encodes v as a compact index.
func appendCompact(b []byte, v int32) []byte {
	var e encoder
	e.b = b
	e.index(v)
	return e.b
}
