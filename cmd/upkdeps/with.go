package main

import (
	"strings"

	"github.com/upkdeps/upkdeps/check"
	"github.com/upkdeps/upkdeps/internal/textw"
)

func writeWithText(bw *textw.Writer, w *check.With, all bool) {
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
			r.Installed, guidOr(r.InstalledGUID), r.InstalledSize, r.Mod, guidOr(r.ModGUID), r.ModSize)
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
		writeFindingText(bw, f, all)
	}
	for _, f := range w.FindingsChanged {
		bw.Printf("\n(changed by the mod)")
		writeFindingText(bw, f, all)
	}
}
