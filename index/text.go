package index

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/upkdeps/upkdeps/internal/textw"
)

// WriteText writes the report as index add prints it without --json: per
// metadata checkout and per source, the counts, warnings and errors.
func (rep *AddReport) WriteText(w io.Writer) error {
	bw := &textw.Writer{W: w}
	bw.Printf("index: %s\n", rep.DB)
	for _, m := range rep.Metadata {
		bw.Printf("%s (%s): %d item(s) from %d metadata file(s), %d package file(s), %d warning(s)\n",
			m.Source.Location, m.Source.Kind, m.Items, m.Files, m.Source.Packages, len(m.Warnings))
		for _, w := range m.Warnings {
			bw.Printf("  warning: %s\n", w.Error())
		}
	}
	for _, r := range rep.Sources {
		s := r.Source
		bw.Printf("%s (%s): %d package(s) from %d file(s); read %d, unchanged %d, gone %d, %d error(s)\n",
			s.Location, s.Kind, s.Packages, s.Files, r.Read, r.Unchanged, r.Removed, len(r.Errors))
		for _, e := range r.Errors {
			where := e.Path
			if e.Member != "" {
				where += "!" + e.Member
			}
			bw.Printf("  error: %s: %s\n", where, e.Error)
		}
	}
	return bw.Err
}

// WriteText writes the list as index list prints it without --json: the
// database and one line per source (kind, counts, when it was last read,
// location).
func (l *SourceList) WriteText(w io.Writer) error {
	bw := &textw.Writer{W: w}
	bw.Printf("index: %s, %d source(s)\n", l.DB, len(l.Sources))
	for _, s := range l.Sources {
		bw.Printf("%-8s %6d package(s) %6d file(s) %4d error(s)  %s  %s\n", s.Kind, s.Packages, s.Files, s.Errors,
			s.UpdatedAt.Format(time.DateTime), s.Location)
	}
	return bw.Err
}

// WriteText writes the removal as index remove prints it without --json:
// a line per source removed.
func (r *Removal) WriteText(w io.Writer) error {
	bw := &textw.Writer{W: w}
	for _, loc := range r.Removed {
		bw.Printf("removed %s\n", loc)
	}
	return bw.Err
}

// WriteText writes the counts as index stats prints them without --json:
// the database, its schema and size, the counts, and the packages per
// extension in extension order.
func (st *Stats) WriteText(w io.Writer) error {
	bw := &textw.Writer{W: w}
	bw.Printf("index: %s (schema %d, %d bytes)\n", st.DB, st.Schema, st.SizeBytes)
	bw.Printf("%d source(s), %d file(s) (%d unreadable), %d package(s) with %d distinct name(s), %d export(s)\n",
		st.Sources, st.Files, st.Errors, st.Packages, st.Names, st.Exports)
	var parts []string
	for _, e := range slices.Sorted(maps.Keys(st.ByExt)) {
		parts = append(parts, fmt.Sprintf("%s %d", e, st.ByExt[e]))
	}
	bw.Printf("by extension: %s\n", strings.Join(parts, ", "))
	return bw.Err
}

// WriteFindText writes the copies of a package that find found, as find
// prints them without --json: query is the name asked for, q its parsed
// form (an object named in it is looked for in each copy), inArchive
// whether the Unreal Archive catalogue has versions of it.
func WriteFindText(w io.Writer, query string, q Query, ps []Package, inArchive bool) error {
	bw := &textw.Writer{W: w}
	if len(ps) == 0 {
		if inArchive {
			bw.Printf("%s: no local copy in the index\n", query)
		} else {
			bw.Printf("%s: not in the index\n", query)
		}
		return bw.Err
	}
	bw.Printf("%s: %d cop%s\n", query, len(ps), textw.Plural(len(ps), "y", "ies"))
	for _, p := range ps {
		mark := ""
		if q.Object != "" {
			if p.ObjectClass != "" {
				mark = fmt.Sprintf("  has %s (%s)", q.Object, p.ObjectClass)
			} else {
				mark = "  lacks " + q.Object
			}
		}
		bw.Printf("  %s  %s  v%d/%d  %d bytes  %s  %s%s\n", p.FileName, textw.GUID(p.GUID), p.Version, p.Licensee, p.Size,
			p.ModTime.Format(time.DateOnly), p.Where(), mark)
	}
	return bw.Err
}

