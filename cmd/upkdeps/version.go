package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/internal/buildinfo"
)

// buildVersion is this binary's version (main.version, set at build time).
func buildVersion() buildinfo.Info { return buildinfo.Read(version) }

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
