package cache

import (
	"context"
	"encoding/binary"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/upkdeps/upkdeps/format"
)

func TestOpenUE1States(t *testing.T) {
	f := newUE1Fixture(t)
	c := open(t, f.cache, Options{}, f.ini)
	if c.Generation != 1 || c.Ext != ".uxx" {
		t.Errorf("generation %d, ext %q: want 1, .uxx", c.Generation, c.Ext)
	}
	if have := states(c); !reflect.DeepEqual(have, ue1States) {
		t.Errorf("states:\nhave %v\nwant %v", have, ue1States)
	}
	want := []BadLine{{Line: 12, Key: "NotAGuid"}}
	if have := c.BadLines(); !reflect.DeepEqual(have, want) {
		t.Errorf("bad lines: have %v, want %v", have, want)
	}
	byKey := map[string]Entry{}
	for _, e := range c.Entries() {
		byKey[e.Key] = e
	}
	tests := []struct {
		key                   string
		name, file, installed string
		version, line         int
	}{
		{g(1).String(), "Alpha.u", "Cache/11111111111111111111111111111111.uxx", "", 69, 3},
		{g(2).String(), "Bravo.u", "", "", 0, 4},
		{g(3).String(), "", "Cache/33333333333333333333333333333333.uxx", "", 69, 0},
		{g(8).String(), "Golf.u", "Cache/88888888888888888888888888888888.uxx", "System/Golf.u", 69, 8},
		{g(9).String(), "Hotel.u", "Cache/99999999999999999999999999999999.uxx", "System/Hotel.u", 69, 9},
		{g(0xC).String(), "Tex.utx", "Cache/CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC.uxx", "", 69, 11},
	}
	for _, tt := range tests {
		e := byKey[tt.key]
		file := ""
		if e.File != "" {
			file, _ = filepath.Rel(f.root, e.File)
			file = filepath.ToSlash(file)
		}
		if e.Name != tt.name || file != tt.file || e.Installed != tt.installed || e.Version != tt.version || e.Line != tt.line {
			t.Errorf("%s: have name %q file %q installed %q version %d line %d, want %q %q %q %d %d",
				tt.key, e.Name, file, e.Installed, e.Version, e.Line, tt.name, tt.file, tt.installed, tt.version, tt.line)
		}
	}
	if e := byKey[g(9).String()]; e.InstalledGUID != g(0xA).String() {
		t.Errorf("installed_other: installed GUID %q, want %s", e.InstalledGUID, g(0xA))
	}
	// Sorted by name, orphans and nameless entries last.
	var names []string
	for _, e := range c.Entries() {
		names = append(names, e.Name)
	}
	wantNames := []string{"Alpha.u", "Bravo.u", "Delta.u", "Echo.u", "Golf.u", "Hotel.u", "Map.unr", "Tex.utx", "", ""}
	if !reflect.DeepEqual(names, wantNames) {
		t.Errorf("order: have %q, want %q", names, wantNames)
	}
}

func TestStrays(t *testing.T) {
	f := newUE1Fixture(t)
	c := open(t, f.cache, Options{}, "")
	type stray struct{ file, kind, original string }
	var have []stray
	for _, s := range c.Strays() {
		rel, _ := filepath.Rel(f.root, s.File)
		have = append(have, stray{filepath.ToSlash(rel), s.Kind, s.Original})
	}
	want := []stray{
		{"Cache/.upkdeps-123.tmp", KindOwnTemp, ""},
		{"Cache/0000.tmp", KindUZ, "Alpha.u"},
		{"Cache/0002.tmp", KindUZ2, ""},
		{"Cache/0004.tmp", KindPartial, ""},
		{"Cache/0006.tmp", KindUnknown, ""},
		{"Cache000A.tmp", KindUZ, "Unique.u"},
	}
	if !reflect.DeepEqual(have, want) {
		t.Errorf("strays:\nhave %v\nwant %v", have, want)
	}
}

