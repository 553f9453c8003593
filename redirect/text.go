package redirect

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/upkdeps/upkdeps/internal/textw"
	"github.com/upkdeps/upkdeps/search"
)

// WriteText writes the report as redirect build prints it without --json:
// the header, one line per action, the findings (the retail packages left
// out in one line) and the counts.
func (r *BuildReport) WriteText(w io.Writer) error {
	bw := &textw.Writer{W: w}
	out := r.Out
	if out == "" {
		out = "a new folder (no -o)"
	}
	bw.Printf("upkdeps redirect build: %s (%s; %s) -> %s\n", r.Ini, r.Game, search.Platform(r.Platform).RulesLabel(), out)
	bw.Printf("%d map(s) and %d ServerPackages: %d package(s) to publish\n", len(r.Maps), len(r.ServerPackages), r.Packages)
	if r.DryRun {
		bw.Printf("dry run: nothing is written\n")
	}
	bw.Printf("\n")
	width := 0
	for _, a := range r.Actions {
		width = max(width, len(a.File))
	}
	for _, a := range r.Actions {
		var detail []string
		if a.CopyOf != "" {
			detail = append(detail, "copy of "+a.CopyOf)
		} else if a.Source != "" {
			detail = append(detail, a.Source)
		}
		if a.Reason != "" {
			detail = append(detail, a.Reason)
		}
		if a.Size > 0 || a.CompressedSize > 0 {
			if a.CopyOf != "" {
				detail = append(detail, fmt.Sprintf("%d bytes", a.CompressedSize))
			} else {
				detail = append(detail, fmt.Sprintf("%d -> %d bytes (%s)", a.Size, a.CompressedSize, textw.Percent(a.CompressedSize, a.Size)))
			}
		}
		if a.Error != "" {
			detail = append(detail, "FAILED (see below)")
		}
		bw.Printf("  %-6s  %-*s  %s\n", a.Op, width, a.File, strings.Join(detail, "; "))
	}
	writeRedirectFindings(bw, r.Findings)
	s := r.Summary
	verb := ""
	if r.DryRun {
		verb = "to be "
	}
	bw.Printf("\n%d %screated, %d %supdated, %d kept, %d failed; %d error(s), %d warning(s)\n",
		s.Created, verb, s.Updated, verb, s.Kept, s.Failed, s.Errors, s.Warnings)
	return bw.Err
}

// writeRedirectFindings writes the findings of build and verify.
func writeRedirectFindings(bw *textw.Writer, fs []Finding) {
	if len(fs) == 0 {
		return
	}
	bw.Printf("\n")
	var stock []string
	for _, f := range fs {
		if f.Kind == Stock {
			stock = append(stock, f.Package)
			continue
		}
		subject := f.Package
		if subject == "" {
			subject = f.File
		}
		if subject == "" { // about the whole folder (lowercase_folded)
			bw.Printf("%s %s: %s\n", strings.ToUpper(string(f.Severity)), f.Kind, f.Message)
			continue
		}
		bw.Printf("%s %s: %s: %s\n", strings.ToUpper(string(f.Severity)), f.Kind, subject, f.Message)
	}
	writeStockLine(bw, stock)
}

// writeStockLine says in one line which retail packages were left out: a
// stock UT2004 server has over 200, one line each buried what mattered.
// --json keeps one finding per package.
func writeStockLine(bw *textw.Writer, names []string) {
	if len(names) == 0 {
		return
	}
	const shown = 8
	list := strings.Join(names[:min(len(names), shown)], ", ")
	if len(names) > shown {
		list += fmt.Sprintf(", ... (%d more; --json lists each)", len(names)-shown)
	}
	bw.Printf("WARNING stock: %d retail package(s) every client owns, not published (--include-stock publishes them): %s\n", len(names), list)
}

// WriteText writes the report as redirect verify prints it without --json:
// the header and counts, the findings, and OK when there is no error.
func (r *VerifyReport) WriteText(w io.Writer) error {
	bw := &textw.Writer{W: w}
	bw.Printf("upkdeps redirect verify: %s against %s (%s; %s)\n", r.Dir, r.Ini, r.Game, search.Platform(r.Platform).RulesLabel())
	bw.Printf("%d package(s) to publish, %d file(s) checked; %d error(s), %d warning(s)\n",
		r.Packages, r.Checked, r.Summary.Errors, r.Summary.Warnings)
	writeRedirectFindings(bw, r.Findings)
	if r.Summary.Errors == 0 {
		bw.Printf("\nOK: every package clients may download is there and current\n")
	}
	return bw.Err
}

