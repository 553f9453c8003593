package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/internal/par"
	"github.com/upkdeps/upkdeps/internal/textw"
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
				return writeInfoText(w, r, names, imports, exports)
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

func writeInfoText(w io.Writer, r format.Info, names, imports, exports bool) error {
	bw := &textw.Writer{W: w}
	{
		if r.Error != "" {
			bw.Printf("File:         %s\nError:        %s\n", r.Path, r.Error)
			return bw.Err
		}
		bw.Printf("File:         %s\n", r.Path)
		bw.Printf("Package:      %s\n", r.Package)
		bw.Printf("Version:      %d, licensee %d (%s)\n", r.Version, r.Licensee, r.Game)
		bw.Printf("Tag:          %s\n", r.Tag)
		bw.Printf("Flags:        0x%08X %s\n", r.Flags, strings.Join(r.FlagNames, " "))
		bw.Printf("GUID:         %s\n", r.GUID)
		if len(r.Generations) > 0 {
			last := r.Generations[len(r.Generations)-1]
			bw.Printf("Generations:  %d (last: %d exports, %d names)\n", len(r.Generations), last.ExportCount, last.NameCount)
		} else {
			bw.Printf("Heritage:     %d GUIDs\n", len(r.Heritage))
		}
		bw.Printf("Names:        %d at offset %d\n", r.NameCount, r.Offsets[0])
		bw.Printf("Imports:      %d at offset %d\n", r.ImportCount, r.Offsets[1])
		bw.Printf("Exports:      %d at offset %d\n", r.ExportCount, r.Offsets[2])
		deps := "(none)"
		if len(r.DependsOn) > 0 {
			deps = strings.Join(r.DependsOn, " ")
		}
		bw.Printf("Depends on:   %s\n", deps)
		if names {
			bw.Printf("\nName table:\n")
			for i, n := range r.Names {
				bw.Printf("  %5d  %-40s 0x%08X\n", i, n, r.NameFlags[i])
			}
		}
		if imports {
			bw.Printf("\nImport table:\n")
			for i, im := range r.Imports {
				bw.Printf("  %5d  %-50s %s.%s\n", -i-1, im.Path, im.ClassPackage, im.Class)
			}
		}
		if exports {
			bw.Printf("\nExport table:\n")
			for i, ex := range r.Exports {
				class := ex.Class
				if ex.ClassPackage != "" {
					class = ex.ClassPackage + "." + ex.Class
				}
				bw.Printf("  %5d  %-50s %-28s %8d bytes at %d\n", i+1, ex.Path, class, ex.SerialSize, ex.SerialOffset)
			}
		}
	}
	return bw.Err
}
