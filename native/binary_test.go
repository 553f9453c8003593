package native

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func readBytes(t *testing.T, data []byte, path string) (*Binary, error) {
	t.Helper()
	return NewBinary(bytes.NewReader(data), int64(len(data)), path)
}

var testExports = []string{
	"?StaticClass@UObject@@SAPAVUClass@@XZ",
	"autoclassUObject",
	"?autoclassAActor@AActor@@2VUClass@@A",
	"autoclassUuDemoDriver",
	"GPackage",
}

func TestPE(t *testing.T) {
	for _, is64 := range []bool{false, true} {
		b, err := readBytes(t, buildPE(peOpts{is64: is64, exports: testExports}), "dir/Test.dll")
		if err != nil {
			t.Fatalf("64=%v: %v", is64, err)
		}
		want := &Binary{Path: "dir/Test.dll", Package: "Test", Method: MethodPE, Classes: []string{"Actor", "Object", "uDemoDriver"}}
		if !equalBinary(b, want) {
			t.Errorf("64=%v: have %+v, want %+v", is64, b, want)
		}
	}
}

func TestPENoExports(t *testing.T) {
	b, err := readBytes(t, buildPE(peOpts{exports: nil}), "Empty.dll")
	if err != nil || b.Method != MethodPE || len(b.Classes) != 0 {
		t.Errorf("have %+v, %v; want pe-exports, no classes", b, err)
	}
}

func TestByteScan(t *testing.T) {
	// No export directory: the names in the section's bytes are found.
	extra := []byte("\x00autoclassUScanned\x00?autoclassAMangled@AMangled@@2VUClass@@A\x00notautoclassUNo\x00_ZN4UFoo13autoclassUFooE\x00")
	b, err := readBytes(t, buildPE(peOpts{noTable: true, exports: []string{"autoclassUInTable"}, extra: extra}), "Scan.dll")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Foo", "InTable", "Mangled", "Scanned"}
	if b.Method != MethodByteScan || !slices.Equal(b.Classes, want) {
		t.Errorf("have %s %q, want byte-scan %q", b.Method, b.Classes, want)
	}
	// An ELF file without symbol tables is scanned too.
	e := buildELF(false, nil, nil)
	e = append(e, "\x00autoclassUElfScanned\x00"...)
	b, err = readBytes(t, e, "Scan.so")
	if err != nil || b.Method != MethodByteScan || !slices.Equal(b.Classes, []string{"ElfScanned"}) {
		t.Errorf("elf: have %+v, %v", b, err)
	}
}

func TestELF(t *testing.T) {
	dyn := []elfSym{
		{"autoclassUObject", false}, // Core's, imported: never counts
		{"autoclassULevel", true},
		{"_ZN7UCanvas16autoclassUCanvasE", true},
		{"_6AActor.autoclassAActor", true},
		{"_ZN7UObject11StaticClassEv", true},
	}
	sym := []elfSym{
		{"autoclassUModel", true},
		{"autoclassULevel", true}, // in both tables: once
		{"autoclassUPackage", false},
	}
	for _, is64 := range []bool{false, true} {
		for _, tc := range []struct {
			name     string
			dyn, sym []elfSym
			want     []string
		}{
			{"dynsym", dyn, nil, []string{"Actor", "Canvas", "Level"}},
			{"symtab", nil, sym, []string{"Level", "Model"}},
			{"both", dyn, sym, []string{"Actor", "Canvas", "Level", "Model"}},
		} {
			b, err := readBytes(t, buildELF(is64, tc.dyn, tc.sym), "Engine.so")
			if err != nil {
				t.Fatalf("64=%v %s: %v", is64, tc.name, err)
			}
			if b.Method != MethodELF || b.Package != "Engine" || !slices.Equal(b.Classes, tc.want) {
				t.Errorf("64=%v %s: have %s %s %q, want elf-symbols Engine %q", is64, tc.name, b.Method, b.Package, b.Classes, tc.want)
			}
		}
	}
}

func TestImportLib(t *testing.T) {
	lib := buildImportLib([]importSym{
		{"_autoclassUKMeshProps", "Engine.dll"},
		{"?autoclassAActor@AActor@@2VUClass@@A", "Engine.dll"},
		{"_autoclassUObject", "Core.dll"}, // another DLL's: skipped
		{"_GEngine", "Engine.dll"},
	})
	b, err := readBytes(t, lib, "Engine.lib")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Actor", "KMeshProps"}; b.Method != MethodImportLib || !slices.Equal(b.Classes, want) {
		t.Errorf("have %s %q, want %q", b.Method, b.Classes, want)
	}
}

func TestSortedCaseInsensitive(t *testing.T) {
	b, err := readBytes(t, buildPE(peOpts{exports: []string{"autoclassUzeta", "autoclassUAlpha", "autoclassUalpha", "autoclassUBeta"}}), "X.dll")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Alpha", "Beta", "zeta"}; !slices.Equal(b.Classes, want) {
		t.Errorf("have %q, want %q", b.Classes, want)
	}
}

