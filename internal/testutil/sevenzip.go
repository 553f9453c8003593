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
