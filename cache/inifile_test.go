package cache

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/internal/testutil"
)

func mustParse(t testing.TB, data []byte) *iniDoc {
	t.Helper()
	d, err := parseIniDoc("cache.ini", data)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func utf16le(s string) []byte {
	out := []byte{0xFF, 0xFE}
	for _, u := range utf16.Encode([]rune(s)) {
		out = binary.LittleEndian.AppendUint16(out, u)
	}
	return out
}

func TestIniDocRoundTrip(t *testing.T) {
	inputs := map[string][]byte{
		"crlf":         []byte(ue1CacheIni),
		"lf no final":  []byte("[Cache]\nA=B"),
		"mixed ends":   []byte("[Cache]\r\nA=B\nC=D\rE=F\r\n"),
		"bom":          []byte("\xEF\xBB\xBF[Cache]\r\nA=B\r\n"),
		"latin1":       []byte("[Cache]\nA=Caf\xe9.u\n"),
		"utf16":        utf16le("[Cache]\r\nA=Café.u\r\n"),
		"empty":        {},
		"spaces":       []byte("  [Cache]  \n  A = B  \n;c=d\n"),
		"no section":   []byte("A=B\n"),
		"quoted value": []byte("[Cache]\nA=\"B.u\"\n"),
	}
	for name, data := range inputs {
		d := mustParse(t, data)
		if have := d.bytes(); !bytes.Equal(have, data) {
			t.Errorf("%s: round trip changed the bytes:\nhave %q\nwant %q", name, have, data)
		}
	}
}

func TestIniDocParse(t *testing.T) {
	d := mustParse(t, []byte("; top\n  [cache]  \n  Key1 = Foo.u  \nKey2=\"Quoted Name.u\"\n;Key3=comment\nnot a key\n[Other]\nKey4=x\n[CACHE]\nKey5=y\n"))
	var keys []string
	for _, ln := range d.lines {
		if ln.isCache() {
			keys = append(keys, ln.key+"="+ln.value)
		}
	}
	// Blanks around the value go, as in ini.Parse and the engine.
	want := []string{"Key1=Foo.u", "Key2=Quoted Name.u", "Key5=y"}
	if strings.Join(keys, "|") != strings.Join(want, "|") {
		t.Errorf("[Cache] keys: have %q, want %q", keys, want)
	}
	if d.newline != "\n" {
		t.Errorf("newline: have %q", d.newline)
	}
}

func TestIniDocSet(t *testing.T) {
	tests := []struct {
		name       string
		in         string
		key, value string
		want       string
		line       int
	}{
		{"empty a moved entry, keeping CRLF and the rest",
			"; c\r\n[Cache]\r\nAAAA=Foo.u\r\nBBBB=Bar.u\r\n\r\n[Other]\r\nX=1\r\n", "aaaa", "",
			"; c\r\n[Cache]\r\nAAAA=\r\nBBBB=Bar.u\r\n\r\n[Other]\r\nX=1\r\n", 3},
		{"the last of repeated keys",
			"[Cache]\nA=1\nA=2\n", "A", "3", "[Cache]\nA=1\nA=3\n", 3},
		{"add after the last key, before blank lines and other sections",
			"[Cache]\nA=1\n\n[Other]\nX=1\n", "B", "Bar.u", "[Cache]\nA=1\nB=Bar.u\n\n[Other]\nX=1\n", 3},
		{"add to the last [Cache] section",
			"[Cache]\nA=1\n[Other]\nX=1\n[Cache]\nC=3\n", "B", "2", "[Cache]\nA=1\n[Other]\nX=1\n[Cache]\nC=3\nB=2\n", 7},
		{"add under a header without keys",
			"[Cache]\r\n", "B", "2", "[Cache]\r\nB=2\r\n", 2},
		{"add a section to a file without one",
			"[Other]\nX=1", "B", "2", "[Other]\nX=1\n\n[Cache]\nB=2\n", 5},
		{"new file", "", "B", "2", "[Cache]" + defaultNewline + "B=2" + defaultNewline, 2},
		{"keeps the key's spelling and indentation",
			"[Cache]\n  aBc =Old\n", "ABC", "New", "[Cache]\n  aBc =New\n", 2},
		{"first line key keeps the BOM",
			"\xEF\xBB\xBFA=1\n[Cache]\n", "B", "2", "\xEF\xBB\xBFA=1\n[Cache]\nB=2\n", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := mustParse(t, []byte(tt.in))
			line, err := d.set(tt.key, tt.value)
			if err != nil {
				t.Fatal(err)
			}
			if have := string(d.bytes()); have != tt.want {
				t.Errorf("have %q\nwant %q", have, tt.want)
			}
			if line != tt.line {
				t.Errorf("line: have %d, want %d", line, tt.line)
			}
			// The result reads back with the value set.
			d2 := mustParse(t, d.bytes())
			if i := d2.lastKey(tt.key); i < 0 || d2.lines[i].value != tt.value {
				t.Errorf("reparsed: key %s not set to %q", tt.key, tt.value)
			}
		})
	}
}

