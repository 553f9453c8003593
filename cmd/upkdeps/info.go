package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/internal/par"
)

func newInfoCmd(a *app) *cobra.Command {
	var names, imports, exports bool
	cmd := &cobra.Command{
		Use:   "info [--json] [--names] [--imports] [--exports] FILE...",
		Short: "Show a package's header, dependencies and tables (a readelf for packages)",
		Long: `info reads each package's header and tables (never its object data) and prints the
version and licensee with the game they suggest, the flags, GUID, generations, table counts
and the packages it imports from. --names, --imports and --exports add the tables to the
text output; --json always includes them in full. Exit 1 when a file cannot be read.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			failed, err := streamInfos(cmd.OutOrStdout(), args, a.cfg.Jobs, a.cfg.JSON, func(w io.Writer, i int, r format.Info) error {
				if i > 0 {
					if _, err := io.WriteString(w, "\n"); err != nil {
						return err
					}
				}
				return r.WriteText(w, names, imports, exports)
			})
			if err == nil && failed {
				err = errFindings
			}
			return err
		},
	}
	cmd.Flags().Bool("json", false, "print JSON, one object per file")
	cmd.Flags().BoolVar(&names, "names", false, "list the name table")
	cmd.Flags().BoolVar(&imports, "imports", false, "list the import table")
	cmd.Flags().BoolVar(&exports, "exports", false, "list the export table")
	return cmd
}

// streamInfos reads the files with jobs workers and writes each file's
// report as soon as it and every earlier argument are done, in argument
// order: text with the text func, else one JSON object, the same bytes
// writeJSON writes for infoJSON holding the whole slice. At most a few files per worker are
// held ahead of the output, so memory does not grow with the argument list.
// failed reports whether a file could not be read.
func streamInfos(w io.Writer, paths []string, jobs int, asJSON bool, text func(io.Writer, int, format.Info) error) (failed bool, err error) {
	bw := bufio.NewWriterSize(w, 64<<10)
	if asJSON {
		if len(paths) == 0 {
			_, err := fmt.Fprintf(w, "{\n  \"schema_version\": %d,\n  \"files\": []\n}\n", format.InfoSchemaVersion)
			return false, err
		}
		fmt.Fprintf(bw, "{\n  \"schema_version\": %d,\n  \"files\": [\n", format.InfoSchemaVersion)
	}
	err = par.Ordered(len(paths), jobs, 2*max(1, jobs), func(i int) format.Info { return format.ReadInfo(paths[i]) },
		func(i int, r format.Info) error {
			failed = failed || r.Error != ""
			if !asJSON {
				return text(bw, i, r)
			}
			if i > 0 {
				bw.WriteString(",\n")
			}
			// The encoder's indented form of a slice in an object's field:
			// each element indented by two levels, its first line too.
			b, err := json.MarshalIndent(r.JSONValue(), "    ", "  ")
			if err != nil {
				return err
			}
			bw.WriteString("    ")
			_, err = bw.Write(b)
			return err
		})
	if err != nil {
		return failed, err
	}
	if asJSON {
		bw.WriteString("\n  ]\n}\n")
	}
	return failed, bw.Flush()
}
