package graph

import (
	"slices"
	"strings"
	"testing"
)

// TestUnused: what nothing reaches (a map reaches Used; EditPackages
// Edited; native code Native), with the unused packages that would reach
// each; a cycle of unused packages names its first; stock is only counted.
func TestUnused(t *testing.T) {
	g := build(t, []pkgSpec{
		{file: "Core.u", exports: []string{"Object:Class"}},
		{file: "DM-A.unr", imports: []string{"Used.T:Engine.Texture"}},
		{file: "Used.utx", exports: []string{"T:Texture"}},
		{file: "Edited.u", imports: []string{"Core.Object:Core.Class"}},
		{file: "Native.u"},
		{file: "UWeb.u"}, // stock, reached by nothing
		{file: "Top.u", imports: []string{"Mid.X:Core.Class"}},
		{file: "Mid.u", exports: []string{"X:Class"}, imports: []string{"Leaf.T:Engine.Texture"}},
		{file: "Leaf.utx", exports: []string{"T:Texture"}},
		{file: "CycA.u", exports: []string{"A:Class"}, imports: []string{"CycB.B:Core.Class"}},
		{file: "CycB.u", exports: []string{"B:Class"}, imports: []string{"CycA.A:Core.Class"}},
	})
	res := g.Unused(UnusedOptions{EditPackages: []string{"Edited"}, Natives: fakeNatives{classes: map[string][]string{"native": {"NativeThing"}}}})
	var got []string
	for _, u := range res.Packages {
		got = append(got, u.Package.Name+"<"+strings.Join(names(u.Through), ",")+">")
	}
	want := []string{"CycA<>", "CycB<CycA>", "Leaf<Top>", "Mid<Top>", "Top<>"}
	if !slices.Equal(got, want) || res.Stock != 1 {
		t.Errorf("unused %v (stock %d), want %v (stock 1: UWeb)", got, res.Stock, want)
	}
}
