package native

import "strings"

// Registry says which classes a package's native code registers: a *Set,
// or any other table of native classes (graph's Natives, the native
// classes a uscript.Index was given).
type Registry interface {
	// Has reports whether pkg's native code registers class (any case).
	Has(pkg, class string) bool
}

// Only reports whether the object at path (Class, or Class.Member... below
// it) that a package imports from pkg, or names as pkg.Class in its
// sources, is a native-only class or a member below one: pkg's native code
// registers the class (path's first segment) and pkg's script does not
// define it. defines says whether it does (the class exports of pkg's
// file, or the classes of its sources); nil when neither is at hand.
//
// This is the one rule for compiled imports (graph) and for sources
// (uscript): such a use needs pkg's binary loaded, and both the engine and
// ucc make load the binaries of every package they use before any script
// is compiled, so it is a load dependency but never an order constraint
// nor an edge of a build cycle. A class that script also declares (Actor)
// is no native-only class: its script must be compiled first.
func Only(reg Registry, pkg, path string, defines func(class string) bool) bool {
	class, _, _ := strings.Cut(path, ".")
	if reg == nil || class == "" || !reg.Has(pkg, class) {
		return false
	}
	return defines == nil || !defines(class)
}
