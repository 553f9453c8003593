package graph

import (
	"slices"
	"strings"

	"github.com/upkdeps/upkdeps/native"
)

// BuiltinNatives returns the native classes a check uses when it is given
// none: the built-in tables of the UE1 (UT99 v469) and UE2 (UT2004) games'
// binaries merged, so that either generation's engine classes are known.
// An install's own binaries are better (see native.Set); cmd/upkdeps reads
// them.
func BuiltinNatives() *native.Set {
	merged := &native.Table{Name: "builtin", Packages: map[string][]string{}}
	var tables []*native.Table
	for _, gen := range []int{1, 2} {
		tables = append(tables, native.TablesFor("", gen, 0)...)
	}
	for _, t := range tables {
		for pkg, classes := range t.Packages {
			key := pkg
			for k := range merged.Packages {
				if strings.EqualFold(k, pkg) {
					key = k
				}
			}
			merged.Packages[key] = append(merged.Packages[key], classes...)
		}
	}
	for pkg, classes := range merged.Packages {
		slices.SortFunc(classes, func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) })
		merged.Packages[pkg] = slices.CompactFunc(classes, strings.EqualFold)
	}
	s := native.NewSet()
	s.AddTable(merged)
	return s
}

// nativeOnly reports whether o, imported from to, is a native-only class or
// a member below one: its first segment is a class that to's native code
// registers and that to's package file does not export. Such an import
// needs to's binary loaded, and both the engine and ucc make load the
// binaries of every package they use before any script is compiled, so it
// stays a load dependency (an edge of the graph) but never constrains the
// build order nor closes a build cycle. The rule is native.Only, which
// uscript's index applies to the sources too.
func nativeOnly(nat Natives, to *Package, o ImportedObject) bool {
	var defines func(class string) bool
	if to.scan != nil {
		defines = func(class string) bool { return to.scan.exports.has(class, "Class") }
	}
	return native.Only(nat, to.Name, o.Path, defines)
}

// orderEdge reports whether e makes its importer depend on its target for
// the build: it imports at least one object that is not native-only, or no
// object at all (the package by name).
func orderEdge(nat Natives, e *Edge) bool {
	if e == nil {
		return false
	}
	if e.ObjectCount() == 0 {
		return true
	}
	_, ok := orderObject(nat, e)
	return ok
}

// orderObject returns the first object of e that is not native-only, for
// evidence; ok is false when there is none.
func orderObject(nat Natives, e *Edge) (ImportedObject, bool) {
	for i := range e.ObjectCount() {
		if o := e.Object(i); !nativeOnly(nat, e.To, o) {
			return o, true
		}
	}
	return ImportedObject{}, false
}
