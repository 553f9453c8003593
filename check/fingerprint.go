package check

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"slices"
	"sync"

	"github.com/upkdeps/upkdeps/graph"
)

// iniLineNumber is the ":25" of a root's evidence ("Demo.ini:25 Key=Value").
// (and of a localisation file's line: "Foo.int:3 Object=...").
var iniLineNumber = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([^:/\\ ]+\.[A-Za-z0-9_]+):[0-9]+ `) })

// Fingerprint identifies a finding across runs (a baseline's entries,
// SARIF's partialFingerprints): the hex SHA-256 (first 16 bytes) of its
// ID, with the line numbers taken out of the ini lines it rests on
// ("Demo.ini ServerPackages=Foo"), so that a line added elsewhere in the
// ini leaves it as it was. Like the ID it leaves out the message, the
// importers and the chain. Baselines store it: its form changes only
// with BaselineVersion.
func Fingerprint(f graph.Finding) string {
	if len(f.Roots) > 0 {
		roots := make([]string, len(f.Roots))
		for i, r := range f.Roots {
			roots[i] = iniLineNumber().ReplaceAllString(r, "$1 ")
		}
		slices.Sort(roots) // the order of lines is the ini's, which an edit may change
		f.Roots = roots
	}
	sum := sha256.Sum256([]byte(ID(f)))
	return hex.EncodeToString(sum[:16])
}
