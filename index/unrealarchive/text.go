package unrealarchive

import (
	"io"
	"slices"
	"strings"

	"github.com/upkdeps/upkdeps/internal/textw"
	"github.com/upkdeps/upkdeps/search"
)

// WriteText writes the plan as plan prints it without --json: the header,
// how many downloads bring how many missing packages, each download with
// its archive, checksum, URL and what it brings, then what no item
// provides.
func (rep PlanReport) WriteText(w io.Writer) error {
	bw := &textw.Writer{W: w}
	bw.Printf("upkdeps plan: %s (%s; %s); %d Unreal Archive item(s) of %s\n", rep.Ini, rep.Game, search.Platform(rep.Platform).RulesLabel(), rep.ItemsKnown, strings.Join(rep.Games, ", "))
	bw.Printf("%d missing package(s); %d download(s) bring %d of them", len(rep.Missing), len(rep.Downloads), len(rep.Missing)-countIn(rep.Unprovided, rep.Missing))
	if rep.Exact {
		bw.Printf(" (the fewest possible)\n")
	} else {
		bw.Printf(" (greedy: at most %.2f times the fewest)\n", rep.Bound)
	}
	for i, c := range rep.Downloads {
		it := c.Item
		url := it.Download
		if url == "" {
			url = "(no working download known)"
		}
		bw.Printf("\n%2d. %s  [%s, %s]\n    %s  %d bytes  sha1 %s\n    %s\n", i+1, it.Name, strings.ToLower(it.Type), it.Game, it.ArchiveName, it.Size, it.SHA1, url)
		for _, u := range it.Refused {
			bw.Printf("    refused download (not http or https): %s\n", u)
		}
		bw.Printf("    brings: %s\n", strings.Join(c.Brings, ", "))
		if len(c.Needed) > 0 {
			bw.Printf("    (%s: needed by the packages of the downloads above, not by the install itself)\n", strings.Join(c.Needed, ", "))
		}
	}
	if len(rep.Unprovided) > 0 {
		bw.Printf("\nNo item provides (%d): %s\n", len(rep.Unprovided), strings.Join(rep.Unprovided, ", "))
	}
	return bw.Err
}

// countIn counts the names of xs that are in in, case aside.
func countIn(xs, in []string) int {
	n := 0
	for _, x := range xs {
		if slices.ContainsFunc(in, func(y string) bool { return strings.EqualFold(x, y) }) {
			n++
		}
	}
	return n
}

// WriteText writes the verification as plan --verify prints it without
// --json: one line per downloaded file, ok, MISMATCH or unknown.
func (rep *Verification) WriteText(w io.Writer) error {
	bw := &textw.Writer{W: w}
	bw.Printf("upkdeps plan --verify: %s\n", rep.Folder)
	for _, f := range rep.Files {
		switch f.Status {
		case VerifyOK:
			bw.Printf("  ok        %s (%s)\n", f.File, f.Item)
		case VerifyMismatch:
			bw.Printf("  MISMATCH  %s: named like %s's archive, but its SHA-1 %s or size %d is not the catalogue's: download it again\n", f.File, f.Item, f.SHA1, f.Size)
		default:
			bw.Printf("  unknown   %s: not in the catalogue\n", f.File)
		}
	}
	return bw.Err
}
