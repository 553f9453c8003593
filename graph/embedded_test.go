package graph

import (
	"slices"
	"strings"
	"testing"
)

// TestEmbeddedCopy: a map holding a group named like a package of the
// install, with objects that package exports (same path and class), gets
// an embedded_copy warning with the count and bytes; a group of another
// name, or objects the package does not export so, do not.
func TestEmbeddedCopy(t *testing.T) {
	g := build(t, append(baseSpecs[:len(baseSpecs):len(baseSpecs)],
		pkgSpec{file: "CityTex.utx", exports: []string{"Walls.Brick:Engine.Texture", "Walls.Stone:Engine.Texture", "Floor.Tile:Engine.Texture"}},
		pkgSpec{file: "DM-Copy.unr", exports: []string{
			"MyLevel:Engine.Level",
			"CityTex.Walls.Brick:Engine.Texture",   // a copy
			"CityTex.Walls.Stone:Engine.Texture",   // a copy
			"CityTex.Floor.Tile:Engine.Sound",      // another class: not a copy
			"CityTex.Walls.OwnOnly:Engine.Texture", // the package lacks it
			"MyGroup.Walls.Brick:Engine.Texture",   // no package MyGroup
		}},
		pkgSpec{file: "DM-Clean.unr", exports: []string{"MyLevel:Engine.Level"}, imports: []string{"CityTex.Walls.Brick:Engine.Texture"}},
	))
	fs := findingsOf(checkAll(t, g, CheckOptions{}), EmbeddedCopy)
	if len(fs) != 1 {
		t.Fatalf("have %+v, want one embedded_copy", fs)
	}
	f := fs[0]
	if f.Package != "DM-Copy" || f.Severity != Warning || !slices.Equal(f.Packages, []string{"DM-Copy", "CityTex"}) ||
		!strings.Contains(f.Message, "embeds 2 object(s), 32 bytes, in a group CityTex that CityTex (CityTex.utx) also exports") {
		t.Errorf("have %+v", f)
	}
}
