package ini

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestClassifyLine(t *testing.T) {
	tests := []struct {
		text string
		want Line
	}{
		{"", Line{Kind: IgnoredLine}},
		{"  \t", Line{Kind: IgnoredLine}},
		{"; comment=x", Line{Kind: IgnoredLine}},
		{"  #Key=x", Line{Kind: IgnoredLine}},
		{"no equals sign", Line{Kind: IgnoredLine}},
		{"[Core.System]", Line{Kind: HeaderLine, Name: "Core.System"}},
		{"  [Cache] ; downloads", Line{Kind: HeaderLine, Name: "Cache"}},
		{"[Cache]x]", Line{Kind: HeaderLine, Name: "Cache"}},
		{"[ A ]", Line{Kind: HeaderLine, Name: " A "}},
		{"[]", Line{Kind: HeaderLine, Name: ""}},
		{"[Engine.GameEngine", Line{Kind: UnterminatedHeader}},
		{"Paths=../System/*.u", Line{Kind: KeyLine, Key: "Paths", Value: "../System/*.u"}},
		{"  Key \t=  a = b ;c  ", Line{Kind: KeyLine, Key: "Key", Value: "a = b ;c"}},
		{`V="q"`, Line{Kind: KeyLine, Key: "V", Value: `"q"`}},
		{"K=", Line{Kind: KeyLine, Key: "K"}},
		{"=v", Line{Kind: IgnoredLine}},
		{"-=v", Line{Kind: IgnoredLine}},
		{`"Q"=v`, Line{Kind: IgnoredLine}},
		{"`Q`=v", Line{Kind: IgnoredLine}},
	}
	// Only the first line may start with byte-order marks.
	if have := ClassifyLine(1, "\uFEFF [A]"); have.Kind != HeaderLine || have.Name != "A" || have.Text != "\uFEFF [A]" {
		t.Errorf("first line with a BOM: %+v", have)
	}
	if have := ClassifyLine(2, "\uFEFF[A]"); have.Kind != IgnoredLine {
		t.Errorf("second line with a BOM: %+v", have)
	}
	for _, tt := range tests {
		tt.want.Num, tt.want.Text = 2, tt.text
		if have := ClassifyLine(2, tt.text); have != tt.want {
			t.Errorf("ClassifyLine(%q):\nhave %+v\nwant %+v", tt.text, have, tt.want)
		}
	}
}

func TestLines(t *testing.T) {
	text := "\uFEFF\uFEFF[A]\r\nK=1\nL=2\r\rM=3\n\n\uFEFF[B]"
	var have []Line
	var joined strings.Builder
	for l := range Lines(text) {
		have = append(have, l)
		joined.WriteString(l.Text + l.End)
	}
	want := []Line{
		{Num: 1, Text: "\uFEFF\uFEFF[A]", End: "\r\n", Kind: HeaderLine, Name: "A"},
		{Num: 2, Text: "K=1", End: "\n", Kind: KeyLine, Key: "K", Value: "1"},
		{Num: 3, Text: "L=2", End: "\r", Kind: KeyLine, Key: "L", Value: "2"},
		{Num: 4, Text: "", End: "\r", Kind: IgnoredLine},
		{Num: 5, Text: "M=3", End: "\n", Kind: KeyLine, Key: "M", Value: "3"},
		{Num: 6, Text: "", End: "\n", Kind: IgnoredLine},
		// A byte-order mark is skipped only at the start of the text.
		{Num: 7, Text: "\uFEFF[B]", End: "", Kind: IgnoredLine},
	}
	if len(have) != len(want) {
		t.Fatalf("have %d lines, want %d: %+v", len(have), len(want), have)
	}
	for i := range want {
		if have[i] != want[i] {
			t.Errorf("line %d:\nhave %+v\nwant %+v", i+1, have[i], want[i])
		}
	}
	if joined.String() != text {
		t.Errorf("Text and End do not give the text back: %q", joined.String())
	}
	for range Lines("") {
		t.Error("empty text: a line")
	}
}

