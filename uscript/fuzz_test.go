package uscript

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/upkdeps/upkdeps/internal/testutil"
)

var validKinds = map[RefKind]bool{
	KindExtends: true, KindWithin: true, KindDependsOn: true, KindQualified: true,
	KindLiteral: true, KindExec: true, KindType: true,
}

// FuzzScan checks that Scan never panics and that what it returns is
// well-formed: known kinds, lines within the file, UTF-8 text of bounded
// length, non-empty names, and an *Error when it fails.
func FuzzScan(f *testing.F) {
	for _, src := range goldenTree {
		f.Add([]byte(src))
	}
	for _, src := range utf16Files {
		f.Add(utf16LE(src, true))
	}
	r := rand.New(rand.NewPCG(3, 4))
	f.Add([]byte(genClass(r, "Pkg", "Fuzz", "Actor", []string{"Pawn", "Weapon"}, 120)))
	for _, s := range []string{
		"class A extends B; /* /* */", "class A extends B; cpptext { '", "class A extends B; var array<array<array<class<",
		"class A extends B;\n#exec OBJ LOAD FILE=\"", "class A extends B; defaultproperties { Begin Object Class=", "class A\r\rextends B\r",
		"\xff\xfec\x00l\x00a\x00s\x00s\x00", "\xef\xbb\xbfclass A extends B;", "class A extends B; function", "class A extends B; Foo'X.Y",
		// Issue 37's shapes: specifiers in any order, the preprocessor,
		// cppbitmask, a second extends, inline structs, GUID as a type.
		"class A extends B extends FExec;\nfunction static string F(GUID G) {}\nvar noedsave cache lazyarray<byte> D;",
		"class A extends B;\n#if 0\nvar X Y;\n#else\n#ifdef Q\nvar Z W;\n#endif\n#endif\n#define Q\n#elif\n#endif",
		"class A extends B;\ncppbitmask(P)\n{ var bool b; };\nvar() struct native S { var int X; } V;\nvar deepcopy",
	} {
		f.Add([]byte(s))
	}
	// At most 256 real sources, spread over the corpus, up to 16 KB each:
	// all of its 9,200, up to 1 MB, took the whole of a 45 s run to
	// replay before the first mutation (0 executions).
	if dir, ok := testutil.CorpusDir(); ok {
		var paths []string
		filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (hasSuffixFold(path, ".uc") || hasSuffixFold(path, ".upkg")) {
				if info, err := d.Info(); err == nil && info.Size() <= 16<<10 {
					paths = append(paths, path)
				}
			}
			return nil
		})
		step := len(paths)/256 + 1
		for i := 0; i < len(paths); i += step {
			if data, err := os.ReadFile(paths[i]); err == nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		c, err := Scan("F.uc", src)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error %v is not an *Error", err)
			}
			return
		}
		lines := strings.Count(string(decode(src)), "\n") + strings.Count(string(decode(src)), "\r") + 1
		if c.Name == "" || c.Line < 1 || c.Line > lines {
			t.Fatalf("class %q at line %d of %d", c.Name, c.Line, lines)
		}
		for _, ref := range c.Refs {
			if !validKinds[ref.Kind] || ref.Line < 1 || ref.Line > lines || ref.Name == "" && ref.Kind != KindExec ||
				ref.Kind == KindExec && ref.Package == "" || ref.Kind == KindLiteral && ref.Type == "" {
				t.Fatalf("bad reference %+v (file of %d lines)", ref, lines)
			}
			if !utf8.ValidString(ref.Text) || len(ref.Text) > 200+len("…") {
				t.Fatalf("bad text %q", ref.Text)
			}
		}
		// Resolution never panics, and names lines of the file.
		p := &Package{Name: "Pkg", HasSources: true, Classes: []*Class{c}}
		idx := NewIndex(map[string][]string{"Engine": {"Actor", "Pawn"}})
		idx.AddNames([]string{"Vector", "Health"})
		idx.AddSource(p)
		for _, ev := range idx.Unresolved(p) {
			if ev.Line < 1 || ev.Line > lines {
				t.Fatalf("unresolved %+v outside the file", ev)
			}
		}
		for _, d := range idx.Dependencies(p) {
			if d.Package == "" || len(d.Evidence) == 0 {
				t.Fatalf("bad dependency %+v", d)
			}
		}
	})
}
