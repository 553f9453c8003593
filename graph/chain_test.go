package graph

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/upkdeps/upkdeps/ini"
)

// TestChain: why's chains as the library returns them, from a package and
// from the roots: a ServerActors line's hop names the class it loads, a map
// needs no chain, and a package nothing needs has no hop.
func TestChain(t *testing.T) {
	f, err := ini.Parse("Server.ini", []byte("[Engine.GameEngine]\nServerActors=Mod.Spawner\n"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeSpecs(t, dir, append(slices.Clone(baseSpecs),
		pkgSpec{file: "Mod.u", exports: []string{"Spawner:Class"}, imports: []string{"Engine.Actor:Core.Class", "Tex.Rock:Engine.Texture"}},
		pkgSpec{file: "Tex.utx", exports: []string{"Rock:Engine.Texture"}},
		pkgSpec{file: "DM-Test.unr", exports: []string{"MyLevel:Engine.Level"}, imports: []string{"Engine.Level:Core.Class"}},
		pkgSpec{file: "Lone.u", exports: []string{"L:Class"}},
	))
	g, err := Build(context.Background(), dirResolver{dir}, Options{Jobs: 2, Roots: RootsOf(f, 1)})
	if err != nil {
		t.Fatal(err)
	}
	hops := func(c Chain) []string {
		var out []string
		for _, h := range c.Hops {
			s := h.From + " -> " + h.To
			for _, o := range h.Objects {
				s += " " + o.ClassPackage + "." + o.Class + ":" + o.Path
			}
			out = append(out, s)
		}
		return out
	}
	for _, tc := range []struct {
		name string
		c    Chain
		want []string
		from string
		m    bool
	}{
		{"Mod to Tex", g.ChainOf(g.Package("Mod"), g.Package("Tex")), []string{"Mod -> Tex Engine.Texture:Rock"}, "Mod", false},
		{"Tex to Mod", g.ChainOf(g.Package("Tex"), g.Package("Mod")), nil, "Tex", false},
		{"roots to Tex", g.RootChain(g.Package("Tex")),
			[]string{"Server.ini:2 ServerActors=Mod.Spawner -> Mod Core.Class:Spawner", "Mod -> Tex Engine.Texture:Rock"}, "Mod", false},
		{"roots to a map", g.RootChain(g.Package("DM-Test")), nil, "DM-Test", true},
		{"roots to Lone", g.RootChain(g.Package("Lone")), nil, "Lone", false},
	} {
		if have := hops(tc.c); !slices.Equal(have, tc.want) || tc.c.From != tc.from || tc.c.Map != tc.m {
			t.Errorf("%s: have %q from %s (map %v), want %q from %s (map %v)", tc.name, have, tc.c.From, tc.c.Map, tc.want, tc.from, tc.m)
		}
		js, err := json.Marshal(tc.c)
		if err != nil || tc.c.Hops == nil || tc.c.SchemaVersion != ChainSchemaVersion {
			t.Errorf("%s: JSON %s, %v", tc.name, js, err)
		}
	}
}
