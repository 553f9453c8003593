package check

import (
	"strings"

	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/install"
	"github.com/upkdeps/upkdeps/native"
)

// NativesSchemaVersion is the version of Natives' JSON form.
const NativesSchemaVersion = 1

// Natives is what `upkdeps natives` reports: per package with native
// code, its classes, where the list came from (a binary of the install or
// the game's built-in table), and which of them the package's file also
// exports (the others are native-only). Its JSON form is documented in
// docs/json.md.
type Natives struct {
	SchemaVersion int             `json:"schema_version"`
	Ini           string          `json:"ini"`
	Game          string          `json:"game"`
	Platform      string          `json:"platform"`
	BinariesRead  int             `json:"binaries_read"`
	Packages      []NativePackage `json:"packages"`
	Ignored       []string        `json:"ignored_binaries"`
	IgnoredFor    []string        `json:"-"` // the binary used instead of each of Ignored
}

// NativePackage is one package of Natives.
type NativePackage struct {
	Package    string       `json:"package"`
	File       string       `json:"file,omitempty"` // the package file, when one resolves
	Source     NativeSource `json:"source"`
	Classes    []string     `json:"classes"`
	NativeOnly []string     `json:"native_only"`
	Scripted   []string     `json:"scripted"`
}

// NativeSource says where a package's native class list came from.
type NativeSource struct {
	Kind  string `json:"kind"`            // "binary" or "table"
	Path  string `json:"path,omitempty"`  // the binary, relative to the game root
	Table string `json:"table,omitempty"` // the built-in table's name
}

// NativesOf reports the native classes of nat (the install's, from
// install.Install.Natives) against the packages of g.
func NativesOf(in *install.Install, g *graph.Graph, nat *native.Set) Natives {
	rep := Natives{SchemaVersion: NativesSchemaVersion, Ini: in.IniPath, Game: in.GameLabel(), Platform: string(in.Platform()), Packages: []NativePackage{}, Ignored: []string{}}
	for _, name := range nat.Packages() {
		classes, src, _ := nat.Classes(name)
		np := NativePackage{Package: name, Classes: classes, NativeOnly: []string{}, Scripted: []string{},
			Source: NativeSource{Kind: src.Kind, Table: src.Table}}
		if src.Path != "" {
			np.Source.Path = in.Search.Rel(src.Path)
		}
		var defines func(class string) bool // the package file's classes; nil: no file
		if p := g.Package(name); p != nil && !p.Missing() {
			np.File = p.Rel
			exported := map[string]bool{}
			for _, c := range p.Classes() {
				exported[strings.ToLower(c)] = true
			}
			defines = func(class string) bool { return exported[strings.ToLower(class)] }
		}
		for _, c := range classes {
			if native.Only(nat, name, c, defines) {
				np.NativeOnly = append(np.NativeOnly, c)
			} else {
				np.Scripted = append(np.Scripted, c)
			}
		}
		if src.Kind == native.SourceBinary {
			rep.BinariesRead++
		}
		rep.Packages = append(rep.Packages, np)
	}
	for _, s := range nat.Ignored() {
		rep.Ignored = append(rep.Ignored, in.Search.Rel(s.Path))
		rep.IgnoredFor = append(rep.IgnoredFor, in.Search.Rel(s.UsedInstead))
	}
	return rep
}
