package install

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/upkdeps/upkdeps/cache"
)

// TestOpenCache: the demo's cache opens classified against the install
// (DemoSkins.u is installed with another GUID), its paths relative to the
// game root and its header naming the game and rules; an ini without
// CachePath is ErrNoCacheDir, naming the ini.
func TestOpenCache(t *testing.T) {
	in := openDemo(t)
	v, err := in.OpenCache(context.Background(), cache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if v.Search != in.Search || v.Root != in.Search.Root() {
		t.Errorf("view of %s, root %s: want the install's Searcher and root %s", v.Dir, v.Root, in.Search.Root())
	}
	if have, want := v.Header(), "Cache: Cache (ue1, UE1; Windows rules; files GUID.uxx; Cache/cache.ini)\n"; have != want {
		t.Errorf("header %q, want %q", have, want)
	}
	states := map[string]cache.State{}
	for _, e := range v.Entries() {
		states[e.Name] = e.State
	}
	if states["DemoSkins.u"] != cache.StateInstalledOther || states["CityTex.utx"] != cache.StateOK {
		t.Errorf("states %v: want DemoSkins.u installed_other, CityTex.utx ok", states)
	}

	data, err := os.ReadFile(in.IniPath)
	if err != nil {
		t.Fatal(err)
	}
	noCache := filepath.Join(filepath.Dir(in.IniPath), "NoCache.ini")
	if err := os.WriteFile(noCache, regexp.MustCompile(`(?m)^CachePath=.*\r?\n`).ReplaceAll(data, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	in2, err := Open(Options{Ini: noCache})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := in2.OpenCache(context.Background(), cache.Options{}); !errors.Is(err, ErrNoCacheDir) || err.Error() != noCache+": "+ErrNoCacheDir.Error() {
		t.Errorf("no CachePath: have %v, want %s: %v", err, noCache, ErrNoCacheDir)
	}
}