func TestMalformed(t *testing.T) {
	le := binary.LittleEndian
	pe32 := buildPE(peOpts{exports: testExports})
	dirOff := int64(peSectionOff) // the export directory opens the section
	ddOff := int64(peLfanew + 4 + 20 + 96)
	patch := func(data []byte, off int64, v uint32) []byte {
		d := slices.Clone(data)
		le.PutUint32(d[off:], v)
		return d
	}
	elf32 := buildELF(false, []elfSym{{"autoclassUObject", true}}, nil)
	lib := buildImportLib([]importSym{{"_autoclassUObject", "Core.dll"}})
	tests := []struct {
		name   string
		data   []byte
		offset int64 // -1: any
		msg    string
	}{
		{"empty", nil, 0, "the file is empty (0 bytes)"},
		{"text", []byte("hello, world"), 0, "not a PE, ELF or import library"},
		{"pe truncated header", pe32[:100], 0, "pe:"},
		{"pe truncated section", pe32[:peSectionOff+20], -1, "export directory"},
		{"pe export rva outside sections", patch(pe32, ddOff, 0x9000), ddOff, "in no section"},
		{"pe huge name count", patch(pe32, dirOff+24, 0x7fffffff), dirOff + 24, "claims 2147483647 names"},
		{"pe name count past section", patch(pe32, dirOff+24, 100000), dirOff + 24, "claims 100000 names"},
		{"pe name table rva outside", patch(pe32, dirOff+32, 0xdead0000), dirOff + 32, "export name table"},
		{"pe name rva outside", patch(pe32, dirOff+40+4*5+2*5, 0x7000), -1, "export name 0"},
		{"elf truncated", elf32[:30], 0, "elf:"},
		{"elf section past end", elf32[:len(elf32)-1], -1, "elf:"},
		{"lib truncated member", lib[:len(lib)-3], -1, "runs past the end"},
		{"lib truncated header", lib[:len(lib)-78], -1, "truncated"},
		{"lib bad size", bytes.Replace(lib, []byte("5         `\n"), []byte("x         `\n"), 1), 8 + 48, "archive member size"},
		{"lib bad end", bytes.Replace(lib, []byte("`\n"), []byte("xx"), 1), 8 + 58, "does not end"},
	}
	for _, tt := range tests {
		b, err := readBytes(t, tt.data, "Bad.dll")
		var fe *FormatError
		if !errors.As(err, &fe) {
			t.Errorf("%s: have %+v, %v; want a *FormatError", tt.name, b, err)
			continue
		}
		if tt.offset >= 0 && fe.Offset != tt.offset {
			t.Errorf("%s: offset %d, want %d (%v)", tt.name, fe.Offset, tt.offset, err)
		}
		if !strings.Contains(err.Error(), tt.msg) || !strings.HasPrefix(err.Error(), "native: Bad.dll: ") {
			t.Errorf("%s: error %q, want it to start with \"native: Bad.dll: \" and mention %q", tt.name, err, tt.msg)
		}
	}
	if _, err := NewBinary(bytes.NewReader(nil), MaxFileSize+1, "Big.dll"); err == nil || !strings.Contains(err.Error(), "file size") {
		t.Errorf("oversized file: %v", err)
	}
}

func TestReadBinaryAndFind(t *testing.T) {
	dir := t.TempDir()
	files := map[string][]byte{
		"Core.dll":   buildPE(peOpts{exports: []string{"autoclassUObject"}}),
		"Engine.SO":  buildELF(true, []elfSym{{"autoclassULevel", true}}, nil),
		"Readme.txt": []byte("autoclassUNo"),
		"Core.u":     nil,
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "Sub.dll"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	// The same folder given three times, spelled three ways (the ini's
	// folder and a Paths folder "../System"): each binary once.
	got, err := FindBinaries([]string{dir, ".", filepath.Join("..", filepath.Base(dir)), filepath.Join(dir, "missing")})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "Core.dll"), filepath.Join(dir, "Engine.SO")}
	if !slices.Equal(got, want) {
		t.Fatalf("FindBinaries = %q, want %q", got, want)
	}
	b, err := ReadBinary(want[1])
	if err != nil || b.Package != "Engine" || !slices.Equal(b.Classes, []string{"Level"}) {
		t.Errorf("ReadBinary = %+v, %v", b, err)
	}
	if _, err := ReadBinary(filepath.Join(dir, "Sub.dll")); err == nil {
		t.Error("ReadBinary of a folder: no error")
	}
	if _, err := ReadBinary(filepath.Join(dir, "None.dll")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v, want os.ErrNotExist", err)
	}
}

func TestPackageOf(t *testing.T) {
	for in, want := range map[string]string{
		"Core.dll": "Core", "/ut/System/Engine.so": "Engine", "udemo.DLL": "udemo", "libCore.so": "libCore", "Fire": "Fire", ".so": ".so",
	} {
		if got := PackageOf(in); got != want {
			t.Errorf("PackageOf(%q) = %q, want %q", in, got, want)
		}
	}
}

func equalBinary(a, b *Binary) bool {
	return a.Path == b.Path && a.Package == b.Package && a.Method == b.Method && slices.Equal(a.Classes, b.Classes)
}

// TestLFSPointerBinary: a Git LFS pointer where Core.dll should be is named
// as such, with the size of the real file.
func TestLFSPointerBinary(t *testing.T) {
	ptr := []byte("version https://git-lfs.github.com/spec/v1\noid sha256:0123\nsize 917504\n")
	_, err := NewBinary(bytes.NewReader(ptr), int64(len(ptr)), "System/Core.dll")
	var le *LFSPointerError
	if !errors.As(err, &le) || le.Size != 917504 || !strings.Contains(err.Error(), "System/Core.dll: a Git LFS pointer") {
		t.Errorf("have %v", err)
	}
}
