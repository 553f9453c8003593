package format

import (
	"encoding/binary"
	"fmt"
	"os"
	"unicode/utf16"
)

// Marshal lays out f and returns the complete package image: header, (before
// version 68) heritage table, name table, serial data (zero bytes, one block
// per export with SerialSize > 0), import table and export table — the order
// the engine writes them in.
//
// Marshal updates f to describe the image it returns: the header counts and
// offsets, each export's SerialOffset, and for an empty Generations (>= 68)
// or Heritage (< 68) the single entry the engine would write. Reading the
// image back yields a File equal to f.
func Marshal(f *File) ([]byte, error) {
	head, tail, serial, err := f.layout()
	if err != nil {
		return nil, err
	}
	out := make([]byte, len(head)+int(serial)+len(tail))
	copy(out, head)
	copy(out[len(head)+int(serial):], tail)
	return out, nil
}

// WriteFile writes f to path like Marshal, leaving the serial data as a hole
// so that large fixture installs cost little disk.
func WriteFile(path string, f *File) error {
	head, tail, serial, err := f.layout()
	if err != nil {
		return err
	}
	fh, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := fh.Write(head); err != nil {
		fh.Close()
		return err
	}
	if _, err := fh.WriteAt(tail, int64(len(head))+serial); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
}

type encoder struct{ b []byte }

func (e *encoder) u32(v uint32) { e.b = binary.LittleEndian.AppendUint32(e.b, v) }

func (e *encoder) index(v int32) {
	var mag uint32
	var b0 byte
	if v < 0 {
		b0 = 0x80
		mag = uint32(-int64(v))
	} else {
		mag = uint32(v)
	}
	b0 |= byte(mag & 0x3f)
	mag >>= 6
	if mag == 0 {
		e.b = append(e.b, b0)
		return
	}
	e.b = append(e.b, b0|0x40)
	for i := 1; i < 4; i++ {
		b := byte(mag & 0x7f)
		mag >>= 7
		if mag == 0 {
			e.b = append(e.b, b)
			return
		}
		e.b = append(e.b, b|0x80)
	}
	e.b = append(e.b, byte(mag))
}

func (e *encoder) name(s string, old bool) error {
	if old {
		if !isLatin1(s) || indexNUL([]byte(s)) >= 0 {
			return fmt.Errorf("format: name %q cannot be written before version 64 (Latin-1 without NUL only)", s)
		}
		e.b = appendLatin1(e.b, s)
		e.b = append(e.b, 0)
		return nil
	}
	if s == "" {
		e.index(0)
		return nil
	}
	if isLatin1(s) {
		e.index(int32(len([]rune(s)) + 1))
		e.b = appendLatin1(e.b, s)
		e.b = append(e.b, 0)
		return nil
	}
	u := utf16.Encode([]rune(s))
	e.index(-int32(len(u) + 1))
	for _, c := range u {
		e.b = binary.LittleEndian.AppendUint16(e.b, c)
	}
	e.b = append(e.b, 0, 0)
	return nil
}

func appendLatin1(b []byte, s string) []byte {
	for _, r := range s {
		b = append(b, byte(r))
	}
	return b
}

func (f *File) layout() (head, tail []byte, serial int64, err error) {
	h := &f.Header
	if h.Tag == 0 {
		h.Tag = Tag
	}
	if reason := unsupported(h.Version, h.Licensee); reason != "" {
		return nil, nil, 0, &UnsupportedError{Version: h.Version, Licensee: h.Licensee, Reason: reason}
	}
	h.NameCount = int32(len(f.Names))
	h.ImportCount = int32(len(f.Imports))
	h.ExportCount = int32(len(f.Exports))

	var e encoder
	headerLen := int64(fixedHeaderSize + 8)
	if h.HasHeritage() {
		if len(h.Heritage) == 0 {
			h.Heritage = []GUID{h.GUID}
		}
		h.GUID = h.Heritage[len(h.Heritage)-1]
		h.Generations = nil
		h.HeritageCount = int32(len(h.Heritage))
		h.HeritageOffset = int32(headerLen)
		headerLen += 16 * int64(len(h.Heritage))
	} else {
		if len(h.Generations) == 0 {
			h.Generations = []Generation{{ExportCount: h.ExportCount, NameCount: h.NameCount}}
		}
		h.Heritage, h.HeritageCount, h.HeritageOffset = nil, 0, 0
		headerLen = fixedHeaderSize + 20 + 8*int64(len(h.Generations))
	}

	// Name table right after the header.
	e.b = make([]byte, headerLen, headerLen+16*int64(len(f.Names)))
	h.NameOffset = int32(headerLen)
	for _, n := range f.Names {
		if err := e.name(n.Name, h.Version < 64); err != nil {
			return nil, nil, 0, err
		}
		e.u32(n.Flags)
	}
	head = e.b

	// Serial data between the name table and the import table.
	pos := int64(len(head))
	for i := range f.Exports {
		ex := &f.Exports[i]
		if ex.SerialSize < 0 {
			return nil, nil, 0, fmt.Errorf("format: export %d: negative serial size %d", i, ex.SerialSize)
		}
		if ex.SerialSize == 0 {
			ex.SerialOffset = 0
			continue
		}
		ex.SerialOffset = int32(pos)
		pos += int64(ex.SerialSize)
		if pos > 1<<31-1 {
			return nil, nil, 0, fmt.Errorf("format: serial data exceeds 2 GiB")
		}
	}
	serial = pos - int64(len(head))

	// Import and export tables at the end.
	var t encoder
	h.ImportOffset = int32(pos)
	for _, im := range f.Imports {
		t.index(im.ClassPackage)
		t.index(im.ClassName)
		t.u32(uint32(im.Outer))
		t.index(im.ObjectName)
	}
	h.ExportOffset = int32(pos + int64(len(t.b)))
	for _, ex := range f.Exports {
		t.index(int32(ex.Class))
		t.index(int32(ex.Super))
		t.u32(uint32(ex.Outer))
		t.index(ex.ObjectName)
		t.u32(ex.ObjectFlags)
		t.index(ex.SerialSize)
		if ex.SerialSize > 0 {
			t.index(ex.SerialOffset)
		}
	}
	tail = t.b
	if h.NameCount == 0 {
		h.NameOffset = int32(headerLen)
	}

	// Header.
	b := head
	binary.LittleEndian.PutUint32(b[0:], h.Tag)
	binary.LittleEndian.PutUint16(b[4:], h.Version)
	binary.LittleEndian.PutUint16(b[6:], h.Licensee)
	binary.LittleEndian.PutUint32(b[8:], uint32(h.Flags))
	for i, v := range []int32{h.NameCount, h.NameOffset, h.ExportCount, h.ExportOffset, h.ImportCount, h.ImportOffset} {
		binary.LittleEndian.PutUint32(b[12+4*i:], uint32(v))
	}
	if h.HasHeritage() {
		binary.LittleEndian.PutUint32(b[36:], uint32(h.HeritageCount))
		binary.LittleEndian.PutUint32(b[40:], uint32(h.HeritageOffset))
		for i, g := range h.Heritage {
			g.put(b[int(h.HeritageOffset)+16*i:])
		}
	} else {
		h.GUID.put(b[36:])
		binary.LittleEndian.PutUint32(b[52:], uint32(len(h.Generations)))
		for i, g := range h.Generations {
			binary.LittleEndian.PutUint32(b[56+8*i:], uint32(g.ExportCount))
			binary.LittleEndian.PutUint32(b[60+8*i:], uint32(g.NameCount))
		}
	}
	return head, tail, serial, nil
}
