package check

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"slices"
	"strings"

	"github.com/upkdeps/upkdeps/graph"
)

// iniLineNumber is the ":25" of a root's evidence ("Demo.ini:25 Key=Value").
var iniLineNumber = regexp.MustCompile(`^([^:/\\]+\.[iI][nN][iI]):[0-9]+ `)

// Fingerprint names what a finding is about, so that the same problem is
// recognised in two runs (a baseline, SARIF's partialFingerprints): a hash
// of its kind, package, objects, the packages it involves, and the ini
// lines it rests on without their line numbers ("Demo.ini
// ServerPackages=Foo"). Messages, counts of importers, chains and line
// numbers are left out: an edit elsewhere in the ini or the install
// leaves the fingerprint as it was. Two findings may share one (the
// compiled and the source cycle of the same packages); a baseline counts
// them.
func Fingerprint(f graph.Finding) string {
	var b strings.Builder
	field := func(s ...string) {
		b.WriteString(strings.Join(s, "\x1f"))
		b.WriteByte(0)
	}
	field(string(f.Kind))
	field(f.Package)
	field(slices.Sorted(slices.Values(graph.ObjectStrings(f.Objects)))...)
	field(slices.Sorted(slices.Values(f.Packages))...)
	var lines []string
	for _, r := range f.Roots {
		lines = append(lines, iniLineNumber.ReplaceAllString(r, "$1 "))
	}
	slices.Sort(lines)
	field(lines...)
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:16])
}
