package cache

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/internal/fsutil"
)

// extractOptions returns the Paths of the fixture's ini.
func extractOptions(t testing.TB, iniPath string) ExtractOptions {
	t.Helper()
	f, err := ini.Load(iniPath)
	if err != nil {
		t.Fatal(err)
	}
	return ExtractOptions{Paths: f.System().Paths, SystemDir: filepath.Dir(iniPath)}
}

func TestExtractUE1(t *testing.T) {
	f := newUE1Fixture(t)
	c := open(t, f.cache, Options{}, f.ini)
	p := c.PlanExtract(extractOptions(t, f.ini))
	want := []string{
		"remove   Cache/.upkdeps-123.tmp (left by an interrupted upkdeps write)",
		"copy     Cache/11111111111111111111111111111111.uxx -> System/Alpha.u",
		"remove   Cache/11111111111111111111111111111111.uxx (moved to the install)",
		"ini      Cache/cache.ini: 11111111111111111111111111111111= (was Alpha.u: moved into the install)",
		"refuse   44444444444444444444444444444444 Delta.u: the file holds another package: header GUID 55555555555555555555555555555555",
		"refuse   66666666666666666666666666666666 Echo.u: not a package: format: not an unreal package",
		"exists   System/Golf.u (same bytes as Cache/88888888888888888888888888888888.uxx)",
		"remove   Cache/88888888888888888888888888888888.uxx (moved to the install)",
		"ini      Cache/cache.ini: 88888888888888888888888888888888= (was Golf.u: moved into the install)",
		"refuse   99999999999999999999999999999999 Hotel.u: System/Hotel.u exists with other content, GUID AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA (Force would replace it)",
		"mkdir    Maps",
		"copy     Cache/BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB.uxx -> Maps/Map.unr",
		"remove   Cache/BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB.uxx (moved to the install)",
		"ini      Cache/cache.ini: BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB= (was Map.unr: moved into the install)",
		"mkdir    Textures",
		"copy     Cache/CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC.uxx -> Textures/Tex.utx",
		"remove   Cache/CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC.uxx (moved to the install)",
		"ini      Cache/cache.ini: cccccccccccccccccccccccccccccccc= (was Tex.utx: moved into the install)",
		"skip     33333333333333333333333333333333: cache.ini has no name for this file",
	}
	// The key spelling in the ini line is the entry's, upper-case; the file
	// keeps its own spelling (checked below).
	want[17] = strings.Replace(want[17], "cccccccccccccccccccccccccccccccc", "CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC", 1)
	if have := lines(p, f.root); !reflect.DeepEqual(have, want) {
		t.Fatalf("plan:\n%s", diffLines(have, want))
	}
	if p.Refusals() != 3 || !p.Changes() {
		t.Errorf("refusals %d, changes %v: want 3, true", p.Refusals(), p.Changes())
	}

	var done []string
	if err := p.Run(context.Background(), func(a Action) { done = append(done, a.Format(nil)) }); err != nil {
		t.Fatal(err)
	}
	if len(done) != len(p.Actions) {
		t.Errorf("Run reported %d actions, the plan has %d", len(done), len(p.Actions))
	}
	for name, rel := range map[string]string{"Alpha.u": "System/Alpha.u", "Map.unr": "Maps/Map.unr", "Tex.utx": "Textures/Tex.utx", "Golf.u": "System/Golf.u"} {
		if have := readFile(t, filepath.Join(f.root, rel)); have != string(f.pkgs[name]) {
			t.Errorf("%s: wrong content after extract", rel)
		}
	}
	wantIni := strings.NewReplacer(
		"11111111111111111111111111111111=Alpha.u", "11111111111111111111111111111111=",
		"88888888888888888888888888888888=Golf.u", "88888888888888888888888888888888=",
		"BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB=Map.unr", "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB=",
		"cccccccccccccccccccccccccccccccc=Tex.utx", "cccccccccccccccccccccccccccccccc=",
	).Replace(ue1CacheIni)
	if have := readFile(t, c.IniPath()); have != wantIni {
		t.Errorf("cache.ini after extract:\nhave %q\nwant %q", have, wantIni)
	}

	// The moved entries are now empty, everything else as before; a second
	// run has only the refusals and the skip left.
	c2 := open(t, f.cache, Options{}, f.ini)
	wantStates := map[string]State{}
	for k, s := range ue1States {
		wantStates[k] = s
	}
	for _, k := range []string{g(1).String(), g(8).String(), g(0xB).String(), g(0xC).String()} {
		wantStates[k] = StateEmptyEntry
	}
	if have := states(c2); !reflect.DeepEqual(have, wantStates) {
		t.Errorf("states after extract:\nhave %v\nwant %v", have, wantStates)
	}
	again := c2.PlanExtract(extractOptions(t, f.ini))
	if again.Changes() || again.Refusals() != 3 {
		t.Errorf("second run:\n%s", strings.Join(lines(again, f.root), "\n"))
	}
}

