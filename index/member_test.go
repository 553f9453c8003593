package index

import (
	"archive/zip"
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/archive"
)

// zipOf builds a zip of the members in order (names may repeat).
func zipOf(t *testing.T, members ...any) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := 0; i < len(members); i += 2 {
		w, err := zw.Create(members[i].(string))
		if err != nil {
			t.Fatal(err)
		}
		w.Write(members[i+1].([]byte))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestBadMembersAreFindings: members with the same name in a zip and a
// .umod, a member named like a nested archive's member, and an archive
// nested two levels deep are each an error row of their member; the first
// of each name is indexed, and a re-add changes nothing (it used to end
// the whole add with "UNIQUE constraint failed", every time).
func TestBadMembersAreFindings(t *testing.T) {
	dir := t.TempDir()
	a1, a2 := pkgBytes(t, 1, nil, "Thing:Class"), pkgBytes(t, 2, nil, "Thing:Class")
	write(t, filepath.Join(dir, "src", "dup.zip"), zipOf(t, "System/A.u", a1, "System/A.u", a2, "System/A.u", a2))
	var um bytes.Buffer
	u := archive.NewUMODWriter(&um)
	u.Add(`System\B.u`, pkgBytes(t, 3, nil, "Thing:Class"))
	u.Add(`System\B.u`, pkgBytes(t, 4, nil, "Thing:Class"))
	u.Close()
	write(t, filepath.Join(dir, "src", "dup.umod"), um.Bytes())
	inner := zipOf(t, "X.u", pkgBytes(t, 5, nil, "Thing:Class"))
	deep := zipOf(t, "deeper.zip", zipOf(t, "Y.u", pkgBytes(t, 6, nil, "Thing:Class")))
	write(t, filepath.Join(dir, "src", "outer.zip"), zipOf(t, "in.zip", inner, "in.zip!X.u", pkgBytes(t, 7, nil, "Thing:Class"), "deep.zip", deep))

	d, err := Open(filepath.Join(dir, "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx := context.Background()
	for run := 0; run < 2; run++ {
		res, err := d.Add(ctx, filepath.Join(dir, "src"), AddOptions{})
		if err != nil {
			t.Fatalf("add %d: %v", run, err)
		}
		var have []string
		for _, e := range res.Errors {
			have = append(have, filepath.Base(e.Path)+"!"+e.Member+": "+e.Error)
		}
		want := []string{
			"dup.umod!System/B.u#2: another member is named System/B.u too: only the first is indexed",
			"dup.zip!System/A.u#2: another member is named System/A.u too: only the first is indexed",
			"dup.zip!System/A.u#3: another member is named System/A.u too: only the first is indexed",
			"outer.zip!deep.zip!deeper.zip: archive: " + filepath.Join(dir, "src", "outer.zip") + ": deep.zip!deeper.zip: an archive inside a nested archive: not read (only one level of nested archives is read)",
			"outer.zip!in.zip!X.u#2: another member is named in.zip!X.u too: only the first is indexed",
		}
		if strings.Join(have, "\n") != strings.Join(want, "\n") {
			t.Errorf("add %d: errors\n%s\nwant\n%s", run, strings.Join(have, "\n"), strings.Join(want, "\n"))
		}
		for name, guidSeed := range map[string]uint32{"a": 1, "b": 3, "x": 5} {
			ps, _ := d.Find(ctx, Query{Name: name})
			if len(ps) != 1 || ps[0].GUID != guidOf(guidSeed) {
				t.Errorf("add %d: %s: %+v, want the first member's copy", run, name, ps)
			}
		}
	}
}

func guidOf(seed uint32) string {
	return strings.ToUpper(strings.ReplaceAll(
		strings.Join([]string{hex8(seed), hex8(seed * 3), hex8(0xABCD0000 + seed), hex8(7)}, ""), " ", ""))
}

func hex8(v uint32) string {
	const digits = "0123456789ABCDEF"
	b := make([]byte, 8)
	for i := 7; i >= 0; i-- {
		b[i] = digits[v&0xF]
		v >>= 4
	}
	return string(b)
}