// WriteText writes the report as find prints it without --json: the
// copies (WriteFindText), then the catalogue's versions
// (WriteArchiveVersions).
func (rep *FindReport) WriteText(w io.Writer) error {
	if err := WriteFindText(w, rep.Query, rep.q, rep.Copies, len(rep.Archive) > 0); err != nil {
		return err
	}
	return WriteArchiveVersions(w, rep.Archive)
}

// WriteArchiveVersions writes the catalogue's versions of a package: one
// block per version, the best item first with its download, then how many
// other items ship the same bytes.
func WriteArchiveVersions(w io.Writer, vs []ArchiveVersionSummary) error {
	bw := &textw.Writer{W: w}
	if len(vs) == 0 {
		return nil
	}
	bw.Printf("In the Unreal Archive: %d version(s)\n", len(vs))
	for _, v := range vs {
		bw.Printf("  %s  %d bytes  sha1 %s  in %d item(s)\n", v.File, v.Size, v.SHA1, len(v.Items))
		best := v.Items[0]
		dl := best.Download
		if dl == "" {
			dl = "no working download"
		}
		bw.Printf("    best: %s (%s, %s, %d bytes): %s\n", best.Name, strings.ToLower(best.Type), best.ArchiveName, best.Size, dl)
		for _, u := range best.Refused {
			bw.Printf("      refused download (not http or https): %s\n", u)
		}
		for _, it := range v.Items[1:] {
			bw.Printf("    also: %s (%s)\n", it.Name, it.ArchiveName)
		}
	}
	return bw.Err
}

// WriteText writes the report as fix prints it without --json: the copies
// made or planned, each with its GUID, importers and native binaries, the
// packages that cannot be brought and what check reports afterwards.
func (rep *FixReport) WriteText(w io.Writer) error {
	bw := &textw.Writer{W: w}
	verb := "copies"
	if rep.DryRun {
		verb = "would copy (dry run)"
	}
	bw.Printf("upkdeps fix: %s, index %s\n", rep.Ini, rep.Index)
	if len(rep.RemovedTemps) > 0 {
		bw.Printf("removed %d temporary file(s) an interrupted fix left: %s\n", len(rep.RemovedTemps), strings.Join(rep.RemovedTemps, ", "))
	}
	copies, closure := rep.Brought()
	bw.Printf("%d missing package(s); %s %d package(s), %d of them needed by the packages it brings\n",
		rep.MissingBefore, verb, copies, closure)
	for _, c := range rep.Copies {
		tag := "  "
		if !c.Direct {
			tag = "+ "
		}
		line := fmt.Sprintf("%s%-8s %s <- %s", tag, c.Status, c.To, c.Copy.Where())
		if c.To == "" {
			line = fmt.Sprintf("%s%-8s %s <- %s", tag, c.Status, c.Copy.FileName, c.Copy.Where())
		}
		bw.Printf("%s\n", line)
		bw.Printf("      GUID %s, needed by %s\n", textw.GUID(c.Copy.GUID), strings.Join(c.NeededBy, ", "))
		if c.Reason != "" {
			bw.Printf("      %s\n", c.Reason)
		}
		for _, b := range c.Binaries {
			bw.Printf("      with its native binary: %-8s %s <- %s\n", b.Status, b.To, b.From)
			if b.Reason != "" {
				bw.Printf("        %s\n", b.Reason)
			}
		}
	}
	if len(rep.Unresolved) > 0 {
		bw.Printf("%d package(s) cannot be brought:\n", len(rep.Unresolved))
		for _, u := range rep.Unresolved {
			bw.Printf("  %s: %s (needed by %s)\n", u.Name, u.Reason, strings.Join(u.NeededBy, ", "))
		}
	}
	if rep.MissingAfter != nil {
		bw.Printf("After the copies, check reports %d missing package(s) and %d error(s)", *rep.MissingAfter, rep.ErrorsAfter)
		if len(rep.Left) > 0 {
			var names []string
			for _, f := range rep.Left {
				names = append(names, f.Package)
			}
			bw.Printf(": %s", strings.Join(names, ", "))
		}
		bw.Printf("\n")
	}
	return bw.Err
}