func TestExtractSelectedForceKeepTo(t *testing.T) {
	f := newUE1Fixture(t)
	c := open(t, f.cache, Options{}, f.ini)
	opt := extractOptions(t, f.ini)
	keys, err := c.Select([]string{"Hotel.u", "Bravo", g(7).String()})
	if err != nil {
		t.Fatal(err)
	}
	opt.Keys, opt.Force = keys, true
	want := []string{
		"remove   Cache/.upkdeps-123.tmp (left by an interrupted upkdeps write)",
		"skip     22222222222222222222222222222222 Bravo.u: no file in the cache",
		"replace  Cache/99999999999999999999999999999999.uxx -> System/Hotel.u (other content, GUID AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA, with Force)",
		"remove   Cache/99999999999999999999999999999999.uxx (moved to the install)",
		"ini      Cache/cache.ini: 99999999999999999999999999999999= (was Hotel.u: moved into the install)",
		"skip     77777777777777777777777777777777: already moved (cache.ini has no name for it)",
	}
	p := c.PlanExtract(opt)
	if have := lines(p, f.root); !reflect.DeepEqual(have, want) {
		t.Fatalf("plan:\n%s", diffLines(have, want))
	}
	if err := p.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if readFile(t, filepath.Join(f.system, "Hotel.u")) != string(f.pkgs["Hotel.u"]) {
		t.Error("--force did not replace System/Hotel.u")
	}

	// --keep --to: copy only, into a folder of our choice.
	to := filepath.Join(f.root, "Out")
	c = open(t, f.cache, Options{}, f.ini)
	keys, _ = c.Select([]string{"Alpha.u"})
	p = c.PlanExtract(ExtractOptions{To: to, Keep: true, Keys: keys})
	want = []string{"mkdir    Out", "copy     Cache/11111111111111111111111111111111.uxx -> Out/Alpha.u"}
	if have := lines(p, f.root); !reflect.DeepEqual(have, want) {
		t.Fatalf("--keep --to plan:\n%s", diffLines(have, want))
	}
	if err := p.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if c2 := open(t, f.cache, Options{}, ""); c2.EntryByKey(g(1).String()).State != StateOK {
		t.Error("--keep changed the cache entry")
	}
}

