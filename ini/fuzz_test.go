package ini

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	goini "gopkg.in/ini.v1"

	"github.com/upkdeps/upkdeps/internal/testutil"
)

// FuzzParse checks that Decode and Encode are inverses and Lines loses
// nothing, that Parse never panics, that every failure is an *Error
// naming the file, that ini.v1 and the line scan always agree (agree: Parse
// relies on it without checking), and that what parses is consistent.
func FuzzParse(f *testing.F) {
	seeds := [][]byte{
		nil,
		text("[Core.System]", "Paths=../System/*.u", `Paths[1]=..\Maps\*.unr`, "CacheExt=.uxx"),
		crlf("[Engine.GameEngine]", "ServerPackages=A", "[XC_Engine.XC_GameEngine]", "ServerPackages=a"),
		utf16Text("[IpDrv.HTTPDownload]\r\nRedirectToURL=http://x/%file%\r\nUseCompression=True\r\n", binary.LittleEndian),
		utf16Text("[A]\nK=v\n", binary.BigEndian),
		text("[A]", "K=`x", `T="""y`, "-=1", `"Q"=2`, "[DEFAULT]", "D=1", "[default]", "D=2"),
		text("[A]", "K=a;b#c", `V="q"`, "W=\\", "[B", "x"),
		text("[Core.System]", "Paths+=*.u", "Paths +=../Maps/*.ctm", "Paths=x", "P+ +=y", "Q[0]+=z", "+=w"),
		[]byte("[A]\rK=1\r\nK=2\n\rK[0]=3"),
		{0xEF, 0xBB, 0xBF, '[', 'A', ']', '\n', 'K', '=', 0xE9},
		{0xC1, 0x83, 0x2A, 0x9E, 0x45, 0x00},
	}
	for _, s := range seeds {
		f.Add(s)
	}
	// Real files as seeds, up to 16 KB: mutating the 150 KB ones slows the
	// fuzzer to a few dozen runs a second without reaching new code.
	if _, ok := testutil.CorpusDir(); ok {
		for _, p := range corpusInis(f) {
			if data, err := os.ReadFile(p); err == nil && len(data) <= 16<<10 {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// What Decode reads, Encode writes back byte for byte, and the lines
		// of Lines join into the text again: what an editor relies on.
		if text, enc, err := Decode("Fuzz.ini", data); err == nil {
			if back, err := enc.Encode(text); err != nil || !bytes.Equal(back, data) {
				t.Fatalf("%v: Encode(Decode(%q)) = %q, %v", enc, data, back, err)
			}
			var joined strings.Builder
			for l := range Lines(text) {
				joined.WriteString(l.Text + l.End)
			}
			if joined.String() != text {
				t.Fatalf("Lines(%q) joined is %q", text, joined.String())
			}
		}
		file, err := Parse("Fuzz.ini", data)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.File != "Fuzz.ini" {
				t.Fatalf("error %v (%T) is not an *Error naming the file", err, err)
			}
			return
		}
		if err := agree("Fuzz.ini", data); err != nil {
			t.Fatalf("ini.v1 and the scan disagree: %v", err)
		}
		for _, sec := range file.Sections() {
			if !file.HasSection(sec) || file.SectionLine(sec) < 1 {
				t.Fatalf("section %q listed but not found", sec)
			}
			for _, v := range file.Values(sec, "Paths") {
				if v == "" {
					t.Fatalf("Values returned an empty value")
				}
			}
		}
		file.System()
		file.Redirect()
		file.ServerPackages()
		GuessGame(file)
		for _, lp := range file.ListProblems() {
			if lp.Line < 1 || lp.First >= lp.Line || lp.Misplaced() == (lp.ReadFrom == "") {
				t.Fatalf("bad list problem %+v", lp)
			}
		}
		// SWRC's reading adds each "Key+=" line to Key's list and loses none.
		swrc := file.ForGame(SWRC)
		appends := 0
		for _, sec := range swrc.Sections() {
			for _, e := range swrc.SectionEntries(sec) {
				if e.Append {
					appends++
				}
			}
		}
		if appends != len(file.AppendLines()) || len(swrc.AppendLines()) != 0 {
			t.Fatalf("ForGame(swrc) read %d appends of %d Key+= lines, left %d", appends, len(file.AppendLines()), len(swrc.AppendLines()))
		}
	})
}

// agree reports where ini.v1 and the line scan read data differently: a
// section or key ini.v1 has that the scan has no line for, a value read
// otherwise, a count of values or key lines that differs. Parse takes the
// values from ini.v1 and the lines from the scan (build) on the strength of
// their agreement, which this proves over the fuzz corpus and every test
// and corpus ini (TestScanAgrees). A file Parse refuses agrees trivially.
func agree(name string, data []byte) error {
	text, _, err := Decode(name, data)
	if err != nil {
		return nil
	}
	sc, err := scan(name, text)
	if err != nil {
		return nil
	}
	gf, err := goini.LoadSources(loadOptions, sc.text)
	if err != nil {
		return fmt.Errorf("ini.v1 refused the scan's text: %v", err)
	}
	matched := 0
	for _, gs := range gf.Sections() {
		for _, gk := range gs.Keys() {
			g, ok := sc.groups[keyID{gs.Name(), gk.Name()}]
			if _, sec := sc.sections[gs.Name()]; !sec || !ok {
				return fmt.Errorf("ini.v1 key [%s] %s has no line", gs.Name(), gk.Name())
			}
			values := gk.ValueWithShadows()
			for _, ri := range sc.members[g] {
				r := sc.keys[ri]
				if r.value == "" {
					continue // ini.v1 leaves empty values out
				}
				if len(values) == 0 || values[0] != r.value {
					return fmt.Errorf("line %d: ini.v1 read key %s differently", r.line, quote(r.key))
				}
				values = values[1:]
			}
			if len(values) != 0 {
				return fmt.Errorf("ini.v1 read %d more values for key %s", len(values), gk.Name())
			}
			matched += len(sc.members[g])
		}
	}
	if matched != len(sc.keys) {
		return fmt.Errorf("ini.v1 read %d key lines, the scan %d", matched, len(sc.keys))
	}
	return nil
}

// TestScanAgrees: ini.v1 and the scan agree on a seed of the awkward lines
// and on every ini of the corpus; build given fewer values than lines (a
// disagreement the proof rules out) neither fails nor panics.
func TestScanAgrees(t *testing.T) {
	inputs := map[string][]byte{
		"seed": text("[Core.System]", "Paths=../System/*.u", `Paths[1]=..\Maps\*.unr`, "K=", "K=`x", `T="""y`, "[A]", "K=a;b#c", `V="q"`, "W=\\"),
	}
	if _, ok := testutil.CorpusDir(); ok {
		for _, p := range corpusInis(t) {
			if data, err := os.ReadFile(p); err == nil {
				inputs[p] = data
			}
		}
	}
	for name, data := range inputs {
		if err := agree(name, data); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	// ini.v1 given other text than the scan wrote.
	sc, err := scan("x.ini", "[A]\nK=1\nK=2\n")
	if err != nil {
		t.Fatal(err)
	}
	gf, err := goini.LoadSources(loadOptions, []byte("[A]\nK=1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if f := build("x.ini", sc, gf); len(f.Values("A", "K")) != 1 {
		t.Errorf("a short ini.v1 read: values %q, want the one it read", f.Values("A", "K"))
	}
}
