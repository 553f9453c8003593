package format

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"

	"github.com/upkdeps/upkdeps/internal/par"
)

// InfoOptions say how WriteInfos prints the files' Infos.
type InfoOptions struct {
	// JSON writes one object {"schema_version", "files": [Info...]};
	// otherwise each Info's WriteText, a blank line between two.
	JSON bool
	// Names, Imports and Exports list those tables in the text.
	Names, Imports, Exports bool
	// Jobs is how many files are read at once (par.Jobs: 0 is one per
	// core).
	Jobs int
}

// WriteInfos reads the files with ReadInfo and writes each file's report
// as soon as it and every earlier path are done, in path order: the JSON
// is the same bytes an indented encoding of the whole list writes. At most
// a few files per worker are held ahead of the output, so memory does not
// grow with the number of paths. failed reports whether a file could not
// be read (its Info has an Error).
func WriteInfos(w io.Writer, paths []string, opt InfoOptions) (failed bool, err error) {
	bw := bufio.NewWriterSize(w, 64<<10)
	if opt.JSON {
		if len(paths) == 0 {
			_, err := fmt.Fprintf(w, "{\n  \"schema_version\": %d,\n  \"files\": []\n}\n", InfoSchemaVersion)
			return false, err
		}
		fmt.Fprintf(bw, "{\n  \"schema_version\": %d,\n  \"files\": [\n", InfoSchemaVersion)
	}
	jobs := par.Jobs(opt.Jobs)
	err = par.Ordered(len(paths), jobs, 2*jobs, func(i int) Info { return ReadInfo(paths[i]) },
		func(i int, r Info) error {
			failed = failed || r.Error != ""
			if !opt.JSON {
				if i > 0 {
					bw.WriteString("\n")
				}
				return r.WriteText(bw, opt.Names, opt.Imports, opt.Exports)
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
	if opt.JSON {
		bw.WriteString("\n  ]\n}\n")
	}
	return failed, bw.Flush()
}
