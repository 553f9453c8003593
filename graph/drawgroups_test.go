package graph

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/internal/demo"
	"github.com/upkdeps/upkdeps/search"
)

// serverGraph writes the generated mod server of n packages and mods mods
// and builds its graph; it returns the Paths folders too.
func serverGraph(t testing.TB, n, mods int) (*Graph, []string) {
	t.Helper()
	dir := t.TempDir()
	if err := demo.WriteServer(dir, n, mods); err != nil {
		t.Fatal(err)
	}
	f, err := ini.Load(filepath.Join(dir, filepath.FromSlash(demo.ServerIni)))
	if err != nil {
		t.Fatal(err)
	}
	s, err := search.New(f, search.Options{Generation: 1})
	if err != nil {
		t.Fatal(err)
	}
	g, err := Build(context.Background(), FromSearcher(s), Options{Roots: RootsOf(f, 1)})
	if err != nil {
		t.Fatal(err)
	}
	var folders []string
	for _, p := range s.Paths() {
		folders = append(folders, p.Raw)
	}
	return g, folders
}

// TestOverview665: the overview of a generated 665-package server with 30
// mods is legible (at most 60 nodes and 150 edges, with every edge too);
// each mod's packages are in its group; every missing package is in a
// group node's tooltip; every package is in exactly one group.
func TestOverview665(t *testing.T) {
	const n, mods = 665, 30
	g, folders := serverGraph(t, n, mods)
	if got := len(g.Packages()); got < n {
		t.Fatalf("%d packages, want at least %d", got, n)
	}
	for _, all := range []bool{false, true} {
		d := g.Draw(DOTOptions{Folders: folders, Overview: true, AllEdges: all})
		if len(d.Nodes) > 60 || len(d.Edges) > 150 || len(d.Nodes) < mods {
			t.Errorf("overview (all edges %v): %d nodes and %d edges", all, len(d.Nodes), len(d.Edges))
		}
		if all {
			continue
		}
		tips := ""
		for _, nd := range d.Nodes {
			tips += nd.Tooltip + "\n"
		}
		for miss := range demo.ServerMissing(mods) {
			if !strings.Contains(tips, "missing: ") || !strings.Contains(tips, miss) {
				t.Errorf("missing %s in no group's tooltip", miss)
			}
		}
	}
	groups := g.Groups(folders, nil)
	seen := map[*Package]string{}
	for _, gr := range groups {
		for _, p := range slices.Concat(gr.Members, gr.Missing) {
			if other, dup := seen[p]; dup {
				t.Errorf("%s in %s and %s", p.Name, other, gr.Name)
			}
			seen[p] = gr.Name
		}
	}
	if len(seen) != len(g.Packages()) {
		t.Errorf("%d of %d packages in a group", len(seen), len(g.Packages()))
	}
	want, err := demo.ServerGroups(n, mods)
	if err != nil {
		t.Fatal(err)
	}
	for mod, pkgs := range want {
		for _, name := range pkgs {
			if p := g.Package(name); p == nil || seen[p] != mod {
				t.Errorf("%s: in group %q, want %s", name, seen[p], mod)
			}
		}
	}
	for name, importer := range demo.ServerMissing(mods) {
		p, q := g.Package(name), g.Package(importer)
		if p == nil || !p.Missing() || q == nil || seen[p] != seen[q] {
			t.Errorf("missing %s is in group %q, its importer %s in %q", name, seen[p], importer, seen[q])
		}
	}
}

// TestShortFolder: a Paths entry's folder as a group name.
func TestShortFolder(t *testing.T) {
	for in, want := range map[string]string{"../Textures/*.utx": "Textures", `..\Maps\*.unr`: "Maps", "*.u": "System",
		"../../Shared/Sounds/*.uax": "Shared/Sounds", "Music": "Music"} {
		if got := shortFolder(in); got != want {
			t.Errorf("shortFolder(%q) = %q, want %q", in, got, want)
		}
	}
}
