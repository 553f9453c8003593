package testutil

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"testing"
)

// PatchLZMA2Dict returns a copy of a .7z whose header is stored plain
// (7z -mhc=off) with the dictionary byte of every LZMA2 coder set to prop
// (the dictionary is (2|prop&1) << (prop/2+11) bytes; 38 is 2 GiB, 40
// 4 GiB - 1). In the folder record a coder is its flags byte 0x21 (a
// 1-byte id, properties follow), the id 0x21, the property size 1 and the
// property (7-Zip's 7zFormat.txt); both CRCs of the start header are made
// right again. It fails the test when there is no such coder.
func PatchLZMA2Dict(t testing.TB, b []byte, prop byte) []byte {
	t.Helper()
	b = bytes.Clone(b)
	le := binary.LittleEndian
	if len(b) < 32 || !bytes.HasPrefix(b, []byte{'7', 'z', 0xbc, 0xaf, 0x27, 0x1c}) {
		t.Fatal("not a .7z")
	}
	at, n := 32+le.Uint64(b[12:]), le.Uint64(b[20:])
	if at+n > uint64(len(b)) {
		t.Fatal("the .7z's header is past its end")
	}
	h := b[at : at+n]
	if h[0] != 0x01 { // kHeader: a plain header
		t.Fatalf("the .7z's header starts with %#x: not stored plain (7z -mhc=off)", h[0])
	}
	k := 0
	for i := 0; i+3 < len(h); i++ {
		if bytes.Equal(h[i:i+3], []byte{0x21, 0x21, 0x01}) {
			h[i+3] = prop
			k++
		}
	}
	if k == 0 {
		t.Fatal("no LZMA2 coder in the .7z's header")
	}
	le.PutUint32(b[28:], crc32.ChecksumIEEE(h))
	le.PutUint32(b[8:], crc32.ChecksumIEEE(b[12:32]))
	return b
}

// Patch7zUnpackSize returns a copy of a .7z whose header is stored plain
// (7z -mhc=off) with the one folder unpack size that is from bytes set to
// to (kCodersUnpackSize, 0x0C, then a 7z NUMBER per coder output:
// 7zFormat.txt); the header, at the end of the file, is written again and
// both CRCs of the start header made right. The packed bytes stay as they
// are: a reader that decodes the folder runs out of them before to bytes;
// one that refuses the folder on what its header declares (a dictionary or
// a solid block over a limit) refuses it before reading any. It fails the
// test unless exactly one unpack size is from.
func Patch7zUnpackSize(t testing.TB, b []byte, from, to uint64) []byte {
	t.Helper()
	le := binary.LittleEndian
	if len(b) < 32 || !bytes.HasPrefix(b, []byte{'7', 'z', 0xbc, 0xaf, 0x27, 0x1c}) {
		t.Fatal("not a .7z")
	}
	at, n := 32+le.Uint64(b[12:]), le.Uint64(b[20:])
	if at+n != uint64(len(b)) {
		t.Fatal("the .7z's header is not at its end")
	}
	h := b[at:]
	if h[0] != 0x01 { // kHeader: a plain header
		t.Fatalf("the .7z's header starts with %#x: not stored plain (7z -mhc=off)", h[0])
	}
	old := append([]byte{0x0C}, Number7z(from)...)
	if k := bytes.Count(h, old); k != 1 {
		t.Fatalf("%d unpack sizes of %d bytes in the .7z's header, want 1", k, from)
	}
	h = bytes.Replace(h, old, append([]byte{0x0C}, Number7z(to)...), 1)
	out := append(bytes.Clone(b[:at]), h...)
	le.PutUint64(out[20:], uint64(len(h)))
	le.PutUint32(out[28:], crc32.ChecksumIEEE(h))
	le.PutUint32(out[8:], crc32.ChecksumIEEE(out[12:32]))
	return out
}

// Number7z encodes v as a 7z NUMBER: as many leading one bits in the first
// byte as bytes follow it (little-endian), the first byte's remaining bits
// the value's highest (7zFormat.txt).
func Number7z(v uint64) []byte {
	for n := range 8 {
		if v < 1<<(7*(n+1)) {
			b := []byte{byte(0xFF<<(8-n)) | byte(v>>(8*n))}
			for i := range n {
				b = append(b, byte(v>>(8*i)))
			}
			return b
		}
	}
	return binary.LittleEndian.AppendUint64([]byte{0xFF}, v)
}
