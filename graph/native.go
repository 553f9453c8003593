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
	for _, gen := range []int{1, 2} {
		t := native.TableFor("", gen)
		if t == nil {
			continue
		}
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