func TestPartialStrayOriginal(t *testing.T) {
	dir := t.TempDir()
	data := pkg(t, false, g(1), 1)
	writeFile(t, dir, "cache.ini", []byte("[Cache]\n11111111111111111111111111111111=Alpha.u\n"))
	writeFile(t, dir, "0010.tmp", data)
	c := open(t, dir, Options{}, "")
	s := c.Strays()
	if len(s) != 1 || s[0].Kind != KindPartial || s[0].GUID != g(1).String() || s[0].Original != "Alpha.u" {
		t.Errorf("complete package download: have %+v, want partial with GUID and name Alpha.u", s)
	}
}

// ue2Fixture writes a UE2 cache: GUID-Gen.uxx files, GUID-Gen keys, a
// package with two generations, a key whose generation disagrees with the
// only file of that GUID.
func ue2Fixture(t testing.TB) (root, dir string) {
	t.Helper()
	root = t.TempDir()
	writeFile(t, root, "System/UT2004.ini", []byte("[Core.System]\r\nCachePath=../Cache\r\nCacheExt=.uxx\r\nPaths=../System/*.u\r\nPaths=../Maps/*.ut2\r\nPaths=../Textures/*.utx\r\n"))
	writeFile(t, root, "Cache/cache.ini", []byte("[Cache]\r\n"+
		"11111111111111111111111111111111-1=KFMutator.u\r\n"+
		"22222222222222222222222222222222-2=Flags.utx\r\n"+
		"33333333333333333333333333333333-1=Gone.u\r\n"+
		"44444444444444444444444444444444-1=\r\n"+
		"55555555555555555555555555555555-1=Same.u\r\n"+
		"66666666666666666666666666666666-1=Other.u\r\n"+
		"77777777777777777777777777777777-1=Wrong.u\r\n"+
		"88888888888888888888888888888888=NoGeneration.u\r\n"))
	writeFile(t, root, "Cache/11111111111111111111111111111111-1.uxx", pkg(t, true, g(1), 1))
	writeFile(t, root, "Cache/22222222222222222222222222222222-2.uxx", pkg(t, true, g(2), 2))
	same := pkg(t, true, g(5), 1)
	writeFile(t, root, "Cache/55555555555555555555555555555555-1.uxx", same)
	writeFile(t, root, "System/Same.u", same)
	writeFile(t, root, "Cache/66666666666666666666666666666666-1.uxx", pkg(t, true, g(6), 1))
	writeFile(t, root, "System/Other.u", pkg(t, true, g(0xE), 1))
	writeFile(t, root, "Cache/77777777777777777777777777777777-1.uxx", pkg(t, true, g(0xF), 1))
	writeFile(t, root, "Cache/99999999999999999999999999999999-3.uxx", pkg(t, true, g(9), 3))
	return root, filepath.Join(root, "Cache")
}

func TestOpenUE2States(t *testing.T) {
	root, dir := ue2Fixture(t)
	c := open(t, dir, Options{}, filepath.Join(root, "System/UT2004.ini"))
	if c.Generation != 2 || c.Ext != ".uxx" {
		t.Errorf("generation %d, ext %q: want 2, .uxx", c.Generation, c.Ext)
	}
	want := map[string]State{
		"11111111111111111111111111111111-1": StateOK,
		"22222222222222222222222222222222-2": StateOK,
		"33333333333333333333333333333333-1": StateMissingFile,
		"44444444444444444444444444444444-1": StateEmptyEntry,
		"55555555555555555555555555555555-1": StateInstalledSame,
		"66666666666666666666666666666666-1": StateInstalledOther,
		"77777777777777777777777777777777-1": StateGUIDMismatch,
		"99999999999999999999999999999999-3": StateOrphanFile,
	}
	if have := states(c); !reflect.DeepEqual(have, want) {
		t.Errorf("states:\nhave %v\nwant %v", have, want)
	}
	if e := c.EntryByKey("22222222222222222222222222222222-2"); e == nil || e.Generation != 2 || e.Version != 128 {
		t.Errorf("generation 2 entry: have %+v", e)
	}
	if bad := c.BadLines(); len(bad) != 1 || bad[0].Key != "88888888888888888888888888888888" {
		t.Errorf("UE1 key in a UE2 cache: have %v, want it as a bad line", bad)
	}
}

