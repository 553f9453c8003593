package check

import (
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/internal/textw"
	"github.com/upkdeps/upkdeps/search"
)

// WriteText writes the report as check prints it without --json: the
// header, counts and case notes, the download cache's and the mod's part
// (when asked for), then the kind table, the findings to fix first, the
// most needed missing packages and every finding ranked, each with its
// best indexed candidate when the report has an index. Without all, a
// finding's lists stop at graph.TextLimit items.
func (rep *Report) WriteText(w io.Writer, all bool) error {
	bw := &textw.Writer{W: w}
	bw.Printf("upkdeps check: %s (%s; %s)\n", rep.Ini, rep.Game, search.Platform(rep.Platform).RulesLabel())
	bw.Printf("%d packages scanned", rep.PackagesScanned)
	if rep.PackagesReadable < rep.PackagesScanned {
		bw.Printf(", %d of %d readable", rep.PackagesReadable, rep.PackagesScanned)
		if rep.GitLFSPointers > 0 {
			bw.Printf(" (%d Git LFS pointers: fetch the files with git lfs pull)", rep.GitLFSPointers)
		}
	}
	if len(rep.MissingPaths) > 0 {
		bw.Printf("; Paths folders that do not exist: %s", strings.Join(rep.MissingPaths, ", "))
	}
	for _, n := range rep.CaseNotes {
		bw.Printf("\ncase: %s", n.Message)
	}
	bw.Printf("\n%d error(s), %d warning(s)\n", rep.Summary.Errors, rep.Summary.Warnings)
	if wc := rep.WithCache; wc != nil {
		bw.Printf("With the download cache (%s, %d usable packages):", wc.Cache, wc.PackagesInCache)
		if len(wc.ResolvedFromCache) == 0 {
			bw.Printf(" nothing the install lacks is in it\n")
		} else {
			var names []string
			for _, u := range wc.ResolvedFromCache {
				names = append(names, u.Name+" ("+u.File+")")
			}
			bw.Printf(" it provides %s\n", strings.Join(names, ", "))
		}
		bw.Printf("%d finding(s) of a plain check disappear with the cache:\n", len(wc.FindingsRemoved))
		for _, f := range wc.FindingsRemoved {
			bw.Printf("  - %s %s: %s\n", f.Kind, f.Package, f.Message)
		}
	}
	if rep.With != nil {
		writeWithText(bw, rep.With, all)
		return bw.Err
	}
	if len(rep.Findings) == 0 {
		bw.Printf("\nNo problems found.\n")
		return bw.Err
	}
	writeKindTable(bw, rep.Summary)
	bw.Printf("\nFix first:\n")
	for i, r := range rep.Summary.FixFirst {
		bw.Printf("  %d. %s %s: %s (%s)\n", i+1, strings.ToUpper(string(r.Severity)), r.Kind, r.Package, r.Why)
	}
	if top := rep.MostNeeded(10); len(top) > 0 {
		label := "Most needed missing packages"
		if rep.Summary.ByKind[graph.StockMissing] > 0 {
			label += " (not the game's own)"
		}
		bw.Printf("\n%s: %s", label, top[0])
		for _, n := range top[1:] {
			bw.Printf(", %s", n)
		}
		bw.Printf("\n")
	}
	for _, f := range rep.Ranked() {
		bw.Do(func(w io.Writer) error { return f.WriteText(w, all) })
		if rep.Index != nil {
			writeCandidatesText(bw, rep.Index, f)
		}
	}
	return bw.Err
}

// writeKindTable prints the summary's count of each kind, errors and
// warnings apart (a kind such as missing_package has both).
func writeKindTable(bw *textw.Writer, sum Summary) {
	kinds := slices.Sorted(maps.Keys(sum.ByKind))
	bw.Printf("\n  %-18s %6s %8s\n", "kind", "errors", "warnings")
	for _, k := range kinds {
		bw.Printf("  %-18s %6d %8d\n", k, sum.ErrorsByKind[k], sum.WarningsByKind[k])
	}
}

// writeCandidatesText prints the best indexed candidate of a finding.
func writeCandidatesText(bw *textw.Writer, ix *Index, f graph.Finding) {
	for _, c := range ix.Candidates {
		if c.Kind != f.Kind || c.Package != f.Package {
			continue
		}
		what := c.Package
		if c.Object != "" {
			what = c.Package + "." + c.Object
		}
		if b := c.Best(); b == nil {
			bw.Printf("  index: no copy of %s\n", what)
		} else {
			note := ""
			if c.GUID != "" && strings.EqualFold(b.GUID, c.GUID) {
				note = ", the GUID the download cache pins"
			}
			bw.Printf("  index: %s in %s (GUID %s%s; %d candidate(s))\n", what, b.Where(), textw.GUID(b.GUID), note, len(c.Candidates))
		}
		if len(c.Archive) > 0 {
			v := c.Archive[0]
			it := v.Items[0]
			dl := it.Download
			if dl == "" {
				dl = "no working download known"
			}
			unfit := ""
			if v.Unfit {
				unfit = " (cannot hold the classes imported: no source)"
			}
			bw.Printf("  unreal archive: %s (%d bytes) in %s%s, %d version(s): %s\n", v.File, v.Size, it.Name, unfit, len(c.Archive), dl)
		}
	}
}

// writeWithText writes the part of check --with: the mod's packages and
// what its findings change.
func writeWithText(bw *textw.Writer, w *With, all bool) {
	bw.Printf("With %s installed:\n", w.Mod)
	for _, p := range w.Packages {
		state := "adds"
		for _, r := range w.Replaces {
			if r.Mod == p.Member {
				state = string(r.How)
			}
		}
		bw.Printf("  %-8s %s (GUID %s, %d bytes) from %s\n", state, p.To, p.GUID, p.Size, p.Member)
		if p.Note != "" {
			bw.Printf("           %s\n", p.Note)
		}
	}
	for _, p := range w.Unplaced {
		bw.Printf("  not placed: %s: %s\n", p.Member, p.Note)
	}
	for _, r := range w.Replaces {
		bw.Printf("  %s %s: installed %s (GUID %s, %d bytes), mod %s (GUID %s, %d bytes)\n", r.How, r.Name,
			r.Installed, textw.GUID(r.InstalledGUID), r.InstalledSize, r.Mod, textw.GUID(r.ModGUID), r.ModSize)
	}
	if len(w.SetAside) > 0 {
		bw.Printf("  set aside (not packages): %s\n", strings.Join(w.SetAside, ", "))
	}
	for _, u := range w.Unreadable {
		bw.Printf("  unreadable, checked without it: %s: %s\n", u.Member, u.Error)
	}
	bw.Printf("The mod adds %d finding(s), removes %d and changes %d.\n", len(w.FindingsAdded), len(w.FindingsRemoved), len(w.FindingsChanged))
	for _, f := range w.FindingsRemoved {
		bw.Printf("  removed: %s %s: %s\n", f.Kind, f.Package, f.Message)
	}
	for _, f := range w.FindingsAdded {
		bw.Do(func(w io.Writer) error { return f.WriteText(w, all) })
	}
	for _, f := range w.FindingsChanged {
		bw.Printf("\n(changed by the mod)")
		bw.Do(func(w io.Writer) error { return f.WriteText(w, all) })
	}
}
