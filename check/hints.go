package check

import (
	"fmt"
	"regexp"
	"sync"

	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/install"
	"github.com/upkdeps/upkdeps/internal/suggest"
)

// packageLine is the evidence of a ServerPackages or EditPackages line
// ("Demo.ini:25 ServerPackages=DemoVoices").
var packageLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[^ ]+:[0-9]+ (ServerPackages|EditPackages)=`)
})

// addHints ends the message of a missing_package finding that a
// ServerPackages or EditPackages line names with the nearest name of a
// package file the install's Paths reach, when one is close (a typo:
// "did you mean DemoBase (System/DemoBase.u)?"). The fingerprint does not
// read the message: a baseline still matches.
func addHints(in *install.Install, fs []graph.Finding) {
	// The names are gathered for the first finding that asks: most checks
	// have none. A name in several folders is listed each time: its first
	// place, the one that wins, is also the first that Nearest (ties to the
	// earlier) and the folder's lookup below find, so no map of 20,000
	// names is needed to drop the others.
	var names []string
	gathered := false
	for i, f := range fs {
		if f.Kind != graph.MissingPackage {
			continue
		}
		named := false
		for _, r := range f.Roots {
			named = named || packageLine().MatchString(r)
		}
		if !named {
			continue
		}
		if !gathered {
			for c := range in.Search.AllPackages() {
				names = append(names, c.Name)
			}
			gathered = true
		}
		if near := suggest.Nearest(f.Package, names); near != "" {
			fs[i].Message += fmt.Sprintf("; did you mean %s (%s)?", near, relOf(in, near))
		}
	}
}

// relOf is where the first package file called name is, relative to the
// install's root.
func relOf(in *install.Install, name string) string {
	for c := range in.Search.AllPackages() {
		if c.Name == name {
			return c.Rel
		}
	}
	return ""
}
