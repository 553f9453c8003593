package ini

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMalformed(t *testing.T) {
	// A package header: what a user gets by pointing --ini at a .u file.
	pkg := []byte{0xC1, 0x83, 0x2A, 0x9E, 0x45, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x40, 0x00}
	var manyKeys bytes.Buffer
	manyKeys.WriteString("[Cache]\n")
	for i := range 12000 {
		fmt.Fprintf(&manyKeys, "%032X=P%d\n", i, i)
	}
	var manySections bytes.Buffer
	for i := range 12000 {
		fmt.Fprintf(&manySections, "[S%d]\n", i)
	}
	// Surrogates are written unit by unit: Go strings cannot hold unpaired ones.
	le := func(units ...uint16) []byte {
		out := []byte{0xFF, 0xFE}
		for _, u := range units {
			out = binary.LittleEndian.AppendUint16(out, u)
		}
		return out
	}
	tests := []struct {
		name string
		data []byte
		line int
		msg  string
	}{
		{"binary junk: a package file", pkg, 1, "NUL byte at offset 5"},
		{"binary junk after text", append(text("[Core.System]", "Paths=a"), 0x00, 0x01), 3, "NUL byte at offset 22"},
		{"NUL after a UTF-8 byte-order mark", []byte("\xEF\xBB\xBF[A]\x00"), 1, "NUL byte at offset 6"},
		{"UTF-16 without a byte-order mark", []byte("[\x00A\x00]\x00"), 1, "UTF-16 text without a byte-order mark"},
		{"unterminated section", text("[Core.System]", "Paths=a", "[Engine.GameEngine"), 3, `unterminated section header "[Engine.GameEngine"`},
		{"unterminated section, CRLF", crlf("", "[Engine"), 2, `unterminated section header "[Engine"`},
		{"long unterminated section is shortened", text("[" + strings.Repeat("x", 200)), 1, `x"...`},
		{"empty section name", text("[A]", "[]", "K=v"), 2, "empty section name"},
		{"huge line", []byte("[A]\nK=" + strings.Repeat("x", MaxLineLength) + "\n"), 2, "line too long"},
		{"huge line without a line end", []byte(strings.Repeat(";", MaxLineLength+1)), 1, "line too long"},
		{"UTF-16LE odd length", append(utf16Text("[A]\r\nK=v", binary.LittleEndian), 'x'), 2, "odd number of bytes"},
		{"UTF-16LE unpaired high surrogate", le('[', 'A', ']', '\n', 'K', '=', 0xD800, 'x'), 2, "unpaired surrogate 0xD800"},
		{"UTF-16LE lone low surrogate", le('\n', '\n', 0xDC00), 3, "unpaired surrogate 0xDC00"},
		{"UTF-16LE high surrogate at the end", le('[', 0xDBFF), 1, "unpaired surrogate 0xDBFF"},
		{"UTF-16LE NUL", append(utf16Text("[A]\nK=", binary.LittleEndian), 0, 0), 2, "NUL character"},
		// n distinct keys cost ini.v1 n*n/2 comparisons: the limit falls at
		// the 11,586th key (line 11,587) and the 11,585th section.
		{"too many distinct keys", manyKeys.Bytes(), 11587, "too many distinct keys in section [Cache]"},
		{"too many distinct sections", manySections.Bytes(), 11585, "too many distinct sections"},
		{"too many key lines", append([]byte("[A]\n"), bytes.Repeat([]byte("K=v\n"), MaxKeyLines+1)...), MaxKeyLines + 2, "too many key lines"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse("System/Bad.ini", tt.data)
			if err == nil {
				t.Fatalf("Parse: no error, sections %q", f.Sections())
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is %T, want *Error", err, err)
			}
			if e.File != "System/Bad.ini" || e.Line != tt.line || !strings.Contains(e.Msg, tt.msg) {
				t.Errorf("error:\nhave file %q line %d msg %q\nwant file System/Bad.ini line %d msg containing %q", e.File, e.Line, e.Msg, tt.line, tt.msg)
			}
			want := fmt.Sprintf("ini: System/Bad.ini:%d: ", tt.line)
			if !strings.HasPrefix(err.Error(), want) {
				t.Errorf("message %q does not start with %q", err.Error(), want)
			}
		})
	}
}

func TestTooLarge(t *testing.T) {
	path := filepath.Join(t.TempDir(), "Huge.ini")
	fh, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	// A sparse file: Load must refuse it from its size, without reading it.
	if err := fh.Truncate(MaxFileSize + 1); err != nil {
		t.Fatal(err)
	}
	fh.Close()
	_, err = Load(path)
	var e *Error
	if !errors.As(err, &e) || e.Line != 0 || !strings.Contains(e.Msg, "file too large") {
		t.Fatalf("Load: have %v, want a file too large *Error", err)
	}
	if want := "ini: " + path + ": file too large"; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("message %q does not start with %q", err.Error(), want)
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(filepath.Join(dir, "Missing.ini")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Load of a missing file: have %v, want os.ErrNotExist", err)
	}
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("Load of a directory: have %v", err)
	}
	path := filepath.Join(dir, "Bad.ini")
	if err := os.WriteFile(path, []byte("[A]\n[B"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); err == nil || err.Error() != "ini: "+path+`:2: unterminated section header "[B"` {
		t.Errorf("Load of a malformed file: have %v", err)
	}
}

// TestLineage2Encrypted: an encrypted Lineage 2 ini (the UTF-16 header
// Lineage2Ver413, no byte-order mark, then encrypted bytes) is named as
// such, not as binary data with a NUL byte.
func TestLineage2Encrypted(t *testing.T) {
	var data []byte
	for _, c := range "Lineage2Ver413" {
		data = append(data, byte(c), 0)
	}
	data = append(data, 0x8c, 0x1f, 0x00, 0xe2, 0x51, 0x07)
	_, err := Parse("L2.ini", data)
	want := "ini: L2.ini:1: an encrypted Lineage 2 file (header Lineage2Ver413, UTF-16): the game decrypts it when it loads it; decrypt it first to read it as an ini"
	if err == nil || err.Error() != want {
		t.Errorf("have %v\nwant %s", err, want)
	}
	// A UTF-16 text that only starts like it is no such file.
	var text []byte
	for _, c := range "Lineage2Version=1\r\n" {
		text = append(text, byte(c), 0)
	}
	if _, err := Parse("Other.ini", text); err == nil || strings.Contains(err.Error(), "Lineage 2") {
		t.Errorf("Lineage2Version=1: have %v", err)
	}
}
