package archive

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"strings"
	"testing"
)

// rarOf writes a RAR 1.5-4.x archive whose members are stored (method
// 0x30, no compression): the layout of RAR's technote.txt (marker block,
// archive header 0x73, one file header 0x74 per member followed by its
// bytes, each header's CRC the low 16 bits of the CRC-32 of the header from
// its type byte on). No Go library writes RAR and the rar tool is not
// free: this is enough to test the reader's walk on real RAR structure.
func rarOf(t testing.TB, members ...[2]string) []byte {
	t.Helper()
	return rarDeclaring(t, nil, members...)
}

// rarDeclaring is rarOf with the unpacked sizes of the members named in
// declared replaced (a hostile archive that understates a size).
func rarDeclaring(t testing.TB, declared map[string]uint32, members ...[2]string) []byte {
	t.Helper()
	le := binary.LittleEndian
	var out bytes.Buffer
	out.WriteString("Rar!\x1a\x07\x00")
	block := func(typ byte, flags uint16, body []byte) {
		h := []byte{typ}
		h = le.AppendUint16(h, flags)
		h = le.AppendUint16(h, uint16(2+len(h)+2+len(body)))
		h = append(h, body...)
		crc := uint16(crc32.ChecksumIEEE(h))
		out.Write(le.AppendUint16(nil, crc))
		out.Write(h)
	}
	block(0x73, 0, make([]byte, 6))
	for _, m := range members {
		data := []byte(m[1])
		var b []byte
		b = le.AppendUint32(b, uint32(len(data))) // packed size
		unpacked := uint32(len(data))
		if d, ok := declared[m[0]]; ok {
			unpacked = d
		}
		b = le.AppendUint32(b, unpacked) // unpacked size
		b = append(b, 2)                 // host OS: Windows
		b = le.AppendUint32(b, crc32.ChecksumIEEE(data))
		b = le.AppendUint32(b, 0x5a210000) // DOS time
		b = append(b, 20, 0x30)            // version 2.0, method store
		b = le.AppendUint16(b, uint16(len(m[0])))
		b = le.AppendUint32(b, 0x20) // attributes: archive
		b = append(b, m[0]...)
		block(0x74, 0x8000, b) // LONG_BLOCK: data follows
		out.Write(data)
	}
	return out.Bytes()
}

// TestUMODCountCheckedFirst: a .umod directory that claims more files than
// MaxMembers is refused from its count, before any entry is parsed (the
// limit used to be checked on the parsed list).
func TestUMODCountCheckedFirst(t *testing.T) {
	var buf bytes.Buffer
	u := NewUMODWriter(&buf)
	for i := range 11 {
		u.Add(fmt.Sprintf("System/P%02d.u", i), []byte("x"))
	}
	u.Close()
	data := buf.Bytes()
	err := WalkReader(context.Background(), "m.umod", bytes.NewReader(data), int64(len(data)), Limits{MaxMembers: 10}, func(*Member) error {
		t.Error("a member was passed")
		return nil
	})
	if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "the directory claims 11 files, more than 10") {
		t.Errorf("have %v", err)
	}
}

// TestRARDecoderPanic: a 27-byte .rar whose old-style service block holds
// no bytes makes rardecode v2.4.6 index past them (found by
// FuzzWalk7zRar): the walk returns an error naming the archive instead of
// ending the process.
func TestRARDecoderPanic(t *testing.T) {
	data := []byte("Rar!\x1a\a\x00ϐs\x00\x00\r\x00\x00\x00\x00\x00\x00\x0000w00\a\x00")
	err := WalkReader(context.Background(), "bad.rar", bytes.NewReader(data), int64(len(data)), Limits{}, func(m *Member) error {
		t.Errorf("member %s of a corrupt .rar", m.Path())
		return nil
	})
	var ae *Error
	if !errors.As(err, &ae) || ae.Archive != "bad.rar" || !strings.Contains(err.Error(), "corrupt .rar") {
		t.Errorf("have %v, want an *Error naming bad.rar: corrupt .rar", err)
	}
}
