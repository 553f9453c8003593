package intfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/upkdeps/upkdeps/format"
)

// utf16LE encodes text as UTF-16LE with a byte-order mark, as UT2004 writes
// its localisation files.
func utf16LE(text string) []byte {
	out := []byte{0xFF, 0xFE}
	for _, u := range utf16.Encode([]rune(text)) {
		out = append(out, byte(u), byte(u>>8))
	}
	return out
}

func TestParseEncodings(t *testing.T) {
	// The Object= lines are shaped like UT2004's BonusPack.int and
	// ALAudio.int (Class=, MetaClass=, Name=, Description= in any order;
	// the whole value in quotes in Core.int).
	text := "[Public]\r\n" +
		"Object=(Class=Class,MetaClass=Engine.Mutator,Name=MyMod.MutA,Description=\"Adds A, then B.\")\r\n" +
		"Object=\"(Name=MyMod.MutB,Class=Class,MetaClass=Engine.Mutator)\"\r\n" +
		"Object=(Name=MyMod.MutA,Class=Class,MetaClass=Engine.Mutator)\r\n" +
		"\r\n[MutA]\r\nFriendlyName=\"Mut A\"\r\n"
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"ansi", []byte(strings.ReplaceAll(text, "Adds", "Ajoute\xe9"))},
		{"utf16", utf16LE(text)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Parse("MyMod.int", tc.data)
			if err != nil {
				t.Fatal(err)
			}
			if f.Package != "MyMod" {
				t.Errorf("Package = %q, want MyMod", f.Package)
			}
			want := []Object{
				{Line: 2, Name: "MyMod.MutA", Class: "Class", MetaClass: "Engine.Mutator"},
				{Line: 3, Name: "MyMod.MutB", Class: "Class", MetaClass: "Engine.Mutator"},
				{Line: 4, Name: "MyMod.MutA", Class: "Class", MetaClass: "Engine.Mutator"},
			}
			if len(f.Objects) != len(want) {
				t.Fatalf("have %d objects, want %d: %+v", len(f.Objects), len(want), f.Objects)
			}
			for i, w := range want {
				o := f.Objects[i]
				if o.Line != w.Line || o.Name != w.Name || o.Class != w.Class || o.MetaClass != w.MetaClass || o.Err != "" {
					t.Errorf("object %d = %+v, want %+v", i, o, w)
				}
			}
			if d := f.Objects[0].Description; !strings.HasSuffix(d, ", then B.") {
				t.Errorf("description %q lost its comma", d)
			}
		})
	}
}

func TestParseObjectErrors(t *testing.T) {
	for _, tc := range []struct{ in, err string }{
		{"MyMod.MutA", "not a parenthesised list"},
		{"(Name)", "has no '='"},
		{`(Name="MyMod.MutA)`, "unterminated quote"},
		{`(Name="MyMod.MutA"x,Class=Class)`, "after the closing quote"},
	} {
		if o := ParseObject(1, tc.in); !strings.Contains(o.Err, tc.err) {
			t.Errorf("ParseObject(%q).Err = %q, want %q", tc.in, o.Err, tc.err)
		}
	}
}

