package format

import (
	"encoding/binary"
	"fmt"
	"unicode/utf16"
)

// This file reads and writes the table records of every Layout: the
// standard records go through the same functions with the zero Layout
// (the reader has a faster path for them as well, in decode.go).

// minRecords returns the smallest encoded name, import and export records
// of the layout, which bound table counts and read-ahead.
func (l Layout) minRecords() (name, imp, exp int) {
	idx, outer := 1, 4
	if l.Int32Index {
		idx = 4
	}
	if l.Outer16 {
		outer = 2
	}
	switch l.Names {
	case NameByteLen:
		name = 1 + 1 + 4
	case NameU16Len:
		name = 2 + 1 + 4
	case NameInt32Len:
		name = 4 + 4
	default:
		name = minNameRecord
	}
	imp = 3*idx + outer
	exp = 3*idx + outer + 4 + idx // class, super, name, outer, flags, size
	if l.FixedSerial {
		exp += 8 - idx // size and offset are int32
	}
	if l.ExportExtra {
		exp++
	}
	return name, imp, exp
}

// idx reads a compact index, or an int32 in Int32Index layouts.
func (d *decoder) idx(l Layout) int32 {
	if l.Int32Index {
		return d.i32()
	}
	return d.index()
}

// nameRef reads a name index of the layout and checks its range; at is the
// record start.
func (d *decoder) nameRef(l Layout, at int) int32 {
	v := d.idx(l)
	if uint32(v) >= uint32(d.names) {
		d.badName(v, at)
	}
	return v
}

// objRef reads an object reference of the layout and checks its range.
func (d *decoder) objRef(l Layout, what string) Ref {
	at := d.pos
	return d.ref(d.idx(l), at, what)
}

// outerRef reads an outer reference: an int32, or an int16 in Outer16
// layouts.
func (d *decoder) outerRef(l Layout) Ref {
	at := d.pos
	var v int32
	if l.Outer16 {
		if d.need(2) {
			v = int32(int16(binary.LittleEndian.Uint16(d.b[d.pos:])))
			d.pos += 2
		}
	} else {
		v = d.i32()
	}
	return d.ref(v, at, "outer")
}

// nameString reads the string of a name record as raw bytes (aliasing the
// decoder's buffer) and whether they are UTF-16.
func (d *decoder) nameString(l Layout, old bool) (raw []byte, wide bool) {
	switch {
	case old:
		return d.cstring(), false
	case l.Names == NameByteLen:
		if !d.need(1) {
			return nil, false
		}
		n := int(d.b[d.pos])
		d.pos++
		return d.bytes(n + 1), false
	case l.Names == NameU16Len:
		start := d.pos
		if !d.need(2) {
			return nil, false
		}
		n := int(binary.LittleEndian.Uint16(d.b[d.pos:]))
		d.pos += 2
		if n+1 > maxNameBytes {
			d.err = formatErr(d.base+int64(start), "string length %d exceeds limit %d", n, maxNameBytes)
			return nil, false
		}
		return d.bytes(n + 1), false
	case l.Names == NameInt32Len:
		start := d.pos
		return d.fstringBody(d.i32(), start)
	}
	return d.fstring()
}

// bytes returns the next n bytes, aliasing the buffer.
func (d *decoder) bytes(n int) []byte {
	if !d.need(n) {
		return nil
	}
	b := d.b[d.pos : d.pos+n]
	d.pos += n
	return b
}

// importRecord decodes one import of the layout.
func (d *decoder) importRecord(l Layout) (im Import, ok bool) {
	start := d.pos
	if l.Reordered {
		im.Outer = d.outerRef(l)
		im.ObjectName = d.nameRef(l, start)
		im.ClassPackage = d.nameRef(l, start)
		im.ClassName = d.nameRef(l, start)
	} else {
		im.ClassPackage = d.nameRef(l, start)
		im.ClassName = d.nameRef(l, start)
		im.Outer = d.outerRef(l)
		im.ObjectName = d.nameRef(l, start)
	}
	return im, !d.failed()
}