func TestGuessGenerationAndExt(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		opt   Options
		gen   int
		ext   string
	}{
		{"empty folder", nil, Options{}, 1, ".uxx"},
		{"UE1 files", map[string]string{g(1).String() + ".uxx": "", g(2).String() + ".uxx": ""}, Options{}, 1, ".uxx"},
		{"UE1 other ext", map[string]string{g(1).String() + ".cch": "", g(2).String() + ".CCH": "", g(3).String() + ".uxx": ""}, Options{}, 1, ".cch"},
		{"UE2 files", map[string]string{g(1).String() + "-1.uxx": "", g(2).String() + "-3.uxx": ""}, Options{}, 2, ".uxx"},
		{"UE2 keys only", map[string]string{"cache.ini": "[Cache]\n" + g(1).String() + "-1=A.u\n"}, Options{}, 2, ".uxx"},
		{"forced generation", map[string]string{g(1).String() + "-1.uxx": ""}, Options{Generation: 1}, 1, ".uxx"},
		{"given ext without dot", nil, Options{Ext: "cch"}, 1, ".cch"},
		{"UE2 ignores ext", nil, Options{Generation: 2, Ext: ".cch"}, 2, ".uxx"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, data := range tt.files {
				writeFile(t, dir, name, []byte(data))
			}
			c := open(t, dir, tt.opt, "")
			if c.Generation != tt.gen || c.Ext != tt.ext {
				t.Errorf("have generation %d ext %q, want %d %q", c.Generation, c.Ext, tt.gen, tt.ext)
			}
		})
	}
}

func TestOpenErrors(t *testing.T) {
	if _, err := Open(context.Background(), filepath.Join(t.TempDir(), "none"), Options{}); err == nil {
		t.Error("missing folder: no error")
	}
	if _, err := Open(context.Background(), t.TempDir(), Options{Generation: 3}); err == nil {
		t.Error("generation 3: no error")
	}
	dir := t.TempDir()
	writeFile(t, dir, "cache.ini", []byte("[Cache]\x00binary"))
	if _, err := Open(context.Background(), dir, Options{}); err == nil {
		t.Error("binary cache.ini: no error")
	}
}

func TestRepeatedKeyLastWins(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "cache.ini", []byte("[Cache]\n"+g(1).String()+"=Old.u\n"+g(1).String()+"=New.u\n"))
	c := open(t, dir, Options{}, "")
	es := c.Entries()
	if len(es) != 1 || es[0].Name != "New.u" || es[0].Line != 3 {
		t.Errorf("repeated key: have %+v, want one entry New.u at line 3", es)
	}
}

func TestParseKey(t *testing.T) {
	tests := []struct {
		key  string
		gen  int
		guid string
		n    int
		ok   bool
	}{
		{"9316a7ab4ce79c187ac291af8f8fd8d7", 1, "9316A7AB4CE79C187AC291AF8F8FD8D7", 0, true},
		{"9316A7AB4CE79C187AC291AF8F8FD8D7-1", 1, "", 0, false},
		{"9316A7AB4CE79C187AC291AF8F8FD8D7-12", 2, "9316A7AB4CE79C187AC291AF8F8FD8D7", 12, true},
		{"9316A7AB4CE79C187AC291AF8F8FD8D7", 2, "", 0, false},
		{"9316A7AB4CE79C187AC291AF8F8FD8D7-", 2, "", 0, false},
		{"9316A7AB4CE79C187AC291AF8F8FD8D7--1", 2, "", 0, false},
		{"9316A7AB4CE79C187AC291AF8F8FD8D7-1234567890", 2, "", 0, false},
		{"..\\..\\System\\Core", 1, "", 0, false},
		{"G316A7AB4CE79C187AC291AF8F8FD8D7", 1, "", 0, false},
		{"", 1, "", 0, false},
	}
	for _, tt := range tests {
		guid, n, ok := parseKey(tt.key, tt.gen)
		if guid != tt.guid || n != tt.n || ok != tt.ok {
			t.Errorf("parseKey(%q, %d): have %q %d %v, want %q %d %v", tt.key, tt.gen, guid, n, ok, tt.guid, tt.n, tt.ok)
		}
	}
}

