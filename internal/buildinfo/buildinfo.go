// Package buildinfo says which upkdeps a binary is: the version it was
// released as, the revision it was built from and the Go toolchain, what
// `upkdeps version` prints.
//
// It is internal because it describes the running program, not a game:
// debug.ReadBuildInfo reads the main module, which in a library user's
// program is theirs, not upkdeps'. Only the command line (and the tool
// version it writes into SARIF and checkstyle logs) uses it.
package buildinfo

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// SchemaVersion is the schema_version of Info's JSON form.
const SchemaVersion = 1

// Info is what `upkdeps version --json` prints (docs/json.md).
type Info struct {
	SchemaVersion int    `json:"schema_version"`
	Version       string `json:"version"`            // module version, or "dev" for a build from a work tree
	Revision      string `json:"revision,omitempty"` // VCS revision the binary was built from
	Time          string `json:"time,omitempty"`     // that revision's commit time (RFC 3339)
	Modified      bool   `json:"modified"`           // the work tree had uncommitted changes
	Go            string `json:"go"`
	OS            string `json:"os"`
	Arch          string `json:"arch"`
}

// Read reads the version from the binary's build information: version
// (what the link set with -ldflags "-X main.version=...") first unless it
// is "dev", else the module version that `go install ...@vX` records,
// else "dev"; the VCS stamp that `go build` records in a git work tree
// gives the revision.
func Read(version string) Info {
	bi, _ := debug.ReadBuildInfo()
	return of(version, bi)
}

// of is Read on the build information bi (nil when the binary has none).
func of(version string, bi *debug.BuildInfo) Info {
	v := Info{SchemaVersion: SchemaVersion, Version: version, Go: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH}
	if bi == nil {
		return v
	}
	if v.Version == "dev" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		v.Version = bi.Main.Version
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

// String is the one-line form `version` and `--version` print after
// "upkdeps ": the version, the revision's first 12 digits with its time
// and whether the tree was modified, the Go version and the platform.
func (v Info) String() string {
	s := v.Version
	if v.Revision != "" {
		rev := v.Revision
		if len(rev) > 12 {
			rev = rev[:12]
		}
		s += " (" + rev
		if v.Time != "" {
			s += ", " + v.Time
		}
		if v.Modified {
			s += ", modified"
		}
		s += ")"
	}
	return fmt.Sprintf("%s %s %s/%s", s, v.Go, v.OS, v.Arch)
}
