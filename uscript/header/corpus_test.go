package header

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/internal/testutil"
	"github.com/upkdeps/upkdeps/native"
	"github.com/upkdeps/upkdeps/uscript"
)

// undyingRoot returns the corpus pair of sources and `ucc make -h` headers.
func undyingRoot(t *testing.T) string {
	return filepath.Join(testutil.Corpus(t), "l0m-dev__Undying-Renewal")
}

// generateCorpus generates the headers of Core, Engine and IpDrv, with the
// existing headers as hints when hints is set.
func generateCorpus(t *testing.T, root string, hints bool) map[string][]byte {
	t.Helper()
	g := New(Undying)
	pkgs := []string{"Core", "Engine", "IpDrv"}
	if hints {
		for _, p := range pkgs {
			data, err := os.ReadFile(filepath.Join(root, p, "Inc", p+"Classes.h"))
			if err != nil {
				continue
			}
			f, err := ParseHeader(bytes.NewReader(data), p)
			if err != nil {
				t.Fatal(err)
			}
			g.AddHints(p, HintsFrom(f))
		}
	}
	table := native.Builtin("undying")
	set := native.NewSet()
	set.AddTable(table)
	for _, p := range pkgs {
		pd, err := uscript.ReadPackageDecls(root, p)
		if err != nil {
			t.Fatal(err)
		}
		name := p
		if err := g.Add(Package{Name: p, Classes: pd.Classes, Native: func(c string) bool { return set.Has(name, c) }}); err != nil {
			t.Fatal(err)
		}
	}
	out := map[string][]byte{}
	for _, p := range pkgs {
		text, _, ok, err := g.Header(p)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			out[p] = text
		}
	}
	return out
}

func normalize(b []byte) []string {
	return strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n")
}

// diffLines returns the number of differing lines and the first few.
func diffLines(a, b []string) (int, string) {
	n := 0
	var sb strings.Builder
	for i := 0; i < max(len(a), len(b)); i++ {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			n++
			if n <= 15 {
				sb.WriteString("line " + itoa(i+1) + ":\n  have " + x + "\n  want " + y + "\n")
			}
		}
	}
	return n, sb.String()
}

func itoa(i int) string { return fmtInt(i) }

func fmtInt(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

func TestCorpusUndyingHeaders(t *testing.T) {
	root := undyingRoot(t)
	got := generateCorpus(t, root, true)
	if _, ok := got["Core"]; ok {
		t.Errorf("Core: a header was generated, but the pair has none")
	}
	for _, p := range []string{"Engine", "IpDrv"} {
		want, err := os.ReadFile(filepath.Join(root, p, "Inc", p+"Classes.h"))
		if err != nil {
			t.Fatal(err)
		}
		n, first := diffLines(normalize(got[p]), normalize(want))
		if n > 0 {
			t.Errorf("%sClasses.h: %d lines differ:\n%s", p, n, first)
		}
	}
}
