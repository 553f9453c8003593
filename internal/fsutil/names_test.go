package fsutil

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

func TestTempNames(t *testing.T) {
	dir := t.TempDir()
	dst := filepath.Join(dir, "Core.u")
	// A temporary file as WriteAtomic names it, left by a kill.
	f, err := os.CreateTemp(dir, tempPrefix+tempTag(dst)+"-*"+tempSuffix)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	mine := filepath.Base(f.Name())
	if !IsTemp(mine) || !IsTempFor(mine, dst) || !IsTempFor(mine, "Core.u") {
		t.Errorf("%s: not recognised as a temporary file of Core.u", mine)
	}
	for _, other := range []string{"Core.u-1", "Core", "Engine.u"} {
		if IsTempFor(mine, other) {
			t.Errorf("%s taken for a temporary file of %s", mine, other)
		}
	}
	if IsTempFor(".upkdeps-Core.u-1-2.tmp", "Core.u") {
		t.Error("the temporary file of Core.u-1 taken for one of Core.u")
	}
	write(t, filepath.Join(dir, ".upkdeps-Engine.u-42.tmp"), "")
	write(t, filepath.Join(dir, "Core.u"), "")
	have, err := StaleTemps(dir, []string{"Core.u"})
	if err != nil || !reflect.DeepEqual(have, []string{f.Name()}) {
		t.Errorf("StaleTemps(Core.u): have %v %v, want [%s]", have, err, f.Name())
	}
	have, _ = StaleTemps(dir, nil)
	if len(have) != 2 {
		t.Errorf("StaleTemps(all): have %v, want both temporary files", have)
	}
	if have, err := StaleTemps(filepath.Join(dir, "missing"), nil); err != nil || have != nil {
		t.Errorf("missing folder: have %v %v", have, err)
	}
}

func TestIsControlFile(t *testing.T) {
	for name, want := range map[string]bool{
		"cache.ini": true, "Cache.INI": true, "manifest.json": true, LockName: true,
		".upkdeps-Core.u-1.tmp": true, "Core.u": false, "cache.ini.u": false, "Cache.u": false,
	} {
		if have := IsControlFile(name); have != want {
			t.Errorf("IsControlFile(%q): have %v, want %v", name, have, want)
		}
	}
}

func TestSafeExtAndIniPath(t *testing.T) {
	for ext, ok := range map[string]bool{
		".uxx": true, ".UXX": true, ".u_2": true, ".uxx-1": true,
		"": false, "uxx": false, ".": false, ".uxx/../../../outside/pwn": false, `.uxx\..\x`: false,
		".u.x": false, ".ux x": false, ".uxx\x00": false, ".abcdefghijklmnopq": false,
	} {
		if have := SafeExt(ext) == nil; have != ok {
			t.Errorf("SafeExt(%q): have ok=%v, want %v", ext, have, ok)
		}
	}
	for p, ok := range map[string]bool{
		"../Cache": true, `..\Maps\*.unr`: true, "C:/Games/UT/Cache": true,
		"": false, "  ": false, "../Ca\x00che": false, "../Cache\n": false, "bad\xff": false,
	} {
		if have := SafeIniPath(p) == nil; have != ok {
			t.Errorf("SafeIniPath(%q): have ok=%v, want %v", p, have, ok)
		}
	}
}

// TestComparePaths: the order of native paths is the order of their "/"
// forms on every operating system.
func TestComparePaths(t *testing.T) {
	paths := []string{
		filepath.Join("Cache", "0000.tmp"), "Cache000A.tmp", filepath.Join("Maps", "DM-A.unr"), "MapsA",
		filepath.Join("Cache", "cache.ini"), "Cache",
	}
	slices.SortFunc(paths, ComparePaths)
	var have []string
	for _, p := range paths {
		have = append(have, filepath.ToSlash(p))
	}
	want := []string{"Cache", "Cache/0000.tmp", "Cache/cache.ini", "Cache000A.tmp", "Maps/DM-A.unr", "MapsA"}
	if !slices.Equal(have, want) {
		t.Errorf("have %q, want %q", have, want)
	}
}
