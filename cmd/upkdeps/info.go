package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

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
			failed, err := streamInfos(cmd.OutOrStdout(), args, a.cfg.Jobs, a.cfg.JSON, func(w io.Writer, i int, r infoReport) error {
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

// infoJSON is `info --json` output (docs/json.md); streamInfos writes the
// same bytes writeJSON would, one file at a time.
type infoJSON struct {
	SchemaVersion int          `json:"schema_version"`
	Files         []infoReport `json:"files"`
}

// infoSchemaVersion is infoJSON's schema_version.
const infoSchemaVersion = 1

// infoReport is one file of `info` output; its JSON form is documented in
// docs/json.md.
type infoReport struct {
	Path        string       `json:"path"`
	Error       string       `json:"error,omitempty"`
	Package     string       `json:"package,omitempty"`
	Tag         string       `json:"tag,omitempty"`
	Version     int          `json:"version,omitempty"`
	Licensee    int          `json:"licensee"`
	Game        string       `json:"game,omitempty"`
	Flags       uint32       `json:"flags"`
	FlagNames   []string     `json:"flag_names"`
	GUID        string       `json:"guid,omitempty"`
	Generations []infoGen    `json:"generations,omitempty"`
	Heritage    []string     `json:"heritage,omitempty"`
	NameCount   int          `json:"name_count"`
	ImportCount int          `json:"import_count"`
	ExportCount int          `json:"export_count"`
	DependsOn   []string     `json:"depends_on"`
	Names       []string     `json:"names"`
	Imports     []infoImport `json:"imports"`
	Exports     []infoExport `json:"exports"`
	offsets     [3]int32     // name, import, export table offsets (text only)
	nameFlags   []uint32     // text only
}

// MarshalJSON writes a file that could not be read as {"path", "error"}.
func (r infoReport) MarshalJSON() ([]byte, error) { return json.Marshal(r.jsonValue()) }

// plainInfo is infoReport without its MarshalJSON: the encoder writes it
// directly, where a Marshaler's bytes are parsed once more to be checked.
type plainInfo infoReport

// jsonValue is what r's JSON form encodes: the report, or only its path
// and error when the file could not be read.
func (r infoReport) jsonValue() any {
	if r.Error != "" {
		return struct {
			Path  string `json:"path"`
			Error string `json:"error"`
		}{r.Path, r.Error}
	}
	return plainInfo(r)
}

type infoGen struct {
	ExportCount int32 `json:"export_count"`
	NameCount   int32 `json:"name_count"`
}

type infoImport struct {
	Path         string `json:"path"`
	Class        string `json:"class"`
	ClassPackage string `json:"class_package"`
}

type infoExport struct {
	Path         string `json:"path"`
	Class        string `json:"class"`
	ClassPackage string `json:"class_package"`
	Super        string `json:"super,omitempty"`
	ObjectFlags  uint32 `json:"object_flags"`
	SerialSize   int32  `json:"serial_size"`
	SerialOffset int32  `json:"serial_offset"`
}

// streamInfos reads the files with jobs workers and writes each file's
// report as soon as it and every earlier argument are done, in argument
// order: text with the text func, else one JSON object, the same bytes
// writeJSON writes for infoJSON holding the whole slice. At most a few files per worker are
// held ahead of the output, so memory does not grow with the argument list.
// failed reports whether a file could not be read.
func streamInfos(w io.Writer, paths []string, jobs int, asJSON bool, text func(io.Writer, int, infoReport) error) (failed bool, err error) {
	bw := bufio.NewWriterSize(w, 64<<10)
	if asJSON {
		if len(paths) == 0 {
			_, err := fmt.Fprintf(w, "{\n  \"schema_version\": %d,\n  \"files\": []\n}\n", infoSchemaVersion)
			return false, err
		}
		fmt.Fprintf(bw, "{\n  \"schema_version\": %d,\n  \"files\": [\n", infoSchemaVersion)
	}
	err = par.Ordered(len(paths), jobs, 2*max(1, jobs), func(i int) infoReport { return readInfo(paths[i]) },
		func(i int, r infoReport) error {
			failed = failed || r.Error != ""
			if !asJSON {
				return text(bw, i, r)
			}
			if i > 0 {
				bw.WriteString(",\n")
			}
			// The encoder's indented form of a slice in an object's field:
			// each element indented by two levels, its first line too.
			b, err := json.MarshalIndent(r.jsonValue(), "    ", "  ")
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

func readInfo(path string) infoReport {
	r := infoReport{Path: path}
	f, err := format.Open(path)
	if err != nil {
		var pe *format.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		r.Error = err.Error()
		return r
	}
	defer f.Close()
	h := f.Header
	r.Package = f.PackageName
	r.Tag = fmt.Sprintf("%08X", h.Tag)
	r.Version, r.Licensee = int(h.Version), int(h.Licensee)
	r.Game = f.Game()
	r.Flags, r.FlagNames = uint32(h.Flags), h.Flags.Names()
	r.GUID = h.GUID.String()
	for _, g := range h.Generations {
		r.Generations = append(r.Generations, infoGen{g.ExportCount, g.NameCount})
	}
	for _, g := range h.Heritage {
		r.Heritage = append(r.Heritage, g.String())
	}
	r.NameCount, r.ImportCount, r.ExportCount = len(f.Names), len(f.Imports), len(f.Exports)
	r.offsets = [3]int32{h.NameOffset, h.ImportOffset, h.ExportOffset}
	r.DependsOn = f.Dependencies()
	if r.FlagNames == nil {
		r.FlagNames = []string{}
	}
	r.Names = make([]string, len(f.Names))
	r.nameFlags = make([]uint32, len(f.Names))
	for i, n := range f.Names {
		r.Names[i], r.nameFlags[i] = n.Name, n.Flags
	}
	r.Imports = make([]infoImport, len(f.Imports))
	for i := range f.Imports {
		ref := format.ImportRef(i)
		c, p := f.ClassOf(ref)
		r.Imports[i] = infoImport{Path: f.ObjectPath(ref), Class: c, ClassPackage: p}
	}
	r.Exports = make([]infoExport, len(f.Exports))
	for i, ex := range f.Exports {
		ref := format.ExportRef(i)
		c, p := f.ClassOf(ref)
		e := infoExport{Path: f.ObjectPath(ref), Class: c, ClassPackage: p,
			ObjectFlags: ex.ObjectFlags, SerialSize: ex.SerialSize, SerialOffset: ex.SerialOffset}
		if !ex.Super.IsNull() {
			e.Super = f.ObjectName(ex.Super)
		}
		r.Exports[i] = e
	}
	return r
}

func writeInfoText(w io.Writer, r infoReport, names, imports, exports bool) error {
	bw := &errWriter{w: w}
	{
		if r.Error != "" {
			bw.printf("File:         %s\nError:        %s\n", r.Path, r.Error)
			return bw.err
		}
		bw.printf("File:         %s\n", r.Path)
		bw.printf("Package:      %s\n", r.Package)
		bw.printf("Version:      %d, licensee %d (%s)\n", r.Version, r.Licensee, r.Game)
		bw.printf("Tag:          %s\n", r.Tag)
		bw.printf("Flags:        0x%08X %s\n", r.Flags, strings.Join(r.FlagNames, " "))
		bw.printf("GUID:         %s\n", r.GUID)
		if len(r.Generations) > 0 {
			last := r.Generations[len(r.Generations)-1]
			bw.printf("Generations:  %d (last: %d exports, %d names)\n", len(r.Generations), last.ExportCount, last.NameCount)
		} else {
			bw.printf("Heritage:     %d GUIDs\n", len(r.Heritage))
		}
		bw.printf("Names:        %d at offset %d\n", r.NameCount, r.offsets[0])
		bw.printf("Imports:      %d at offset %d\n", r.ImportCount, r.offsets[1])
		bw.printf("Exports:      %d at offset %d\n", r.ExportCount, r.offsets[2])
		deps := "(none)"
		if len(r.DependsOn) > 0 {
			deps = strings.Join(r.DependsOn, " ")
		}
		bw.printf("Depends on:   %s\n", deps)
		if names {
			bw.printf("\nName table:\n")
			for i, n := range r.Names {
				bw.printf("  %5d  %-40s 0x%08X\n", i, n, r.nameFlags[i])
			}
		}
		if imports {
			bw.printf("\nImport table:\n")
			for i, im := range r.Imports {
				bw.printf("  %5d  %-50s %s.%s\n", -i-1, im.Path, im.ClassPackage, im.Class)
			}
		}
		if exports {
			bw.printf("\nExport table:\n")
			for i, ex := range r.Exports {
				class := ex.Class
				if ex.ClassPackage != "" {
					class = ex.ClassPackage + "." + ex.Class
				}
				bw.printf("  %5d  %-50s %-28s %8d bytes at %d\n", i+1, ex.Path, class, ex.SerialSize, ex.SerialOffset)
			}
		}
	}
	return bw.err
}