func TestExtractShadowedAndDuplicates(t *testing.T) {
	root := t.TempDir()
	iniPath := writeFile(t, root, "System/Test.ini", []byte("[Core.System]\nCachePath=../Cache\nCacheExt=.uxx\n"+
		"Paths=../Mods/*.u\nPaths=../System/*.u\nPaths=../Textures/*.utx\nPaths=../Music/*.umx\n"))
	entries := []struct {
		guid format.GUID
		name string
	}{
		{g(1), "Dup.u"}, {g(2), "dup.U"}, // two versions landing on one file (ignoring case)
		{g(3), "Same.u"},      // installed in System with the same bytes
		{g(4), "Other.u"},     // another version in System, which Mods (the target) comes before
		{g(6), "Credits.umx"}, // another package of that name in Textures, searched before Music
	}
	var ini strings.Builder
	ini.WriteString("[Cache]\n")
	for _, e := range entries {
		ini.WriteString(e.guid.String() + "=" + e.name + "\n")
		writeFile(t, root, "Cache/"+e.guid.String()+".uxx", pkg(t, false, e.guid, 1))
	}
	writeFile(t, root, "Cache/cache.ini", []byte(ini.String()))
	writeFile(t, root, "System/Same.u", pkg(t, false, g(3), 1))
	writeFile(t, root, "System/Other.u", pkg(t, false, g(5), 1))
	writeFile(t, root, "Textures/Credits.utx", pkg(t, false, g(7), 1))
	c := open(t, filepath.Join(root, "Cache"), Options{}, iniPath)
	if have := states(c); have[g(4).String()] != StateInstalledOther || have[g(6).String()] != StateInstalledOther || have[g(3).String()] != StateInstalledSame {
		t.Fatalf("states: %v", have)
	}
	p := c.PlanExtract(extractOptions(t, iniPath))
	want := []string{
		"refuse   66666666666666666666666666666666 Credits.umx: the engine would still load Textures/Credits.utx (GUID 77777777777777777777777777777777) first (Force would copy anyway)",
		"refuse   11111111111111111111111111111111 Dup.u: 2 entries (11111111111111111111111111111111, 22222222222222222222222222222222) would be extracted to Mods/Dup.u: name one by its GUID",
		"refuse   22222222222222222222222222222222 dup.U: 2 entries (11111111111111111111111111111111, 22222222222222222222222222222222) would be extracted to Mods/dup.U: name one by its GUID",
		"mkdir    Mods",
		"copy     Cache/44444444444444444444444444444444.uxx -> Mods/Other.u",
		"remove   Cache/44444444444444444444444444444444.uxx (moved to the install)",
		"ini      Cache/cache.ini: 44444444444444444444444444444444= (was Other.u: moved into the install)",
		"skip     33333333333333333333333333333333 Same.u: already installed as System/Same.u",
	}
	if have := lines(p, root); !reflect.DeepEqual(have, want) {
		t.Fatalf("plan:\n%s", diffLines(have, want))
	}
	// Naming one version settles the duplicate.
	opt := extractOptions(t, iniPath)
	opt.Keys, _ = c.Select([]string{g(2).String()})
	if have := lines(c.PlanExtract(opt), root); len(have) != 4 || have[1] != "copy     Cache/22222222222222222222222222222222.uxx -> Mods/dup.U" {
		t.Errorf("one version named:\n%s", strings.Join(have, "\n"))
	}
}

// hostileNames are original names that would land outside the install, or
// on devices, or drive a terminal, if used blindly. (A line break cannot
// be in an ini value.)
var hostileNames = []string{
	`..\..\System\Core.u`,
	"../../../etc/evil.u",
	"/abs/evil.u",
	`C:evil.u`,
	`C:\Windows\evil.u`,
	"CON.u",
	"nul.utx",
	"bad\x1b[2Jname.u",
	"tab\tname.u",
	"bell\x07.u",
	"..",
	"trailing.u.",
}

