package format

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"
)

// TestErrorNamesLayout: a version-100 file whose header is a pre-68 one
// (a heritage table) fails on a generation count; the error says which
// version and header layout it was read with, and that the bytes fit the
// older layout.
func TestErrorNamesLayout(t *testing.T) {
	img := marshalOrFatal(t, sample(64, 0))
	binary.LittleEndian.PutUint16(img[4:], 100)
	_, err := NewFile(bytes.NewReader(img), int64(len(img)))
	var fe *FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("have %v, want *FormatError", err)
	}
	for _, want := range []string{
		"read as version 100, licensee 0: the header of versions 68 and later",
		"its bytes fit the header of versions before 68",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%v\nwant it to say %q", err, want)
		}
	}

	// A table error after a good header names the version too.
	img = marshalOrFatal(t, sample(69, 0))
	bad := put32(img, 8+4+8, int32(len(img))) // ExportOffset at the end of the file
	_, err = NewFile(bytes.NewReader(bad), int64(len(bad)))
	if !errors.As(err, &fe) || fe.Header != "read as version 69, licensee 0: the header of versions 68 and later, with a GUID and a generation table" || fe.Hint != "" {
		t.Errorf("table error: %v (header %q, hint %q)", err, fe.Header, fe.Hint)
	}
}

// TestEmptyAndLFS: a 0-byte file is empty, a Git LFS pointer is named as
// one with the size of the file it stands for; both are still
// ErrNotPackage for callers that only ask that.
func TestEmptyAndLFS(t *testing.T) {
	_, err := NewFile(bytes.NewReader(nil), 0)
	if !errors.Is(err, ErrEmpty) || !errors.Is(err, ErrNotPackage) || !strings.Contains(err.Error(), "empty") {
		t.Errorf("0 bytes: %v", err)
	}
	ptr := []byte("version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 1260153\n")
	_, err = NewFile(bytes.NewReader(ptr), int64(len(ptr)))
	var le *LFSPointerError
	if !errors.As(err, &le) || le.Size != 1260153 || !errors.Is(err, ErrNotPackage) || !strings.Contains(err.Error(), "Git LFS pointer") {
		t.Errorf("LFS pointer: %v", err)
	}
	text := []byte("version 2 of something else, not a pointer\n")
	if _, err := NewFile(bytes.NewReader(text), int64(len(text))); err != ErrNotPackage {
		t.Errorf("other text: %v, want ErrNotPackage", err)
	}
}
