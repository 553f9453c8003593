package graph

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/format"
)

// TestHashCollisionNotHidden forces collisions of the export lookup's
// keys: Tex's set gets, beside its exports', an export whose first hash
// or check is that of Tex.Grp.Gone, which Tex does not export. The check
// must still report Gone missing, and A, which Tex exports, not ("none":
// the same without a forced collision). Only an export with both of
// Gone's hashes would hide it: about n*m/2^96 (see exportIndex).
func TestHashCollisionNotHidden(t *testing.T) {
	dir := t.TempDir()
	tex := format.NewBuilder(69, 0)
	tex.ExportPath("Grp.A", "Engine.Texture", 10)
	tex.ExportPath("Grp.B", "Engine.Texture", 10)
	if err := format.WriteFile(filepath.Join(dir, "Tex.utx"), tex.File); err != nil {
		t.Fatal(err)
	}
	m := format.NewBuilder(69, 0)
	m.ImportPath("Tex.Grp.A", "Engine", "Texture")
	m.ImportPath("Tex.Grp.Gone", "Engine", "Texture")
	m.Export(0, "MyLevel", m.ImportPath("Engine.Level", "Core", "Class"), 0, 10)
	if err := format.WriteFile(filepath.Join(dir, "M.unr"), m.File); err != nil {
		t.Fatal(err)
	}
	gone := hashKey("Grp.Gone", "Texture")
	a := hashKey("Grp.A", "Texture")
	if a.check() == gone.check() || a.h() == gone.h() {
		t.Skip("A's and Gone's hashes collide under this process's seed") // 2 in 2^32
	}
	for _, tc := range []struct {
		name  string
		plant func(x *exportIndex)
		want  []string
	}{
		{"none", func(*exportIndex) {}, []string{"Tex: Tex.Grp.Gone (Engine.Texture)"}},
		// An export whose first hash is Gone's, its check its own (A's).
		{"first hash", func(x *exportIndex) {
			x.set.hashes, x.set.checks = append(x.set.hashes, gone.h()), append(x.set.checks, a.check())
		}, []string{"Tex: Tex.Grp.Gone (Engine.Texture)"}},
		// An export whose check is Gone's, its first hash its own.
		{"check", func(x *exportIndex) {
			x.set.hashes, x.set.checks = append(x.set.hashes, a.h()), append(x.set.checks, gone.check())
		}, []string{"Tex: Tex.Grp.Gone (Engine.Texture)"}},
		// One export with Gone's first hash, another with its check.
		{"one each", func(x *exportIndex) {
			x.set.hashes = append(x.set.hashes, gone.h(), a.h())
			x.set.checks = append(x.set.checks, a.check(), gone.check())
		}, []string{"Tex: Tex.Grp.Gone (Engine.Texture)"}},
	} {
		g, err := Build(context.Background(), dirResolver{dir}, Options{Jobs: 1})
		if err != nil {
			t.Fatal(err)
		}
		tc.plant(&g.Package("Tex").scan.exports)
		var have []string
		for _, f := range checkAll(t, g, CheckOptions{Jobs: 1}) {
			if f.Kind == MissingObject {
				have = append(have, f.Package+": "+strings.Join(ObjectStrings(f.Objects), ", "))
			}
		}
		if !slices.Equal(have, tc.want) {
			t.Errorf("%s: missing objects %q, want %q", tc.name, have, tc.want)
		}
	}
}