func TestExtractHostileNames(t *testing.T) {
	root := t.TempDir()
	iniPath := writeFile(t, root, "Game/System/Test.ini", []byte(ue1Ini))
	var ini strings.Builder
	ini.WriteString("[Cache]\n")
	for i, name := range hostileNames {
		guid := g(uint32(i%15 + 1))
		guid[0] = uint32(i)
		ini.WriteString(guid.String() + "=" + name + "\n")
		writeFile(t, root, "Game/Cache/"+guid.String()+".uxx", pkg(t, false, guid, 1))
	}
	writeFile(t, root, "Game/Cache/cache.ini", []byte(ini.String()))
	before := tree(t, root)
	c := open(t, filepath.Join(root, "Game/Cache"), Options{}, iniPath)
	opts := []ExtractOptions{extractOptions(t, iniPath), {To: filepath.Join(root, "Game/Out"), Force: true}}
	for _, opt := range opts {
		p := c.PlanExtract(opt)
		if p.Refusals() != len(hostileNames) || p.Changes() {
			t.Errorf("hostile names were not all refused:\n%s", strings.Join(lines(p, root), "\n"))
		}
		for _, l := range lines(p, root) {
			if strings.ContainsAny(l, "\x1b\n") {
				t.Errorf("control character reaches the output: %q", l)
			}
		}
		if err := p.Run(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
	}
	if after := tree(t, root); !reflect.DeepEqual(after, before) {
		t.Errorf("files changed:\n%s", diffLines(after, before))
	}
}

// failNthRename makes the n-th rename (1-based) from now fail, as a crash
// between writing a file and publishing it would.
func failNthRename(t *testing.T, n int) {
	t.Helper()
	old := fsutil.Rename
	count := 0
	fsutil.Rename = func(a, b string) error {
		count++
		if count == n {
			return errors.New("simulated crash")
		}
		return old(a, b)
	}
	t.Cleanup(func() { fsutil.Rename = old })
}

func TestExtractCrash(t *testing.T) {
	// Each case fails one step of moving Alpha.u: the copy's rename, the
	// removal of the cache file, the cache.ini rewrite's rename.
	tests := []struct {
		name       string
		fail       func(t *testing.T)
		installed  bool  // System/Alpha.u exists after the failure
		state      State // the entry's state after the failure
		secondPlan []string
	}{
		{"copy rename fails", func(t *testing.T) { failNthRename(t, 1) }, false, StateOK, []string{
			"copy     Cache/11111111111111111111111111111111.uxx -> System/Alpha.u",
			"remove   Cache/11111111111111111111111111111111.uxx (moved to the install)",
			"ini      Cache/cache.ini: 11111111111111111111111111111111= (was Alpha.u: moved into the install)",
		}},
		{"cache file removal fails", func(t *testing.T) {
			old := fsutil.Remove
			fsutil.Remove = func(string) error { return errors.New("simulated crash") }
			t.Cleanup(func() { fsutil.Remove = old })
		}, true, StateInstalledSame, []string{
			"exists   System/Alpha.u (same bytes as Cache/11111111111111111111111111111111.uxx)",
			"remove   Cache/11111111111111111111111111111111.uxx (moved to the install)",
			"ini      Cache/cache.ini: 11111111111111111111111111111111= (was Alpha.u: moved into the install)",
		}},
		{"cache.ini rename fails", func(t *testing.T) { failNthRename(t, 2) }, true, StateMissingFile, []string{
			"ini      Cache/cache.ini: 11111111111111111111111111111111= (was Alpha.u: moved into the install)",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newUE1Fixture(t)
			// The fixture's own stray temporary file would be the first
			// removal of the plan (TestWritePlansRemoveOwnTemps).
			os.Remove(filepath.Join(f.cache, ".upkdeps-123.tmp"))
			c := open(t, f.cache, Options{}, f.ini)
			opt := extractOptions(t, f.ini)
			opt.Keys, _ = c.Select([]string{"Alpha.u"})
			p := c.PlanExtract(opt)
			iniBefore := readFile(t, c.IniPath())
			tt.fail(t)
			err := p.Run(context.Background(), nil)
			if err == nil || !strings.Contains(err.Error(), "simulated crash") {
				t.Fatalf("Run: have %v, want the simulated crash", err)
			}
			// Nothing lost: the package is in the cache or installed.
			_, errInst := os.Stat(filepath.Join(f.system, "Alpha.u"))
			if (errInst == nil) != tt.installed {
				t.Errorf("System/Alpha.u exists: %v, want %v", errInst == nil, tt.installed)
			}
			_, errCache := os.Stat(filepath.Join(f.cache, g(1).String()+".uxx"))
			if errInst != nil && errCache != nil {
				t.Fatal("the package is lost")
			}
			if have := readFile(t, c.IniPath()); have != iniBefore {
				t.Errorf("cache.ini changed by a failed run:\n%q", have)
			}
			for _, name := range tree(t, f.root) {
				if fsutil.IsTemp(filepath.Base(name)) {
					t.Errorf("temporary file left: %s", name)
				}
			}
			// A consistent state, and a second run completes the job.
			c2 := open(t, f.cache, Options{}, f.ini)
			if e := c2.EntryByKey(g(1).String()); e.State != tt.state {
				t.Errorf("state after the failure: have %s, want %s", e.State, tt.state)
			}
			fsutil.Rename, fsutil.Remove = os.Rename, os.Remove
			p2 := c2.PlanExtract(opt)
			if have := lines(p2, f.root); !reflect.DeepEqual(have, tt.secondPlan) {
				t.Fatalf("second plan:\n%s", diffLines(have, tt.secondPlan))
			}
			if err := p2.Run(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
			c3 := open(t, f.cache, Options{}, f.ini)
			if e := c3.EntryByKey(g(1).String()); e.State != StateEmptyEntry {
				t.Errorf("after the second run: state %s, want empty_entry", e.State)
			}
			if readFile(t, filepath.Join(f.system, "Alpha.u")) != string(f.pkgs["Alpha.u"]) {
				t.Error("after the second run: System/Alpha.u is wrong")
			}
		})
	}
}

func TestExtractReadOnly(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: folder permissions are not enforced (TestExtractCrash covers the same failures by injection)")
	}
	if runtime.GOOS == "windows" {
		t.Skip("Windows ignores a folder's read-only attribute, all chmod 0555 sets (TestExtractCrash covers the same failures by injection)")
	}
	f := newUE1Fixture(t)
	// A read-only target folder: the copy fails, nothing changes.
	if err := os.Chmod(f.system, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(f.system, 0o755) })
	c := open(t, f.cache, Options{}, f.ini)
	opt := extractOptions(t, f.ini)
	opt.Keys, _ = c.Select([]string{"Alpha.u"})
	before := tree(t, f.root)
	if err := c.PlanExtract(opt).Run(context.Background(), nil); !errors.Is(err, fs.ErrPermission) {
		t.Errorf("read-only target: have %v, want a permission error", err)
	}
	if after := tree(t, f.root); !reflect.DeepEqual(after, before) {
		t.Errorf("files changed:\n%s", diffLines(after, before))
	}
	os.Chmod(f.system, 0o755)

	// A read-only cache folder: the copy is made, the cache file stays and
	// cache.ini is untouched; the entry reads as installed_same.
	if err := os.Chmod(f.cache, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(f.cache, 0o755) })
	if err := c.PlanExtract(opt).Run(context.Background(), nil); !errors.Is(err, fs.ErrPermission) {
		t.Errorf("read-only cache: have %v, want a permission error", err)
	}
	if e := open(t, f.cache, Options{}, f.ini).EntryByKey(g(1).String()); e.State != StateInstalledSame {
		t.Errorf("after a failed removal: state %s, want installed_same", e.State)
	}
}

