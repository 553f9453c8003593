package livemap

import (
	"io"
	"strings"

	"github.com/upkdeps/upkdeps/internal/textw"
)

// WriteText writes the map as `upkdeps livemap` prints it without --json:
// the ini, which mapvote (if any) manages ServerPackages, the base every
// preset sends and each preset's own packages, every entry with its file
// and line, then the notes.
func (m *Map) WriteText(w io.Writer) error {
	bw := &textw.Writer{W: w}
	bw.Printf("upkdeps livemap: %s\n", m.Ini)
	switch {
	case m.Manager == "":
		bw.Printf("no mapvote config beside the ini\n")
	case m.Manager == XVoting && m.Switch != nil && parseBool(after(m.Switch.Text, "=")):
		bw.Printf("xvoting votes its game configs (%s); it does not manage ServerPackages\n", m.Switch)
	case m.Manager == XVoting:
		bw.Printf("xvoting found, map voting off (%s)\n", m.SwitchText())
	case m.Managed:
		bw.Printf("%s manages ServerPackages (%s)\n", m.Manager, m.Switch)
	default:
		bw.Printf("%s found, its switch off (%s)\n", m.Manager, m.SwitchText())
	}
	bw.Printf("\nbase (%d):\n", len(m.Base))
	for _, e := range m.Base {
		bw.Printf("  %-24s %s\n", e.Package, e.Source)
	}
	if len(m.Unsent) > 0 {
		bw.Printf("\nneeded by the mapvote but not sent (%d):\n", len(m.Unsent))
		for _, e := range m.Unsent {
			bw.Printf("  %-24s %s\n", e.Package, e.Source)
		}
	}
	for _, p := range m.Presets {
		state := ""
		if p.Disabled {
			state = " (disabled)"
		}
		bw.Printf("\npreset %s%s, %s: %d package(s)\n", p.Name, state, p.Source, len(p.Packages))
		for _, e := range p.Packages {
			bw.Printf("  %-24s %s\n", e.Package, e.Source)
		}
		if len(p.Loads) > 0 {
			bw.Printf("  the server loads (game, mutators, actors): %s\n", packageList(p.Loads))
		}
	}
	if len(m.Loads) > 0 {
		bw.Printf("\nthe mapvote also loads, whatever preset runs: %s\n", packageList(m.Loads))
	}
	if len(m.Notes) > 0 {
		bw.Printf("\nnotes:\n")
		for _, n := range m.Notes {
			bw.Printf("  %s\n", n)
		}
	}
	return bw.Err
}

// packageList is the entries' packages, comma-separated.
func packageList(es []Entry) string {
	names := make([]string, len(es))
	for i, e := range es {
		names[i] = e.Package
	}
	return strings.Join(names, ", ")
}

// after is the text of s after the first sep ("" without one).
func after(s, sep string) string {
	_, v, _ := strings.Cut(s, sep)
	return v
}
