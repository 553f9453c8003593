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
	// have none, and on 20,000 packages the list and map cost 5 MB.
	var names []string
	var file map[string]string
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
		if file == nil {
			file = map[string]string{}
			for c := range in.Search.AllPackages() {
				if _, dup := file[c.Name]; !dup {
					names = append(names, c.Name)
					file[c.Name] = c.Rel
				}
			}
		}
		if near := suggest.Nearest(f.Package, names); near != "" {
			fs[i].Message += fmt.Sprintf("; did you mean %s (%s)?", near, file[near])
		}
	}
}