func TestIniDocEncodings(t *testing.T) {
	d := mustParse(t, []byte("[Cache]\nA=Caf\xe9.u\n"))
	if d.enc != ini.Latin1 || d.lines[1].value != "Café.u" {
		t.Errorf("latin1: enc %d value %q", d.enc, d.lines[1].value)
	}
	if _, err := d.set("B", "Naïve.u"); err != nil {
		t.Fatal(err)
	}
	if have := string(d.bytes()); have != "[Cache]\nA=Caf\xe9.u\nB=Na\xefve.u\n" {
		t.Errorf("latin1 write: have %q", have)
	}
	if _, err := d.set("C", "日本.u"); err == nil {
		t.Error("a name outside Latin-1 in a Latin-1 file: no error")
	}

	u := mustParse(t, utf16le("[Cache]\r\nA=Café.u\r\n"))
	if u.enc != ini.UTF16LE || u.lines[1].value != "Café.u" {
		t.Errorf("utf16: enc %d value %q", u.enc, u.lines[1].value)
	}
	if _, err := u.set("A", ""); err != nil {
		t.Fatal(err)
	}
	if have, want := u.bytes(), utf16le("[Cache]\r\nA=\r\n"); !bytes.Equal(have, want) {
		t.Errorf("utf16 write: have %q, want %q", have, want)
	}

	for name, data := range map[string][]byte{"odd utf16": {0xFF, 0xFE, 'A'}, "NUL": []byte("[Cache]\x00")} {
		if _, err := parseIniDoc("x", data); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func FuzzIniDoc(f *testing.F) {
	f.Add([]byte(ue1CacheIni))
	f.Add([]byte("[Cache]\nA=B"))
	f.Add(utf16le("[Cache]\r\nA=B\r\n"))
	f.Add([]byte("\xEF\xBB\xBFA=\xe9\r"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := parseIniDoc("cache.ini", data)
		if err != nil {
			return
		}
		if !bytes.Equal(d.bytes(), data) {
			t.Fatalf("round trip changed %q into %q", data, d.bytes())
		}
		const key = "0123456789ABCDEF0123456789ABCDEF"
		if _, err := d.set(key, "Foo.u"); err != nil {
			return
		}
		d2, err := parseIniDoc("cache.ini", d.bytes())
		if err != nil {
			t.Fatalf("set made an unreadable file: %v", err)
		}
		if i := d2.lastKey(key); i < 0 || d2.lines[i].value != "Foo.u" {
			t.Fatalf("set %s=Foo.u in %q, read back %q", key, data, d2.bytes())
		}
	})
}

// TestHeaderWithComment is issue 12's disagreement: a header followed by a
// comment is a header to the engine and to ini.Parse, so cache.Open must
// find the key under it too.
func TestHeaderWithComment(t *testing.T) {
	data := "[Cache] ; downloads\n" + g(1).String() + "=Foo.u\n"
	f, err := ini.Parse("cache.ini", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := f.Value("Cache", g(1).String()); !ok || v != "Foo.u" {
		t.Fatalf("ini.Parse: key not found (%q, %t)", v, ok)
	}
	dir := t.TempDir()
	writeFile(t, dir, IniName, []byte(data))
	c := open(t, dir, Options{}, "")
	if es := c.Entries(); len(es) != 1 || es[0].Name != "Foo.u" || es[0].Line != 2 {
		t.Errorf("cache.Open: have entries %+v, want Foo.u at line 2", es)
	}
}

// FuzzIniDocMatchesParse feeds the same bytes to the reader (ini.Parse) and
// to the editor (parseIniDoc) and checks they see the same sections (in
// order, as first spelled), keys and values on the same lines. The editor
// accepts what Parse refuses for a malformed line or a limit, never the
// reverse: both decode with ini.Decode.
func FuzzIniDocMatchesParse(f *testing.F) {
	for _, s := range []string{
		ue1CacheIni,
		"[Cache] ; downloads\nA=Foo.u\n",
		"[Cache]x\r\n  A = \"B.u\"  \r#C=D\r;E=F\n[cache]\nG=\n[Other]\nA=1",
		"A=before\n[Cache]\n\"Q\"=1\n-=2\n=3\nK=`x`\nL=\"\"\"y\nnot a key\n[ Cache ]\nM=4",
		"\xEF\xBB\xBF\uFEFF[Cache]\nA=Caf\xc3\xa9\n",
		"[Cache]\nA=Caf\xe9\n",
		"[Cache]\nA\v=\u00a0B\u0085\n",
		"[Cache]\n[B\n[]\nA=1",
	} {
		f.Add([]byte(s))
	}
	f.Add(utf16le("[Cache]\r\nA=Café.u\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) { sameView(t, data) })
}

// sameView fails t when the reader (ini.Parse) and the editor (parseIniDoc)
// see data differently: other sections, in another order or spelling, or
// other key lines (key, value, line number) in a section. The editor must
// accept whatever Parse accepts.
func sameView(t testing.TB, data []byte) {
	t.Helper()
	doc, docErr := parseIniDoc("cache.ini", data)
	file, err := ini.Parse("cache.ini", data)
	if docErr != nil {
		if err == nil {
			t.Fatalf("the editor refuses what ini.Parse reads: %v", docErr)
		}
		return
	}
	if err != nil {
		return
	}
	type key struct {
		line       int
		key, value string
	}
	var order []string
	first := map[string]string{}
	keys := map[string][]key{}
	for i, ln := range doc.lines {
		lower := strings.ToLower(ln.section)
		if ln.isHeader {
			if _, ok := first[lower]; !ok {
				first[lower] = ln.header
				order = append(order, ln.header)
			}
		}
		if ln.isKey && ln.section != "" {
			keys[lower] = append(keys[lower], key{i + 1, ln.key, ln.value})
		}
	}
	if have := file.Sections(); strings.Join(have, "\n") != strings.Join(order, "\n") {
		t.Fatalf("sections: ini.Parse %q, editor %q", have, order)
	}
	for _, sec := range order {
		var have []key
		for _, e := range file.SectionEntries(sec) {
			have = append(have, key{e.Line, e.Key, e.Value})
		}
		want := keys[strings.ToLower(sec)]
		if fmt.Sprint(have) != fmt.Sprint(want) {
			t.Fatalf("[%s]: ini.Parse %+v, editor %+v", sec, have, want)
		}
	}
}

// TestCorpusIniDocMatchesParse runs the differential check of
// FuzzIniDocMatchesParse on every real ini and .upkg file of the corpus.
func TestCorpusIniDocMatchesParse(t *testing.T) {
	root := testutil.Corpus(t)
	n := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch strings.ToLower(filepath.Ext(p)) {
		case ".ini", ".upkg":
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			n++
			t.Run(strings.TrimPrefix(p, root), func(t *testing.T) { sameView(t, data) })
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 30 {
		t.Errorf("found only %d ini/upkg files in the corpus", n)
	}
}
