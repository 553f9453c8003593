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
func Marshal(f *File) ([]byte, error) { return MarshalSerial(f, nil) }

// MarshalSerial is Marshal with the serial data of some exports given:
// serial[i] is export i's data and must hold exactly its SerialSize bytes
// (a fixture's class with default properties, say); the others are zeros.
func MarshalSerial(f *File, serial map[int][]byte) ([]byte, error) {
	head, tail, size, err := f.layout()
	if err != nil {
		return nil, err
	}
	out := make([]byte, len(head)+int(size)+len(tail))
	copy(out, head)
	copy(out[len(head)+int(size):], tail)
	for i, data := range serial {
		if i < 0 || i >= len(f.Exports) || int64(len(data)) != int64(f.Exports[i].SerialSize) {
			return nil, fmt.Errorf("format: serial data for export %d: %d bytes, not its SerialSize", i, len(data))
		}
		copy(out[f.Exports[i].SerialOffset:], data)
	}
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

	lay := layoutOf(h.Version, h.Licensee)
	fields := h.tableFields() // offset of NameCount
	var e encoder
	headerLen, err := h.prepare(lay, fields)
	if err != nil {
		return nil, nil, 0, err
	}

	// Name table right after the header.
	e.b = make([]byte, headerLen, headerLen+16*int64(len(f.Names)))
	h.NameOffset = int32(headerLen)
	for _, n := range f.Names {
		if err := e.layoutName(lay, n.Name, h.Version < 64); err != nil {
			return nil, nil, 0, err
		}
		e.u32(n.Flags)
	}
	head = e.b

	// Serial data between the name table and the import table.
	pos, err := f.placeSerial(int64(len(head)))
	if err != nil {
		return nil, nil, 0, err
	}
	serial = pos - int64(len(head))

	// Import and export tables at the end.
	var t encoder
	h.ImportOffset = int32(pos)
	for _, im := range f.Imports {
		if err := t.importRecord(lay, im); err != nil {
			return nil, nil, 0, err
		}
	}
	h.ExportOffset = int32(pos + int64(len(t.b)))
	for _, ex := range f.Exports {
		if err := t.exportRecord(lay, ex); err != nil {
			return nil, nil, 0, err
		}
	}
	tail = t.b
	if h.NameCount == 0 {
		h.NameOffset = int32(headerLen)
	}
	h.put(head, lay, fields)
	return head, tail, serial, nil
}

// prepare fills in the header fields the layout derives (heritage or
// generations, the GUID prefix) and returns the header's length; fields
// is the offset of NameCount.
func (h *Header) prepare(lay Layout, fields int64) (int64, error) {
	headerLen := fields + 24
	if h.HasHeritage() {
		if len(h.Heritage) == 0 {
			h.Heritage = []GUID{h.GUID}
		}
		h.GUID = h.Heritage[len(h.Heritage)-1]
		h.Generations, h.GUIDPrefix = nil, nil
		h.HeritageCount = int32(len(h.Heritage))
		headerLen += 8
		h.HeritageOffset = int32(headerLen)
		headerLen += 16 * int64(len(h.Heritage))
	} else {
		if len(h.Generations) == 0 {
			h.Generations = []Generation{{ExportCount: h.ExportCount, NameCount: h.NameCount}}
		}
		h.Heritage, h.HeritageCount, h.HeritageOffset = nil, 0, 0
		switch {
		case lay.GUIDPrefix > 0 && h.GUIDPrefix == nil:
			h.GUIDPrefix = make([]byte, lay.GUIDPrefix)
		case lay.GUIDPrefix > 0 && len(h.GUIDPrefix) != lay.GUIDPrefix:
			return 0, fmt.Errorf("format: %d/%d: GUIDPrefix holds %d bytes, the layout %d", h.Version, h.Licensee, len(h.GUIDPrefix), lay.GUIDPrefix)
		case lay.SCMagic && h.GUIDPrefix == nil:
			h.GUIDPrefix = binary.LittleEndian.AppendUint32(nil, scMagic)
			h.GUIDPrefix = append(h.GUIDPrefix, 0) // an empty byte array
		case lay.GUIDPrefix == 0 && !lay.SCMagic && len(h.GUIDPrefix) > 0:
			return 0, fmt.Errorf("format: %d/%d: the layout has no fields before the GUID", h.Version, h.Licensee)
		}
		if lay.NoGUID {
			h.GUID = GUID{}
		}
		headerLen = h.headerEndOf(fields)
	}
	if !lay.FlagsPrefix {
		h.FlagsPrefix = 0
	}
	return headerLen, nil
}

// placeSerial gives each export with serial data its offset, from pos on,
// and returns where the serial data ends.
func (f *File) placeSerial(pos int64) (int64, error) {
	for i := range f.Exports {
		ex := &f.Exports[i]
		if ex.SerialSize < 0 {
			return 0, fmt.Errorf("format: export %d: negative serial size %d", i, ex.SerialSize)
		}
		if ex.SerialSize == 0 {
			ex.SerialOffset = 0
			continue
		}
		ex.SerialOffset = int32(pos)
		pos += int64(ex.SerialSize)
		if pos > 1<<31-1 {
			return 0, fmt.Errorf("format: serial data exceeds 2 GiB")
		}
	}
	return pos, nil
}

// put writes the header into b, the start of the file.
func (h *Header) put(b []byte, lay Layout, fields int64) {
	binary.LittleEndian.PutUint32(b[0:], h.Tag)
	binary.LittleEndian.PutUint16(b[4:], h.Version)
	binary.LittleEndian.PutUint16(b[6:], h.Licensee)
	if lay.FlagsPrefix {
		binary.LittleEndian.PutUint32(b[8:], h.FlagsPrefix)
	}
	binary.LittleEndian.PutUint32(b[fields-4:], uint32(h.Flags))
	for i, v := range []int32{h.NameCount, h.NameOffset, h.ExportCount, h.ExportOffset, h.ImportCount, h.ImportOffset} {
		binary.LittleEndian.PutUint32(b[fields+4*int64(i):], uint32(v))
	}
	off := fields + 24
	if h.HasHeritage() {
		binary.LittleEndian.PutUint32(b[off:], uint32(h.HeritageCount))
		binary.LittleEndian.PutUint32(b[off+4:], uint32(h.HeritageOffset))
		for i, g := range h.Heritage {
			g.put(b[int(h.HeritageOffset)+16*i:])
		}
		return
	}
	off += int64(copy(b[off:], h.GUIDPrefix))
	if !lay.NoGUID {
		h.GUID.put(b[off:])
		off += 16
	}
	binary.LittleEndian.PutUint32(b[off:], uint32(len(h.Generations)))
	for i, g := range h.Generations {
		binary.LittleEndian.PutUint32(b[off+4+8*int64(i):], uint32(g.ExportCount))
		binary.LittleEndian.PutUint32(b[off+8+8*int64(i):], uint32(g.NameCount))
	}
}
