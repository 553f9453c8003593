package graph

import (
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/ini"
)

// TestProfileMapsAreMaps builds, for every game profile, an install whose
// one map (of the profile's map extension, any case) imports a texture
// package: the map is a map to the graph, so why finds the texture needed
// by it. Before the game profiles were the one home of kinds, .urt, .rsm,
// .sfr and .ctm maps were "other" here and the texture was needed by nothing.
func TestProfileMapsAreMaps(t *testing.T) {
	for _, p := range ini.Profiles {
		if p.Map == "" {
			continue
		}
		for _, ext := range []string{p.Map, strings.ToUpper(p.Map)} {
			if k := KindOf("Maps/DM-Test" + ext); k != KindMap {
				t.Errorf("%s: KindOf(DM-Test%s) = %s, want map", p.Game, ext, k)
			}
		}
		g := build(t, append(baseSpecs[:2:2],
			pkgSpec{file: "Tex.utx", exports: []string{"Rock:Engine.Texture"}, imports: []string{"Engine.Texture:Core.Class"}},
			pkgSpec{file: "DM-Test" + p.Map, exports: []string{"MyLevel:Engine.Level"},
				imports: []string{"Engine.Level:Core.Class", "Tex.Rock:Engine.Texture"}}))
		tex := g.Package("Tex")
		if tex == nil {
			t.Fatalf("%s: no Tex in the graph", p.Game)
		}
		start, _, hops := g.WhyRoot(tex)
		if start == nil || start.Name != "DM-Test" || start.Kind != KindMap || len(hops) != 1 {
			t.Errorf("%s: WhyRoot(Tex) = %v, %v; want the map DM-Test%s, one hop", p.Game, start, hops, p.Map)
		}
	}
}