// WriteText writes the report as unused prints it without --json: the
// packages nothing uses with their sizes and what would reach them, then
// what each ServerPackages line makes a new client download.
func (rep *Unused) WriteText(w io.Writer) error {
	bw := &textw.Writer{W: w}
	if len(rep.Packages) == 0 {
		bw.Printf("Every package is used: a map, an ini line, native code or a used package reaches each one.\n")
	} else {
		bw.Printf("%d package(s) nothing uses (no map, ini line, native code or used package reaches them), %s:\n", len(rep.Packages), textw.Bytes(rep.Bytes))
		width := 0
		for _, u := range rep.Packages {
			width = max(width, len(u.File))
		}
		for _, u := range rep.Packages {
			size := "?"
			if u.Bytes >= 0 {
				size = textw.Bytes(u.Bytes)
			}
			bw.Printf("  %-*s %10s  %s\n", width, u.File, size, throughText(u))
		}
	}
	if rep.StockUnused > 0 {
		bw.Printf("(%d stock package(s) nothing uses are not listed: the game ships them.)\n", rep.StockUnused)
	}
	if len(rep.ServerPackages) > 0 {
		bw.Printf("\nServerPackages lines (what a new client downloads for each):\n")
	}
	for _, sp := range rep.ServerPackages {
		bw.Printf("  %s\n", sp.Line)
		switch {
		case sp.Missing:
			bw.Printf("    the package is missing: clients cannot download it\n")
		default:
			bw.Printf("    downloads %d package(s), %s; %d of them, %s, for this line alone\n", sp.Download.Count, textw.Bytes(sp.Download.Bytes), sp.Only.Count, textw.Bytes(sp.Only.Bytes))
		}
		if sp.NothingNeedsIt {
			bw.Printf("    nothing on this server needs it\n")
		} else {
			shown := sp.NeededBy
			more := ""
			if len(shown) > 5 {
				more = ", and " + strconv.Itoa(len(shown)-5) + " more"
				shown = shown[:5]
			}
			bw.Printf("    needed by %s%s\n", strings.Join(shown, ", "), more)
		}
	}
	return bw.Err
}

// throughText says what would reach an unused package.
func throughText(u UnusedPackage) string {
	if len(u.Through) == 0 {
		return u.Kind + ", nothing imports it"
	}
	return u.Kind + ", imported only by unused packages: naming " + strings.Join(u.Through, " or ") + " would reach it"
}

// WriteText writes the downloads as `upkdeps downloads` prints them
// without --json: per root (heaviest first) and for every package once,
// the count and bytes (and the compressed files found), then the top
// packages the most roots share (none when top is 0).
func (d *Downloads) WriteText(w io.Writer, top int) error {
	bw := &textw.Writer{W: w}
	const total = "total (each once)"
	width := len(total)
	for _, r := range d.Roots {
		width = max(width, len(r.Name))
	}
	line := func(name string, s Sizes) {
		bw.Printf("%-*s %6d %-8s %10s", width, name, s.Count, textw.Plural(s.Count, "package", "packages"), textw.Bytes(s.Bytes))
		if s.CompressedCount > 0 {
			bw.Printf("  %10s compressed (%d of %d files)", textw.Bytes(s.Compressed), s.CompressedCount, s.Count)
		}
		bw.Printf("\n")
	}
	for _, r := range d.Roots {
		line(r.Name, r.Sizes)
	}
	line(total, d.Total)
	if n := min(top, len(d.Packages)); n > 0 {
		bw.Printf("\nshared by the most (of %d):\n", len(d.Roots))
		for _, p := range d.Packages[:n] {
			bw.Printf("  %-*s %4d %10s  %s\n", width, p.Name, p.Roots, textw.Bytes(p.Bytes), p.File)
		}
	}
	return bw.Err
}
