package cache

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestViewText: cache list's and verify's text of a cache classified
// against its install, paths relative to the game root.
func TestViewText(t *testing.T) {
	f := newUE1Fixture(t)
	c := open(t, f.cache, Options{}, f.ini)
	v := &View{Cache: c, Root: f.root, Game: "UT99", Search: searcher(t, f.ini, 0)}
	var b strings.Builder
	if err := v.WriteList(&b); err != nil {
		t.Fatal(err)
	}
	wantList := `Cache: Cache (UT99; files GUID.uxx; Cache/cache.ini)
KEY                               STATE                 SIZE  VER  NAME
11111111111111111111111111111111  ok                     176   69  Alpha.u
22222222222222222222222222222222  missing_file             -    -  Bravo.u
44444444444444444444444444444444  guid_mismatch          176   69  Delta.u
66666666666666666666666666666666  not_a_package           28    -  Echo.u
88888888888888888888888888888888  installed_same         176   69  Golf.u  (installed: System/Golf.u)
99999999999999999999999999999999  installed_other        176   69  Hotel.u  (installed: System/Hotel.u)
BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB  ok                     176   69  Map.unr
CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC  ok                     176   69  Tex.utx
33333333333333333333333333333333  orphan_file            176   69  -
77777777777777777777777777777777  empty_entry              -    -  -

Stray download files:
  Cache/.upkdeps-123.tmp  11 bytes  upkdeps_temp
  Cache/0000.tmp  425 bytes  uz of Alpha.u
  Cache/0002.tmp  132 bytes  uz2
  Cache/0004.tmp  60 bytes  partial
  Cache/0006.tmp  7 bytes  unknown
  Cache000A.tmp  426 bytes  uz of Unique.u

10 entries: 3 ok, 1 installed_same, 1 installed_other, 1 missing_file, 1 empty_entry, 1 orphan_file, 1 guid_mismatch, 1 not_a_package; 6 stray download files
`
	if b.String() != wantList {
		t.Errorf("list:\nhave\n%s\nwant\n%s", b.String(), wantList)
	}
	b.Reset()
	if err := v.WriteVerify(&b, v.Verify()); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Cache: Cache (UT99; files GUID.uxx; Cache/cache.ini)\nerror    guid_mismatch    44444444444444444444444444444444 Delta.u: the file is named",
		"\nwarning  orphan_file      33333333333333333333333333333333: the file has no name in cache.ini\n",
		"\nwarning  bad_key          Cache/cache.ini: line 12: key NotAGuid is not a cache key\n",
		"\nwarning  stray            Cache000A.tmp: stray download file: uz of Unique.u\n10 entries: 3 errors, 9 warnings\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("verify: no %q in\n%s", want, b.String())
		}
	}
}

// TestOpenView: a bare cache folder's view shows paths relative to its
// parent (a path outside as it is), names its generation in the header,
// and plans an extraction with the Paths given, while a view opened
// with an install plans it with the install's.
func TestOpenView(t *testing.T) {
	f := newUE1Fixture(t)
	v, err := OpenView(context.Background(), f.cache, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if have, want := v.Header(), "Cache: Cache (UE1; files GUID.uxx; Cache/cache.ini)\n"; have != want {
		t.Errorf("header %q, want %q", have, want)
	}
	outside := filepath.Join(filepath.Dir(f.root), "elsewhere", "x.u")
	for path, want := range map[string]string{"": "", filepath.Join(f.cache, "a.u"): "Cache/a.u", outside: filepath.ToSlash(outside)} {
		if have := v.Rel(path); have != want {
			t.Errorf("Rel(%q) = %q, want %q", path, have, want)
		}
	}
	s := searcher(t, f.ini, 0)
	withInstall := &View{Cache: open(t, f.cache, Options{}, f.ini), Root: f.root, Search: s}
	have := lines(withInstall.PlanExtract(ExtractOptions{}), f.root)
	want := lines(withInstall.Cache.PlanExtract(ExtractOptions{Paths: s.PlacementPaths(), SystemDir: s.Dir()}), f.root)
	if !reflect.DeepEqual(have, want) || len(have) == 0 {
		t.Errorf("extract with the install's Paths:\n%s", diffLines(have, want))
	}
	bareExtract := lines(v.PlanExtract(ExtractOptions{}), f.root)
	have = lines(withInstall.PlanClean(CleanOptions{}), f.root)
	want = lines(withInstall.Cache.PlanClean(CleanOptions{Installation: s}), f.root)
	if !reflect.DeepEqual(have, want) {
		t.Errorf("clean against the install:\n%s", diffLines(have, want))
	}
	if extract := lines(withInstall.PlanExtract(ExtractOptions{}), f.root); reflect.DeepEqual(bareExtract, extract) {
		t.Errorf("a bare view planned as the install does:\n%s", strings.Join(bareExtract, "\n"))
	}
}