// writePkg writes a package built by build into dir as name.u.
func writePkg(t *testing.T, dir, name string, build func(b *format.Builder)) {
	t.Helper()
	b := format.NewBuilder(128, 0)
	build(b)
	if err := format.WriteFile(filepath.Join(dir, name+".u"), b.File); err != nil {
		t.Fatal(err)
	}
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	// Engine: Actor (super Core.Object) and Mutator (super Actor).
	writePkg(t, dir, "Engine", func(b *format.Builder) {
		actor := b.Export(0, "Actor", 0, b.ImportPath("Core.Object", "Core", "Class"), 10)
		b.Export(0, "Mutator", 0, actor, 10)
	})
	// MyMod: MutA < Engine.Mutator; MutB < MutA; NotMut < Engine.Actor;
	// Far < Lost.Base (Lost.u is not there).
	writePkg(t, dir, "MyMod", func(b *format.Builder) {
		a := b.Export(0, "MutA", 0, b.ImportPath("Engine.Mutator", "Core", "Class"), 10)
		b.Export(0, "MutB", 0, a, 10)
		b.Export(0, "NotMut", 0, b.ImportPath("Engine.Actor", "Core", "Class"), 10)
		b.Export(0, "Far", 0, b.ImportPath("Lost.Base", "Core", "Class"), 10)
	})
	text := "[Public]\n" +
		"Object=(Name=MyMod.MutA,Class=Class,MetaClass=Engine.Mutator)\n" + // 2: fine
		"Object=(Name=MyMod.MutB,Class=Class,MetaClass=Engine.Mutator)\n" + // 3: fine, through MutA
		"Object=(Name=MyMod.Gone,Class=Class,MetaClass=Engine.Mutator)\n" + // 4: no such class
		"Object=(Name=NoPkg.Mut,Class=Class,MetaClass=Engine.Mutator)\n" + // 5: no such package
		"Object=(Name=MyMod.NotMut,Class=Class,MetaClass=Engine.Mutator)\n" + // 6: an Actor
		"Object=(Name=MyMod.Far,Class=Class,MetaClass=Engine.Mutator)\n" + // 7: chain unreadable
		"Object=(Name=MyMod.Tex,Class=Texture)\n" + // 8: not a class: not checked
		"Object=MyMod.MutA\n" // 9: not a field list
	f, err := Parse(filepath.Join(dir, "MyMod.int"), []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	c := NewChecker(func(pkg string) string {
		p := filepath.Join(dir, pkg+".u")
		if _, err := os.Stat(p); err != nil {
			return ""
		}
		return p
	})
	defer c.Close()
	got := c.Check(f)
	want := []struct {
		line int
		kind Kind
		msg  string
	}{
		{4, MissingClass, "package MyMod exports no class Gone"},
		{5, MissingClass, "no package NoPkg resolves"},
		{6, WrongMetaClass, "MyMod.NotMut > Engine.Actor > Core.Object"},
		{7, Unchecked, "stops at package Lost"},
		{9, BadLine, "not a parenthesised list"},
	}
	if len(got) != len(want) {
		t.Fatalf("have %d problems, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Line != w.line || g.Kind != w.kind || !strings.Contains(g.Message, w.msg) {
			t.Errorf("problem %d = %d %s %q, want %d %s containing %q", i, g.Line, g.Kind, g.Message, w.line, w.kind, w.msg)
		}
	}
	if e := got[0].Evidence(); e != "MyMod.int:4 Object=(Name=MyMod.Gone,Class=Class,MetaClass=Engine.Mutator)" {
		t.Errorf("Evidence = %q", e)
	}
}

// TestCheckUnreadablePackage: a package that cannot be read leaves its
// classes unchecked, and the problem gives the error in format.Open's
// words, for a truncated file, a bad tag and a folder in its place.
func TestCheckUnreadablePackage(t *testing.T) {
	dir := t.TempDir()
	writePkg(t, dir, "Whole", func(b *format.Builder) {
		b.Export(0, "Mut", 0, b.ImportPath("Engine.Mutator", "Core", "Class"), 10)
	})
	whole, err := os.ReadFile(filepath.Join(dir, "Whole.u"))
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, name+".u"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("Cut", whole[:len(whole)/2])
	write("Tag", append([]byte{1, 2, 3, 4}, whole[4:]...))
	if err := os.Mkdir(filepath.Join(dir, "Dir.u"), 0o755); err != nil {
		t.Fatal(err)
	}
	c := NewChecker(func(pkg string) string { return filepath.Join(dir, pkg+".u") })
	defer c.Close()
	for _, pkg := range []string{"Cut", "Tag", "Dir"} {
		path := filepath.Join(dir, pkg+".u")
		_, openErr := format.Open(path)
		if openErr == nil {
			t.Fatalf("format.Open(%s) read it", path)
		}
		f, err := Parse(filepath.Join(dir, pkg+".int"), []byte("[Public]\nObject=(Name="+pkg+".Mut,Class=Class,MetaClass=Engine.Mutator)\n"))
		if err != nil {
			t.Fatal(err)
		}
		got := c.Check(f)
		if len(got) != 1 || got[0].Kind != Unchecked || !strings.Contains(got[0].Message, "("+openErr.Error()+")") {
			t.Errorf("%s: %+v, want one Unchecked problem quoting %q", pkg, got, openErr)
		}
	}
}
