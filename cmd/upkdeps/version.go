package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// versionInfo is what `upkdeps version --json` prints.
type versionInfo struct {
	SchemaVersion int    `json:"schema_version"`
	Version       string `json:"version"`            // module version, or "dev" for a build from a work tree
	Revision      string `json:"revision,omitempty"` // VCS revision the binary was built from
	Time          string `json:"time,omitempty"`     // that revision's commit time (RFC 3339)
	Modified      bool   `json:"modified"`           // the work tree had uncommitted changes
	Go            string `json:"go"`
	OS            string `json:"os"`
	Arch          string `json:"arch"`
}

// buildVersion reads the version from the binary's build information:
// -ldflags "-X main.version=..." first, else the module version that
// `go install ...@vX` records, else "dev"; the VCS stamp that `go build`
// records in a git work tree gives the revision.
func buildVersion() versionInfo {
	v := versionInfo{SchemaVersion: 1, Version: version, Go: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
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

// String is the one-line form `version` and `--version` print.
func (v versionInfo) String() string {
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

func newVersionCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the version, the revision it was built from and the Go toolchain",
		Long: `version prints the module version (the tag go install fetched, or "dev" for a build from a
work tree), the VCS revision and its time when the build recorded them, and the Go version and
platform. --json prints the same as an object.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			v := buildVersion()
			if a.cfg.JSON {
				return writeJSON(a.stdout, v)
			}
			_, err := fmt.Fprintln(a.stdout, "upkdeps", v)
			return err
		},
	}
	cmd.Flags().Bool("json", false, "print the version as JSON")
	return cmd
}
