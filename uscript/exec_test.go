package uscript

import (
	"slices"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/ini"
)

// TestExecProfilePackages: an #exec import command whose FILE= is a package
// file of any game profile (its maps too: .s4m, .rsm, .urt, ...) references
// that package, whatever the case; a raw data file does not.
func TestExecProfilePackages(t *testing.T) {
	for _, p := range ini.Profiles {
		for _, e := range p.Exts {
			file := `Meshes\Other` + strings.ToUpper(e)
			src := "class Foo extends Object;\n#exec NEW STATICMESH FILE=" + file + " NAME=X\n#exec AUDIO IMPORT FILE=Boom.wav NAME=Boom\n"
			c, err := Scan("Foo.uc", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			want := []string{"1 extends Object", "2 exec " + file}
			if have := refLines(c.Refs); !slices.Equal(have, want) {
				t.Errorf("%s %s: have %q, want %q", p.Game, e, have, want)
			}
		}
	}
}
