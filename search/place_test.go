package search

import (
	"path/filepath"
	"slices"
	"testing"
)

func TestPlacementDir(t *testing.T) {
	sys := filepath.FromSlash("/ut/System")
	paths := []string{`..\System\*.u`, "../Maps/*.unr", "../Textures/*.UTX", "../Music/*.umx", "../Extra/*.u", "*.int"}
	tests := []struct {
		name, want string
		index      int
	}{
		{"Foo.u", "/ut/System", 0},
		{"DM-Foo.unr", "/ut/Maps", 1},
		{"Tex.utx", "/ut/Textures", 2}, // the engine compares extensions ignoring case
		{"FOO.U", "/ut/System", 0},
		{"Foo.bar.umx", "/ut/Music", 3}, // the last dot
		{"Strings.int", "/ut/System", 5},
		{"Noext", "", -1},
		{"Foo.uxx", "", -1},
	}
	for _, tt := range tests {
		have, i := PlacementDir(tt.name, paths, sys)
		if i != tt.index || (i >= 0 && have != filepath.FromSlash(tt.want)) || (i < 0 && have != "") {
			t.Errorf("PlacementDir(%q): have %q %d, want %q %d", tt.name, have, i, tt.want, tt.index)
		}
		if j := PlacementIndex(tt.name, paths); j != tt.index {
			t.Errorf("PlacementIndex(%q) = %d, want %d", tt.name, j, tt.index)
		}
	}
}

// TestPlacementPaths: under Windows rules an entry whose folder the disk
// spells in another case places files into the folder on disk; under Linux
// rules the Paths are as written.
func TestPlacementPaths(t *testing.T) {
	for _, tt := range []struct {
		binary string
		want   func(in *install) []string
	}{
		{"Core.dll", func(in *install) []string { return []string{filepath.Join(in.path("dev"), "*.u"), `..\Textures\*.dtx`} }},
		{"Core.so", func(in *install) []string { return []string{`..\Dev\*.u`, `..\Textures\*.dtx`} }},
	} {
		in := caseInstall(t, tt.binary)
		s := in.searcher(in.load("System/Game.ini"), Options{})
		have, want := s.PlacementPaths(), tt.want(in)
		if !slices.Equal(have, want) {
			t.Errorf("%s: have %q, want %q", tt.binary, have, want)
		}
		dir, i := PlacementDir("Core.u", have, in.path("System"))
		if wantDir := filepath.Join(in.path("System"), "..", "Dev"); tt.binary == "Core.dll" {
			wantDir = in.path("dev")
			if dir != wantDir || i != 0 {
				t.Errorf("%s: Core.u placed in %q (%d), want %q", tt.binary, dir, i, wantDir)
			}
		} else if dir != filepath.Clean(wantDir) || i != 0 {
			t.Errorf("%s: Core.u placed in %q (%d), want %q", tt.binary, dir, i, wantDir)
		}
	}
}
