package format

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/upkdeps/upkdeps/internal/testutil"
)

// TestClassDefaultBool: a generated class whose defaults set
// bAddToServerPackages=True after bytes that hold the same name's index
// elsewhere (script), and a class without it.
func TestClassDefaultBool(t *testing.T) {
	b := NewBuilder(128, 29)
	idx := b.Name("bAddToServerPackages")
	// The script mentions the name too (a token followed by no valid tag
	// run): it must not count.
	script := append(appendCompact([]byte{0x01, 0x02}, idx), 0x03, 0x44, 0x99)
	with := b.ClassDefaults(script, "bAddToServerPackages")
	without := b.ClassDefaults(script)
	b.Export(0, "MutOn", 0, 0, int32(len(with)))
	b.Export(0, "MutOff", 0, 0, int32(len(without)))
	data, err := MarshalSerial(b.File, map[int][]byte{0: with, 1: without})
	if err != nil {
		t.Fatal(err)
	}
	f, err := NewFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []bool{true, false} {
		v, found, err := f.ClassDefaultBool(bytes.NewReader(data), i, "bAddToServerPackages")
		if err != nil || found != want || v != want {
			t.Errorf("export %d: value %v found %v err %v, want %v", i, v, found, err, want)
		}
	}
	if _, _, err := f.ClassDefaultBool(bytes.NewReader(data), 5, "x"); err == nil {
		t.Error("no error for an export out of range")
	}
}

// TestClassDefaultBoolCorpus: KFRedirectTool's test RTDMut.u, a Killing
// Floor mutator whose defaults set bAddToServerPackages=True.
func TestClassDefaultBoolCorpus(t *testing.T) {
	path := testutil.CorpusFile(t, filepath.Join("InsultingPros__KFRedirectTool", "test", "RTDMut.u"))
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var seen int
	for i := range f.Exports {
		e := &f.Exports[i]
		if !e.Class.IsNull() || !e.Outer.IsNull() {
			continue
		}
		v, found, err := f.ClassDefaultBool(nil, i, "bAddToServerPackages")
		if err != nil {
			t.Fatal(err)
		}
		name := f.NameAt(e.ObjectName)
		if want := name == "RTDMut"; found != want || v != want {
			t.Errorf("%s: value %v found %v, want %v", name, v, found, want)
		}
		seen++
	}
	if seen < 10 {
		t.Errorf("only %d classes", seen)
	}
}

// FuzzTagsToEnd: the tag walker stays in bounds on any bytes.
func FuzzTagsToEnd(f *testing.F) {
	b := NewBuilder(128, 29)
	f.Add(b.ClassDefaults([]byte{1, 2, 3}, "bAddToServerPackages"), 3)
	f.Add([]byte{0x53, 0x02, 0xd3, 0x00, 0x00}, 0)
	f.Fuzz(func(t *testing.T, data []byte, p int) {
		if p < 0 || p > len(data) {
			return
		}
		tagsToEnd(data, p, 300, 0)
		readCompact(data)
	})
}
