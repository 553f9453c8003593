package format

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDeps: the package reader depends on nothing that locks folders,
// talks to a database or a command line: `go list -deps` names none of
// those libraries (as crane's depcheck_test.go does).
func TestDeps(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the dependencies")
	}
	out, err := exec.Command(gobin, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{"github.com/gofrs/flock", "internal/dirlock", "modernc.org/sqlite", "github.com/spf13/"} {
			if strings.Contains(dep, banned) {
				t.Errorf("format depends on %s", dep)
			}
		}
	}
}