func TestDecodeEncode(t *testing.T) {
	be := func(s string) []byte { return utf16Text(s, binary.BigEndian) }
	tests := []struct {
		name string
		data []byte
		enc  Encoding
		text string
	}{
		{"ascii", []byte("[A]\nK=v"), UTF8, "[A]\nK=v"},
		{"utf-8", []byte("K=Caf\xc3\xa9"), UTF8, "K=Café"},
		{"utf-8 bom", []byte("\xEF\xBB\xBFK=Caf\xc3\xa9"), UTF8BOM, "K=Café"},
		{"latin-1", []byte("K=Caf\xe9"), Latin1, "K=Café"},
		{"latin-1 after a utf-8 bom", []byte("\xEF\xBB\xBFK=Caf\xe9"), Latin1BOM, "K=Café"},
		{"utf-16le", utf16Text("[A]\r\nK=日本\U0001F600", binary.LittleEndian), UTF16LE, "[A]\r\nK=日本\U0001F600"},
		{"utf-16be", be("K=é"), UTF16BE, "K=é"},
		{"empty", nil, UTF8, ""},
	}
	for _, tt := range tests {
		text, enc, err := Decode("x.ini", tt.data)
		if err != nil || enc != tt.enc || text != tt.text {
			t.Errorf("%s: Decode: have %q %v %v, want %q %v", tt.name, text, enc, err, tt.text, tt.enc)
			continue
		}
		back, err := enc.Encode(text)
		if err != nil || !bytes.Equal(back, tt.data) {
			t.Errorf("%s: Encode: have %q %v, want %q", tt.name, back, err, tt.data)
		}
	}
	if _, err := Latin1.Encode("日本"); err == nil {
		t.Error("Latin1.Encode of CJK: no error")
	}
}

func TestDecodeLenient(t *testing.T) {
	le := func(s string, bom bool) []byte {
		b := utf16Text(s, binary.LittleEndian)
		if !bom {
			b = b[2:]
		}
		return b
	}
	tests := []struct {
		name string
		data []byte
		want string
		enc  Encoding
	}{
		{"8-bit kept as it is", []byte("class A\x93"), "class A\x93", UTF8},
		{"utf-8 bom dropped", []byte("\xEF\xBB\xBFclass A"), "class A", UTF8BOM},
		{"utf-16le bom", le("class Ä", true), "class Ä", UTF16LE},
		{"utf-16le without bom", le("class A", false), "class A", UTF16LE},
		{"utf-16be", utf16Text("class A", binary.BigEndian), "class A", UTF16BE},
		{"odd byte dropped", append(le("ab", true), 'c'), "ab", UTF16LE},
		{"unpaired surrogate repaired", []byte{0xFF, 0xFE, 0x00, 0xD8, 'x', 0}, "\uFFFDx", UTF16LE},
		{"NUL kept", []byte{0xFF, 0xFE, 'a', 0, 0, 0}, "a\x00", UTF16LE},
	}
	for _, tt := range tests {
		have, enc := DecodeLenient(tt.data)
		if string(have) != tt.want || enc != tt.enc {
			t.Errorf("%s: have %q %v, want %q %v", tt.name, have, enc, tt.want, tt.enc)
		}
		// Where the strict decoder accepts the bytes, both agree on the text.
		if text, senc, err := Decode("x", tt.data); err == nil && senc != Latin1 && senc != Latin1BOM && text != string(have) {
			t.Errorf("%s: Decode %q, DecodeLenient %q", tt.name, text, have)
		}
	}
}

// TestLinesRandomEnds checks Lines' split against the plain one (the next
// "\r" or "\n", "\r\n" taken whole) on random texts of every mix of ends.
func TestLinesRandomEnds(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	parts := []string{"\r", "\n", "\r\n", "a", "K=v", "[S]", " "}
	for range 3000 {
		var b strings.Builder
		for range rng.IntN(20) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		text := b.String()
		var want []string
		for rest := text; rest != ""; {
			i := strings.IndexAny(rest, "\r\n")
			switch {
			case i < 0:
				want, rest = append(want, rest+"|"), ""
			case strings.HasPrefix(rest[i:], "\r\n"):
				want, rest = append(want, rest[:i]+"|\r\n"), rest[i+2:]
			default:
				want, rest = append(want, rest[:i]+"|"+rest[i:i+1]), rest[i+1:]
			}
		}
		var got []string
		for ln := range Lines(text) {
			got = append(got, ln.Text+"|"+ln.End)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("Lines(%q): %q, want %q", text, got, want)
		}
	}
}
