package cache

import (
	"context"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

func TestAddUE1(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "Cache")
	writeFile(t, root, "Cache/cache.ini", []byte("; mine\r\n[Cache]\r\n"+g(2).String()+"=Old.u\r\n\r\n[Other]\r\nX=1\r\n"))
	foo := writeFile(t, root, "in/Foo.u", pkg(t, false, g(1), 1))
	renamed := writeFile(t, root, "in/New.u", pkg(t, false, g(2), 1))
	ue2 := writeFile(t, root, "in/Two.u", pkg(t, true, g(3), 1))
	junk := writeFile(t, root, "in/junk.u", []byte("junk"))
	inputs := []string{foo, renamed, ue2, junk, foo}
	var ctl string
	if runtime.GOOS != "windows" { // Windows forbids control characters in file names
		ctl = writeFile(t, root, "in/bad\x1bname.u", pkg(t, false, g(5), 1))
		inputs = append(inputs, ctl)
	}
	c := open(t, dir, Options{}, "")
	p := c.PlanAdd(inputs, AddOptions{})
	rel := func(s string) string { r, _ := filepath.Rel(root, s); return filepath.ToSlash(r) }
	want := []string{
		"copy     in/Foo.u -> Cache/11111111111111111111111111111111.uxx",
		"ini      Cache/cache.ini: 11111111111111111111111111111111=Foo.u (new line)",
		"copy     in/New.u -> Cache/22222222222222222222222222222222.uxx",
		"ini      Cache/cache.ini: 22222222222222222222222222222222=New.u (was Old.u)",
		"refuse   " + ue2 + ": a UE2 package (version 128) for a UE1 cache",
		"refuse   " + junk + ": not a package: format: not an unreal package",
		"skip     " + foo + ": the same package as in/Foo.u",
	}
	if ctl != "" {
		want = append(want, "refuse   "+Printable(ctl)+": unsafe file name: contains a control character")
	}
	var have []string
	for _, a := range p.Actions {
		have = append(have, a.Format(rel))
	}
	if !reflect.DeepEqual(have, want) {
		t.Fatalf("plan:\n%s", diffLines(have, want))
	}
	if err := p.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	wantIni := "; mine\r\n[Cache]\r\n" + g(2).String() + "=New.u\r\n" + g(1).String() + "=Foo.u\r\n\r\n[Other]\r\nX=1\r\n"
	if have := readFile(t, filepath.Join(dir, "cache.ini")); have != wantIni {
		t.Errorf("cache.ini:\nhave %q\nwant %q", have, wantIni)
	}
	c2 := open(t, dir, Options{}, "")
	if have := states(c2); have[g(1).String()] != StateOK || have[g(2).String()] != StateOK {
		t.Errorf("states after add: %v", have)
	}
	// Again: nothing to do but note the files are there.
	again := c2.PlanAdd([]string{foo}, AddOptions{})
	if again.Changes() || len(again.Actions) != 1 || again.Actions[0].Op != OpExists {
		t.Errorf("second add:\n%s", strings.Join(lines(again, root), "\n"))
	}
	// Other bytes under the same GUID name: refused, then forced.
	other := writeFile(t, root, "in2/Foo.u", pkgExport(t, false, g(1), 1, "Changed"))
	if p := c2.PlanAdd([]string{other}, AddOptions{}); p.Refusals() != 1 {
		t.Errorf("other bytes: %v", lines(p, root))
	}
	if p := c2.PlanAdd([]string{other}, AddOptions{Force: true}); p.Refusals() != 0 || p.Actions[0].Op != OpReplace {
		t.Errorf("other bytes, forced: %v", lines(p, root))
	}
}

func TestAddUE2NewCache(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "Cache")
	writeFile(t, root, "Cache/keep.txt", nil)
	two := writeFile(t, root, "in/Flags.utx", pkg(t, true, g(2), 3))
	one := writeFile(t, root, "in/Old.u", pkg(t, false, g(1), 1))
	c := open(t, dir, Options{Generation: 2}, "")
	p := c.PlanAdd([]string{two, one}, AddOptions{})
	if err := p.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	want := "[Cache]" + defaultNewline + g(2).String() + "-3=Flags.utx" + defaultNewline
	if have := readFile(t, filepath.Join(dir, "cache.ini")); have != want {
		t.Errorf("new cache.ini: have %q, want %q", have, want)
	}
	c2 := open(t, dir, Options{}, "")
	if c2.Generation != 2 {
		t.Errorf("generation guessed from the new cache: %d", c2.Generation)
	}
	if e := c2.EntryByKey(g(2).String() + "-3"); e == nil || e.State != StateOK || e.Name != "Flags.utx" {
		t.Errorf("added entry: %+v", e)
	}
	if p.Refusals() != 1 {
		t.Errorf("UE1 package into a UE2 cache not refused: %v", lines(p, root))
	}
}
