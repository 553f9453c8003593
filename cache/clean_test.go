package cache

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestCleanUE1(t *testing.T) {
	f := newUE1Fixture(t)
	c := open(t, f.cache, Options{}, f.ini)
	s := searcher(t, f.ini, 0)
	tests := []struct {
		name string
		opt  CleanOptions
		want []string
	}{
		{"installed", CleanOptions{Installed: true, Installation: s}, []string{
			"remove   Cache/.upkdeps-123.tmp (left by an interrupted upkdeps write)",
			"remove   Cache/88888888888888888888888888888888.uxx (installed as System/Golf.u)",
			"ini      Cache/cache.ini: 88888888888888888888888888888888= (was Golf.u: moved into the install)",
		}},
		{"orphans", CleanOptions{Orphans: true, Installation: s}, []string{
			"remove   Cache/.upkdeps-123.tmp (left by an interrupted upkdeps write)",
			"skip     33333333333333333333333333333333: orphan, but the only copy of its package: kept",
		}},
		{"tmp", CleanOptions{Tmp: true, Installation: s}, []string{
			"remove   Cache/.upkdeps-123.tmp (left by an interrupted upkdeps write)",
			"remove   Cache/0000.tmp (.uz of Alpha.u, decompresses to the bytes of Cache/11111111111111111111111111111111.uxx)",
			"remove   Cache/0002.tmp (.uz2, decompresses to the bytes of Cache/88888888888888888888888888888888.uxx)",
			"remove   Cache/0004.tmp (package download cut short (its tables are not all there))",
			"remove   Cache/0006.tmp (download file holding neither a package nor compressed data)",
			"skip     Cache000A.tmp: .uz of Unique.u: decompresses to a package found nowhere else: kept",
		}},
	}
	// Every plan starts by removing the temporary file an interrupted write
	// left; the plan of all three has it once.
	all := []string{tests[0].want[0]}
	for _, tt := range tests {
		p := c.PlanClean(tt.opt)
		if have := lines(p, f.root); !reflect.DeepEqual(have, tt.want) {
			t.Errorf("%s:\n%s", tt.name, diffLines(have, tt.want))
		}
		all = append(all, tt.want[1:]...)
	}
	// No option: all three, entries before strays.
	p := c.PlanClean(CleanOptions{Installation: s})
	if have := lines(p, f.root); !reflect.DeepEqual(have, all) {
		t.Errorf("all:\n%s", diffLines(have, all))
	}
	if err := p.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	have := tree(t, f.root)
	for _, gone := range []string{"Cache/88888888888888888888888888888888.uxx", "Cache/0000.tmp", "Cache/.upkdeps-123.tmp"} {
		for _, h := range have {
			if h == gone {
				t.Errorf("%s still there", gone)
			}
		}
	}
	for _, kept := range []string{"Cache/33333333333333333333333333333333.uxx", "Cache000A.tmp", "System/Golf.u", "Cache/11111111111111111111111111111111.uxx", "Other0000.tmp", "Cache/readme.txt"} {
		if _, err := os.Stat(filepath.Join(f.root, kept)); err != nil {
			t.Errorf("%s removed", kept)
		}
	}
	c2 := open(t, f.cache, Options{}, f.ini)
	if e := c2.EntryByKey(g(8).String()); e.State != StateEmptyEntry {
		t.Errorf("cleaned installed entry: state %s, want empty_entry", e.State)
	}
	if again := c2.PlanClean(CleanOptions{Installation: s}); again.Changes() {
		t.Errorf("second clean still changes:\n%s", strings.Join(lines(again, f.root), "\n"))
	}
}

func TestCleanCopiesAndLinks(t *testing.T) {
	root := t.TempDir()
	iniPath := writeFile(t, root, "System/Test.ini", []byte(ue1Ini))
	a := pkg(t, false, g(1), 1)
	// Orphans: a copy of an installed package, a non-package, one whose
	// only other name is a hard link (the same file, not a copy).
	writeFile(t, root, "System/A.u", a)
	writeFile(t, root, "Cache/"+g(1).String()+".uxx", a)
	writeFile(t, root, "Cache/"+g(2).String()+".uxx", []byte("junk"))
	writeFile(t, root, "Cache/"+g(3).String()+".uxx", pkg(t, false, g(3), 1))
	if err := os.Link(filepath.Join(root, "Cache", g(3).String()+".uxx"), filepath.Join(root, "System", "Linked.u")); err != nil {
		t.Skip("hard links not supported:", err)
	}
	// installed_same, but the installed file has other bytes (same GUID).
	writeFile(t, root, "Cache/cache.ini", []byte("[Cache]\n"+g(4).String()+"=Patched.u\n"))
	writeFile(t, root, "Cache/"+g(4).String()+".uxx", pkg(t, false, g(4), 1))
	writeFile(t, root, "System/Patched.u", pkgExport(t, false, g(4), 1, "Patched"))
	// A complete package left as a temp file, same bytes as a cache file.
	writeFile(t, root, "Cache/0001.tmp", a)
	writeFile(t, root, "Cache/0002.tmp", []byte{})

	c := open(t, filepath.Join(root, "Cache"), Options{}, iniPath)
	p := c.PlanClean(CleanOptions{Installation: searcher(t, iniPath, 0)})
	want := []string{
		"skip     44444444444444444444444444444444 Patched.u: installed as System/Patched.u with the same GUID but other bytes: kept",
		"remove   Cache/11111111111111111111111111111111.uxx (orphan, same bytes as System/A.u)",
		"remove   Cache/22222222222222222222222222222222.uxx (orphan, not a package)",
		"skip     33333333333333333333333333333333: orphan, but the only copy of its package: kept",
		"remove   Cache/0001.tmp (finished download, same bytes as Cache/11111111111111111111111111111111.uxx)",
		"remove   Cache/0002.tmp (empty download file)",
	}
	if have := lines(p, root); !reflect.DeepEqual(have, want) {
		t.Errorf("plan:\n%s", diffLines(have, want))
	}
	// Without an installation, A.u's copy is unknown.
	p = c.PlanClean(CleanOptions{Orphans: true})
	if have := lines(p, root); len(have) != 3 || !strings.HasPrefix(have[0], "skip     1111") {
		t.Errorf("bare cache:\n%s", strings.Join(have, "\n"))
	}
}

func TestCleanCorruptUZ(t *testing.T) {
	dir := t.TempDir()
	data := pkg(t, false, g(1), 1)
	z := compressUZ(t, "A.u", data)
	writeFile(t, dir, "0000.tmp", z[:len(z)/2])
	z2 := compressUZ2(t, data)
	writeFile(t, dir, "0001.tmp", z2[:len(z2)-3])
	c := open(t, dir, Options{}, "")
	p := c.PlanClean(CleanOptions{Tmp: true})
	for _, l := range lines(p, dir) {
		if !strings.HasPrefix(l, "remove") || !strings.Contains(l, "does not decompress") {
			t.Errorf("truncated download: %s", l)
		}
	}
	if len(p.Actions) != 2 {
		t.Errorf("have %d actions, want 2", len(p.Actions))
	}
}
