package header

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/uscript"
)

// FuzzGenerate runs the generator on a hostile class (after a fixed Object)
// and checks that it never panics, and that the header it writes parses
// back into the model it returned: Diff finds nothing.
func FuzzGenerate(f *testing.F) {
	for _, s := range tree {
		f.Add(s.text, false)
	}
	for _, s := range ue2Tree[len(tree):] {
		f.Add(s.text, true)
	}
	f.Add("class A extends Object native; var int X[0]; var int Y[-1]; event E(out byte B[2]);", false)
	f.Add("class A extends A native; event E();", true)
	f.Add("class A native; native(1) static operator(1) int +(int A);", false)
	f.Fuzz(func(t *testing.T, src string, ue2 bool) {
		d, err := uscript.ReadDecls("A.uc", []byte(src))
		if err != nil {
			return
		}
		obj, _ := uscript.ReadDecls("Object.uc", []byte("class Object native noexport;\nstruct Vector { var float X, Y, Z; };\n"))
		// The source's length picks the early or the late layout of the
		// generation (the seeds' signature stays (string, bool)).
		layouts := []Layout{UE1, UE1Early}
		if ue2 {
			checks := UE2Early
			checks.SizeChecks = true
			layouts = []Layout{UE2, UE2Early, checks}
		}
		layout := layouts[len(src)%len(layouts)]
		g := New(layout)
		if err := g.Add(Package{Name: "Core", Classes: []*uscript.Decls{obj}}); err != nil {
			t.Fatal(err)
		}
		if err := g.Add(Package{Name: "Pkg", Classes: []*uscript.Decls{d}}); err != nil {
			return // a class named Object again
		}
		text, model, ok, err := g.Header("Pkg")
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return
		}
		have, err := ParseHeader(bytes.NewReader(text), "PkgClasses.h")
		if err != nil {
			t.Fatal(err)
		}
		if strings.TrimSpace(d.CppText) != "" {
			return // C++ of the class's own may read as anything
		}
		if changes := Diff(model, have); len(changes) > 0 {
			t.Fatalf("the generated header does not parse back: %+v\n%s", changes, text)
		}
	})
}

// FuzzParseHeader checks that reading a hostile header never panics.
func FuzzParseHeader(f *testing.F) {
	for _, s := range []string{"EngineClasses.h", "ModClasses.h"} {
		if data, err := readTestdata("ue1/" + s); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("class X : public Y\n{\n    INT A;\n    void eventE(\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := ParseHeader(bytes.NewReader(data), "X.h")
		if err != nil {
			return
		}
		HintsFrom(h)
		Diff(h, h)
	})
}

func readTestdata(name string) ([]byte, error) { return os.ReadFile(filepath.Join("testdata", name)) }