func TestUZName(t *testing.T) {
	le := func(v int32) []byte { return binary.LittleEndian.AppendUint32(nil, uint32(v)) }
	wide := append(le(1234), 0x83) // length -3: two UTF-16 characters and NUL
	wide = append(wide, 'M', 0, 0xE9, 0, 0, 0)
	tests := []struct {
		name string
		b    []byte
		want string
		ok   bool
	}{
		{"latin1", append(le(1234), append([]byte{6}, "Foo.u\x00"...)...), "Foo.u", true},
		{"5678", append(le(5678), append([]byte{6}, "Foo.u\x00"...)...), "Foo.u", true},
		{"utf16", wide, "Mé", true},
		{"empty name", append(le(1234), 0), "", true},
		{"no NUL", append(le(1234), append([]byte{5}, "Foo.u"...)...), "", false},
		{"NUL inside", append(le(1234), append([]byte{6}, "Fo\x00.u\x00"...)...), "", false},
		{"short", append(le(1234), append([]byte{20}, "Foo"...)...), "", false},
		{"other signature", append(le(4321), append([]byte{6}, "Foo.u\x00"...)...), "", false},
		{"too long", append(le(1234), 0x40|0x01, 0x7F), "", false},
		{"index runs off", append(le(1234), 0x40), "", false},
		{"tiny", []byte{1, 2}, "", false},
	}
	for _, tt := range tests {
		have, ok := uzName(tt.b)
		if have != tt.want || ok != tt.ok {
			t.Errorf("%s: have %q %v, want %q %v", tt.name, have, ok, tt.want, tt.ok)
		}
	}
}

func FuzzUZName(f *testing.F) {
	f.Add(append([]byte{0xD2, 0x04, 0, 0, 6}, "Foo.u\x00"...))
	f.Add([]byte{0x2E, 0x16, 0, 0, 0xC0, 0xFF, 0xFF, 0xFF, 0xFF})
	f.Fuzz(func(t *testing.T, b []byte) {
		name, ok := uzName(b)
		if ok && len(name) > 4*1024 {
			t.Errorf("name of %d bytes from %d input bytes", len(name), len(b))
		}
	})
}

func TestSelect(t *testing.T) {
	root, dir := ue2Fixture(t)
	_ = root
	c := open(t, dir, Options{}, "")
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"KFMutator.u"}, []string{"11111111111111111111111111111111-1"}},
		{[]string{"kfmutator"}, []string{"11111111111111111111111111111111-1"}},
		{[]string{"22222222222222222222222222222222"}, []string{"22222222222222222222222222222222-2"}},
		{[]string{"22222222222222222222222222222222-2", "Flags"}, []string{"22222222222222222222222222222222-2"}},
	}
	for _, tt := range tests {
		have, err := c.Select(tt.args)
		if err != nil || !reflect.DeepEqual(have, tt.want) {
			t.Errorf("Select(%q): have %v, %v, want %v", tt.args, have, err, tt.want)
		}
	}
	if _, err := c.Select([]string{"KFMutator", "NoSuch.u"}); err == nil {
		t.Error("unknown name: no error")
	}
}

func TestKeyAndFileName(t *testing.T) {
	ue1 := &Cache{Generation: 1, Ext: ".uxx"}
	ue2 := &Cache{Generation: 2, Ext: ".uxx"}
	guid := format.GUID{0x9316A7AB, 0x4CE79C18, 0x7AC291AF, 0x8F8FD8D7}
	if have := ue1.FileName(ue1.Key(guid, 1)); have != "9316A7AB4CE79C187AC291AF8F8FD8D7.uxx" {
		t.Errorf("UE1: have %s", have)
	}
	if have := ue2.FileName(ue2.Key(guid, 3)); have != "9316A7AB4CE79C187AC291AF8F8FD8D7-3.uxx" {
		t.Errorf("UE2: have %s", have)
	}
}

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"Core.u":        "Core.u",
		"esc\x1b[31m.u": `"esc\x1b[31m.u"`,
		"line\nbreak":   `"line\nbreak"`,
		" padded":       `" padded"`,
		"Ünïcödé.utx":   "Ünïcödé.utx",
	} {
		if have := Printable(in); have != want {
			t.Errorf("Printable(%q): have %s, want %s", in, have, want)
		}
	}
}
