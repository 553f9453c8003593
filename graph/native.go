package graph

import (
	"strings"

	"github.com/upkdeps/upkdeps/uscript"
)

// nativeSet indexes the native-only classes (objects that exist only in C++
// and have no export in their package) by lower-cased package and class
// name. The list itself lives in uscript.NativeClasses, shared with the
// source scanner's class index; FORMAT.md, "Import table entry", is its
// source. An export always wins over this list.
var nativeSet = func() map[string]map[string]bool {
	m := map[string]map[string]bool{}
	for pkg, classes := range uscript.NativeClasses {
		s := map[string]bool{}
		for _, c := range classes {
			s[strings.ToLower(c)] = true
		}
		m[strings.ToLower(pkg)] = s
	}
	return m
}()

// isNativeOnly reports whether pkg.name is a known native-only object.
func isNativeOnly(pkg, name string) bool {
	return nativeSet[strings.ToLower(pkg)][strings.ToLower(name)]
}

// hasNativeCode reports whether pkg is a stock package that ships native code.
func hasNativeCode(pkg string) bool {
	_, ok := nativeSet[strings.ToLower(pkg)]
	return ok
}

// builtinNatives is the Natives of the built-in lists, for checks that are
// given none.
type builtinNatives struct{}

func (builtinNatives) Has(pkg, class string) bool { return isNativeOnly(pkg, class) }
func (builtinNatives) HasPackage(pkg string) bool { return hasNativeCode(pkg) }
func (builtinNatives) FromBinary(string) bool     { return false }
