package uscript

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// FuzzReadDecls checks that the declaration reader never panics, fails
// only with an *Error, and returns declarations whose lines lie in the
// file and whose names are not empty.
func FuzzReadDecls(f *testing.F) {
	f.Add([]byte(declSource))
	for _, src := range goldenTree {
		f.Add([]byte(src))
	}
	r := rand.New(rand.NewPCG(5, 6))
	f.Add([]byte(genClass(r, "Pkg", "Fuzz", "Actor", []string{"Pawn", "Weapon"}, 80)))
	for _, s := range []string{
		"class A extends B; struct S { var int X;", "class A extends B; enum E { X, Y", "class A extends B; function F(int A, ",
		"class A extends B; cpptext {", "class A extends B; native(1) static operator(", "class A extends B; var() enum",
		"class A extends B; var int X[", "class A extends B; const C = ", "class A native config(", "class A extends B; var struct {",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		d, err := ReadDecls("F.uc", src)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error %v is not an *Error", err)
			}
			return
		}
		text := string(decode(src))
		lines := strings.Count(text, "\n") + strings.Count(text, "\r") + 1
		in := func(l int) bool { return l >= 1 && l <= lines }
		if d.Name == "" || !in(d.Line) {
			t.Fatalf("class %q at line %d of %d", d.Name, d.Line, lines)
		}
		for _, v := range d.Vars {
			if v.Name == "" || !in(v.Line) || v.Dim < 0 {
				t.Fatalf("bad var %+v", v)
			}
		}
		for _, fn := range d.Funcs {
			if fn.Name == "" || !in(fn.Line) {
				t.Fatalf("bad function %+v", fn)
			}
			for _, p := range fn.Params {
				if p.Name == "" || !in(p.Line) {
					t.Fatalf("bad parameter %+v", p)
				}
			}
		}
		for _, e := range d.Enums {
			if e.Name == "" || !in(e.Line) {
				t.Fatalf("bad enum %+v", e)
			}
		}
		for _, s := range d.Structs {
			if s.Name == "" || !in(s.Line) {
				t.Fatalf("bad struct %+v", s)
			}
		}
	})
}
