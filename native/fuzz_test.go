package native

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzNewBinary feeds generated PE, ELF and import library files, whole and
// cut short, to NewBinary: it must return a result or an error, never
// panic or hang.
func FuzzNewBinary(f *testing.F) {
	seeds := [][]byte{
		buildPE(peOpts{exports: testExports}),
		buildPE(peOpts{is64: true, exports: testExports}),
		buildPE(peOpts{noTable: true, extra: []byte("\x00autoclassUScan\x00")}),
		buildELF(false, []elfSym{{"autoclassUObject", true}, {"autoclassUOther", false}}, []elfSym{{"_ZN4UFoo13autoclassUFooE", true}}),
		buildELF(true, []elfSym{{"autoclassULevel", true}}, nil),
		buildImportLib([]importSym{{"_autoclassUKMeshProps", "Fuzz.dll"}}),
	}
	for _, s := range seeds {
		f.Add(s)
		f.Add(s[:len(s)/2])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := NewBinary(bytes.NewReader(data), int64(len(data)), "Fuzz.dll")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "native: Fuzz.dll: ") {
				t.Errorf("error without file name: %v", err)
			}
			return
		}
		for _, c := range b.Classes {
			if !isIdent(c) {
				t.Errorf("class %q is not an identifier", c)
			}
		}
	})
}

func FuzzClassFromSymbol(f *testing.F) {
	for _, s := range []string{"autoclassUObject", "_ZN7UObject16autoclassUObjectE", "?autoclassUObject@UObject@@2VUClass@@A", "_6AActor.autoclassAActor", "autoclassAActor__6AActor"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sym string) {
		if c, ok := ClassFromSymbol(sym); ok && !isIdent(c) {
			t.Errorf("ClassFromSymbol(%q) = %q", sym, c)
		}
	})
}

func FuzzHeaderClasses(f *testing.F) {
	f.Add("class U : public UObject { DECLARE_CLASS(UKMeshProps,UObject,(0|1),Engine) };\n/* x */ // y\n")
	f.Fuzz(func(t *testing.T, src string) {
		HeaderClasses(strings.NewReader(src), "f.h")
	})
}
