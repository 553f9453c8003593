package redirect

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/search"
	"github.com/upkdeps/upkdeps/uz"
)

func published(m *Map) []string {
	var out []string
	for _, e := range m.Published() {
		out = append(out, e.Compressed)
	}
	return out
}

func TestMapModServer(t *testing.T) {
	for _, tc := range []struct {
		gen  int
		opt  MapOptions
		want []string
		maps []string
	}{
		{1, MapOptions{}, []string{"CTF-Gen.unr.uz", "DM-Gen.unr.uz", "ModGame.u.uz", "ModSnd.uax.uz", "ModTex.utx.uz"}, []string{"CTF-Gen", "DM-Gen"}},
		{2, MapOptions{}, []string{"CTF-Gen.ut2.uz2", "DM-Gen.ut2.uz2", "ModGame.u.uz2", "ModSnd.uax.uz2", "ModTex.utx.uz2"}, []string{"CTF-Gen", "DM-Gen"}},
		{1, MapOptions{Maps: "dm-*"}, []string{"DM-Gen.unr.uz", "ModGame.u.uz", "ModSnd.uax.uz", "ModTex.utx.uz"}, []string{"DM-Gen"}},
		{1, MapOptions{Maps: "DM-Gen.unr", ServerPackages: []string{}}, []string{"DM-Gen.unr.uz", "ModTex.utx.uz"}, []string{"DM-Gen"}},
		{1, MapOptions{IncludeStock: true}, []string{"Core.u.uz", "CTF-Gen.unr.uz", "DM-Gen.unr.uz", "Engine.u.uz", "ModGame.u.uz", "ModSnd.uax.uz", "ModTex.utx.uz"}, []string{"CTF-Gen", "DM-Gen"}},
	} {
		s := modServer(t, tc.gen)
		m := s.mapOf(t, tc.opt)
		if have := published(m); !slices.Equal(have, tc.want) {
			t.Errorf("gen %d %+v: published\nhave %v\nwant %v", tc.gen, tc.opt, have, tc.want)
		}
		if !slices.Equal(m.Maps, tc.maps) {
			t.Errorf("gen %d %+v: maps have %v, want %v", tc.gen, tc.opt, m.Maps, tc.maps)
		}
		for _, f := range m.Findings {
			if f.Kind != Stock || f.Severity != Warning {
				t.Errorf("gen %d %+v: unexpected finding %+v", tc.gen, tc.opt, f)
			}
		}
		stock := 0
		for _, f := range m.Findings {
			if f.Kind == Stock {
				stock++
			}
		}
		if want := map[bool]int{false: 2, true: 0}[tc.opt.IncludeStock]; stock != want {
			t.Errorf("gen %d %+v: %d stock warnings, want %d", tc.gen, tc.opt, stock, want)
		}
	}
}

func TestMapProblems(t *testing.T) {
	s := writeServer(t, 1, []spec{
		{file: "System/Core.u", exports: []string{"Object:Class"}},
		{file: "System/Client.u", exports: []string{"A:Class"},
			imports: []string{"Admin.Tool:Core.Class", "Retail.Thing:Core.Class", "Gone.Thing:Core.Class", "Bad.Thing:Core.Class", "Core.Object:Core.Class"}},
		{file: "System/Admin.u", flags: format.FlagServerSideOnly, exports: []string{"Tool:Class"}, imports: []string{"Hidden.X:Core.Class"}},
		{file: "System/Hidden.u", exports: []string{"X:Class"}},
		{file: "System/Retail.u", noDL: true, exports: []string{"Thing:Class"}},
		{file: "System/Bad.u", exports: []string{"Thing:Class"}},
		{file: "System/Loner.u", noDL: true, exports: []string{"Z:Class"}},
	}, "Client", "NotThere", "Loner")
	// Cut Bad.u short: unreadable.
	img := packageImage(t, spec{exports: []string{"Thing:Class"}, guid: 6})
	writeRaw(t, s.root+"/System/Bad.u", img[:len(img)-10])

	m := s.mapOf(t, MapOptions{})
	want := []string{
		"missing_package:Gone:",
		"missing_package:NotThere:",
		"not_downloadable:Loner:System/Loner.u",
		"not_downloadable:Retail:System/Retail.u",
		"server_side_only:Admin:System/Admin.u",
		"stock:Core:System/Core.u",
		"unreadable:Bad:System/Bad.u",
	}
	if have := kinds(m.Findings); !slices.Equal(have, want) {
		t.Errorf("findings\nhave %q\nwant %q", have, want)
	}
	if have := published(m); !slices.Equal(have, []string{"Client.u.uz"}) {
		t.Errorf("published: have %v, want only Client.u.uz (Hidden is needed only through a ServerSideOnly package)", have)
	}
	for _, f := range m.Findings {
		if f.Kind == MissingPackage && f.Package == "Gone" && !strings.Contains(f.Message, "imported by Client") {
			t.Errorf("missing Gone: message %q does not name the importer", f.Message)
		}
	}
}

