package format

import (
	"io"
	"strings"

	"github.com/upkdeps/upkdeps/internal/textw"
)

// WriteText writes the summary as info prints it without --json: one
// "Field: value" line each, then with names, imports or exports the
// package's name, import or export table.
func (r Info) WriteText(w io.Writer, names, imports, exports bool) error {
	bw := &textw.Writer{W: w}
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
	return bw.Err
}