// FuzzExtractName checks that no original name in cache.ini makes extract
// plan a file outside the target folder, or reach the output raw. The
// cache is built in memory from the parsed cache.ini, as Open builds it.
func FuzzExtractName(f *testing.F) {
	for _, n := range hostileNames {
		f.Add(n)
	}
	f.Add("Plain.u")
	root := f.TempDir()
	dir := filepath.Join(root, "Cache")
	guid := g(1).String()
	writeFile(f, root, "Cache/"+guid+".uxx", pkg(f, false, g(1), 1))
	to := filepath.Join(root, "Out")
	f.Fuzz(func(t *testing.T, name string) {
		doc, err := parseIniDoc(filepath.Join(dir, IniName), []byte("[Cache]\n"+guid+"="+name+"\n"))
		if err != nil {
			return // a cache.ini with a NUL byte is refused whole
		}
		c := &Cache{Dir: dir, Ext: ".uxx", Generation: 1, doc: doc, iniPath: doc.path}
		c.build([]string{guid + ".uxx"})
		for _, a := range c.PlanExtract(ExtractOptions{To: to}).Actions {
			if a.Dst != "" && a.Op != OpIni && a.Dst != to && filepath.Dir(a.Dst) != to {
				t.Fatalf("name %q: %s", name, a.Format(nil))
			}
			if (a.Op == OpCopy || a.Op == OpReplace) && fsutil.IsControlFile(filepath.Base(a.Dst)) {
				t.Fatalf("name %q: writes a control file: %s", name, a.Format(nil))
			}
			if strings.ContainsAny(a.Format(nil), "\x00\x1b\r\n") {
				t.Fatalf("name %q reaches the output raw: %q", name, a.Format(nil))
			}
		}
	})
}