func TestMapPatternErrors(t *testing.T) {
	s := modServer(t, 1)
	f, _ := ini.Load(s.ini)
	srch, _ := search.New(f, search.Options{})
	g, err := graph.Build(context.Background(), graph.FromSearcher(srch), graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewMap(g, MapOptions{Maps: "[DM"}); !errors.Is(err, path.ErrBadPattern) {
		t.Errorf("bad pattern: have %v, want ErrBadPattern", err)
	}
	if _, err := NewMap(g, MapOptions{Maps: "CTF-Nope*"}); err == nil || !strings.Contains(err.Error(), "matches none") {
		t.Errorf("pattern matching nothing: have %v", err)
	}
}

func TestKindAndNames(t *testing.T) {
	for _, tc := range []struct {
		version uint16
		want    uz.Kind
	}{{61, uz.KindUZ}, {69, uz.KindUZ}, {99, uz.KindUZ}, {100, uz.KindUZ2}, {128, uz.KindUZ2}} {
		if have := uz.KindFor(tc.version); have != tc.want {
			t.Errorf("uz.KindFor(%d) = %v, want %v", tc.version, have, tc.want)
		}
	}
	for _, tc := range []struct {
		in, base string
		kind     uz.Kind
	}{
		{"Foo.u.uz", "Foo.u", uz.KindUZ},
		{"Foo.u.UZ2", "Foo.u", uz.KindUZ2},
		{"0000.tmp", "0000.tmp", uz.KindUnknown},
		{"x.uz3", "x.uz3", uz.KindUnknown},
	} {
		if base, kind := uz.TrimExt(tc.in); base != tc.base || kind != tc.kind {
			t.Errorf("uz.TrimExt(%q) = %q, %v; want %q, %v", tc.in, base, kind, tc.base, tc.kind)
		}
	}
}

// TestMapStockPerGame: with the game's stock list, a retail map, texture
// and sound package of UT99 (DM-Deck16][, Soldierskins, Announcer) is left out like the retail code packages, while the server's own
// map and texture are published. Without the list (an unnamed game) only
// the code packages are stock, as before.
func TestMapStockPerGame(t *testing.T) {
	s := writeServer(t, 1, []spec{
		{file: "System/Core.u", exports: []string{"Object:Class"}},
		{file: "System/Engine.u", exports: []string{"Level:Class", "Texture:Class", "Sound:Class", "Music:Class"},
			imports: []string{"Core.Object:Core.Class"}},
		{file: "Textures/Soldierskins.utx", exports: []string{"Skin:Engine.Texture"}, imports: []string{"Engine.Texture:Core.Class"}},
		{file: "Sounds/Announcer.uax", exports: []string{"Go:Engine.Sound"}, imports: []string{"Engine.Sound:Core.Class"}},
		{file: "Textures/MyTex.utx", exports: []string{"Wall:Engine.Texture"}, imports: []string{"Engine.Texture:Core.Class"}},
		{file: "Maps/DM-Deck16][.unr", exports: []string{"MyLevel:Engine.Level"},
			imports: []string{"Engine.Level:Core.Class", "Soldierskins.Skin:Engine.Texture", "Announcer.Go:Engine.Sound"}},
		{file: "Maps/DM-Mine.unr", exports: []string{"MyLevel:Engine.Level"},
			imports: []string{"Engine.Level:Core.Class", "MyTex.Wall:Engine.Texture", "Soldierskins.Skin:Engine.Texture"}},
	})
	m := s.mapOf(t, MapOptions{Stock: ini.StockOf(ini.UT99)})
	if have, want := published(m), []string{"DM-Mine.unr.uz", "MyTex.utx.uz"}; !slices.Equal(have, want) {
		t.Errorf("UT99 list: published %v, want %v", have, want)
	}
	m = s.mapOf(t, MapOptions{})
	if have, want := published(m), []string{"Announcer.uax.uz", "DM-Deck16][.unr.uz", "DM-Mine.unr.uz", "MyTex.utx.uz", "Soldierskins.utx.uz"}; !slices.Equal(have, want) {
		t.Errorf("no list: published %v, want %v", have, want)
	}
	// downloads counts what redirect build publishes: the same list.
	g, sp := s.graphOf(t)
	d, err := NewDownloads(context.Background(), g, DownloadOptions{ServerPackages: sp, Generation: 1, Stock: ini.StockOf(ini.UT99)})
	if err != nil {
		t.Fatal(err)
	}
	var down []string
	for _, p := range d.Packages {
		down = append(down, p.File)
	}
	slices.Sort(down)
	if want := []string{"Maps/DM-Mine.unr", "Textures/MyTex.utx"}; !slices.Equal(down, want) {
		t.Errorf("downloads with the UT99 list: %v, want %v", down, want)
	}
}

// TestMapProfileMaps: every game profile's maps are maps to the package
// map, so a map of .rsm, .sfr, .urt or .ctm and what it needs are
// published (they were "other" before the profiles were the one home of
// package kinds, and such an install had no map at all).
func TestMapProfileMaps(t *testing.T) {
	for _, p := range ini.Profiles {
		if p.Map == "" {
			continue
		}
		s := writeServer(t, p.Game.Generation, []spec{
			{file: "System/Core.u", exports: []string{"Object:Class"}},
			{file: "System/Engine.u", exports: []string{"Level:Class", "Texture:Class"}, imports: []string{"Core.Object:Core.Class"}},
			{file: "Textures/MapTex.utx", exports: []string{"Wall:Engine.Texture"}, imports: []string{"Engine.Texture:Core.Class"}},
			{file: "Maps/DM-Test" + p.Map, exports: []string{"MyLevel:Engine.Level"},
				imports: []string{"Engine.Level:Core.Class", "MapTex.Wall:Engine.Texture"}},
		})
		writeRaw(t, s.ini, []byte(fmt.Sprintf(ue1Ini, p.Map[1:], "")))
		m := s.mapOf(t, MapOptions{Maps: "DM-*"})
		if !slices.Equal(m.Maps, []string{"DM-Test"}) || !slices.ContainsFunc(published(m), func(f string) bool { return strings.HasPrefix(f, "MapTex.utx") }) {
			t.Errorf("%s: maps %v, published %v; want DM-Test%s and MapTex.utx", p.Game, m.Maps, published(m), p.Map)
		}
	}
}