// exportRecord decodes one export of the layout; size is the file size
// that serial data must lie within.
func (d *decoder) exportRecord(l Layout, size int64) (ex Export, ok bool) {
	start := d.pos
	if l.Reordered {
		ex.ObjectName = d.nameRef(l, start)
		ex.Super = d.objRef(l, "super")
		ex.Outer = d.outerRef(l)
		ex.ObjectFlags = d.u32()
		ex.Class = d.objRef(l, "class")
	} else {
		ex.Class = d.objRef(l, "class")
		ex.Super = d.objRef(l, "super")
		ex.Outer = d.outerRef(l)
		if l.ExportExtra {
			d.index()
		}
		ex.ObjectName = d.nameRef(l, start)
		ex.ObjectFlags = d.u32()
	}
	at := d.pos
	if l.FixedSerial {
		ex.SerialSize = d.i32()
		ex.SerialOffset = d.i32()
	} else {
		ex.SerialSize = d.idx(l)
		if ex.SerialSize > 0 {
			ex.SerialOffset = d.idx(l)
		}
	}
	if !d.failed() && (ex.SerialSize < 0 || ex.SerialSize > 0 && (ex.SerialOffset < 0 || int64(ex.SerialOffset)+int64(ex.SerialSize) > size)) {
		d.err = formatErr(d.base+int64(at), "serial data (offset %d, size %d) outside the file (size %d)", ex.SerialOffset, ex.SerialSize, size)
	}
	return ex, !d.failed()
}

// Writing.

func (e *encoder) idx(l Layout, v int32) {
	if l.Int32Index {
		e.u32(uint32(v))
		return
	}
	e.index(v)
}

func (e *encoder) outer(l Layout, r Ref) error {
	if l.Outer16 {
		if r < -1<<15 || r >= 1<<15 {
			return fmt.Errorf("format: outer reference %d does not fit the layout's 16 bits", r)
		}
		e.b = binary.LittleEndian.AppendUint16(e.b, uint16(int16(r)))
		return nil
	}
	e.u32(uint32(r))
	return nil
}

// layoutName writes the string of a name record in the layout's encoding.
func (e *encoder) layoutName(l Layout, s string, old bool) error {
	switch {
	case old || l.Names == NameStandard:
		return e.name(s, old)
	case l.Names == NameByteLen, l.Names == NameU16Len:
		limit := 0xff
		if l.Names == NameU16Len {
			limit = maxNameBytes - 1
		}
		n := len([]rune(s))
		if !isLatin1(s) || indexNUL([]byte(s)) >= 0 || n > limit {
			return fmt.Errorf("format: name %q cannot be written in this layout (Latin-1 without NUL, at most %d characters)", s, limit)
		}
		if l.Names == NameByteLen {
			e.b = append(e.b, byte(n))
		} else {
			e.b = binary.LittleEndian.AppendUint16(e.b, uint16(n))
		}
		e.b = appendLatin1(e.b, s)
		e.b = append(e.b, 0)
		return nil
	}
	// NameInt32Len: an FString with a plain int32 length.
	switch {
	case s == "":
		e.u32(0)
	case isLatin1(s):
		e.u32(uint32(len([]rune(s)) + 1))
		e.b = appendLatin1(e.b, s)
		e.b = append(e.b, 0)
	default:
		u := utf16.Encode([]rune(s))
		e.u32(uint32(-int32(len(u) + 1)))
		for _, c := range u {
			e.b = binary.LittleEndian.AppendUint16(e.b, c)
		}
		e.b = append(e.b, 0, 0)
	}
	return nil
}

func (e *encoder) importRecord(l Layout, im Import) error {
	if l.Reordered {
		if err := e.outer(l, im.Outer); err != nil {
			return err
		}
		e.idx(l, im.ObjectName)
		e.idx(l, im.ClassPackage)
		e.idx(l, im.ClassName)
		return nil
	}
	e.idx(l, im.ClassPackage)
	e.idx(l, im.ClassName)
	if err := e.outer(l, im.Outer); err != nil {
		return err
	}
	e.idx(l, im.ObjectName)
	return nil
}

func (e *encoder) exportRecord(l Layout, ex Export) error {
	if l.Reordered {
		e.idx(l, ex.ObjectName)
		e.idx(l, int32(ex.Super))
		if err := e.outer(l, ex.Outer); err != nil {
			return err
		}
		e.u32(ex.ObjectFlags)
		e.idx(l, int32(ex.Class))
	} else {
		e.idx(l, int32(ex.Class))
		e.idx(l, int32(ex.Super))
		if err := e.outer(l, ex.Outer); err != nil {
			return err
		}
		if l.ExportExtra {
			e.index(0)
		}
		e.idx(l, ex.ObjectName)
		e.u32(ex.ObjectFlags)
	}
	if l.FixedSerial {
		e.u32(uint32(ex.SerialSize))
		e.u32(uint32(ex.SerialOffset))
		return nil
	}
	e.idx(l, ex.SerialSize)
	if ex.SerialSize > 0 {
		e.idx(l, ex.SerialOffset)
	}
	return nil
}
