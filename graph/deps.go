package graph

import (
	"fmt"
	"slices"
)

// DepsSchemaVersion is the version of Deps' JSON form (what `upkdeps deps
// --json` and `rdeps --json` print; docs/json.md).
const DepsSchemaVersion = 1

// Deps lists what a package needs, or what needs it, transitively.
type Deps struct {
	SchemaVersion int        `json:"schema_version"`
	Package       string     `json:"package"` // the package asked about, as the install spells it
	Entries       []DepEntry `json:"entries"` // in depth order
	// Missing is set when a package listed is missing.
	Missing bool `json:"-"`
}

// DepEntry is one package of a Deps listing, or (reverse) one ini line
// that names a package of it.
type DepEntry struct {
	Name  string `json:"name"`
	File  string `json:"file"` // "" when missing; the ini and line for an ini line
	Depth int    `json:"depth"`
	Via   string `json:"via,omitempty"`
	Kind  string `json:"kind"` // the package kind, or "ini" for an ini line (reverse)
	Line  int    `json:"line,omitempty"`
}

// DepsOf lists what p needs (with reverse, what needs p) up to maxDepth
// hops (maxDepth < 0: no limit), in depth order, then by name. A reverse
// listing also has the ini lines that name p or a package that needs it,
// one hop further than the package they name.
func (gr *Graph) DepsOf(p *Package, maxDepth int, reverse bool) Deps {
	out := Deps{SchemaVersion: DepsSchemaVersion, Package: p.Name, Entries: []DepEntry{}}
	reached := gr.Reach([]*Package{p}, maxDepth, reverse)
	for _, r := range reached {
		if r.Package == p {
			continue
		}
		e := DepEntry{Name: r.Package.Name, File: r.Package.Rel, Depth: r.Depth, Kind: string(r.Package.Kind)}
		if r.Via != nil {
			e.Via = r.Via.Name
		}
		out.Missing = out.Missing || r.Package.Missing()
		out.Entries = append(out.Entries, e)
	}
	if reverse {
		out.Entries = gr.withIniLines(reached, maxDepth, out.Entries)
	}
	return out
}

// withIniLines adds to a reverse listing the ini lines that name a package
// reached, one hop further than it, and keeps the listing in depth order.
func (gr *Graph) withIniLines(reached []Reached, maxDepth int, entries []DepEntry) []DepEntry {
	depth := map[*Package]int{}
	for _, r := range reached {
		depth[r.Package] = r.Depth
	}
	var lines []DepEntry
	for _, r := range gr.Roots() {
		if d, ok := depth[r.Package]; ok && (maxDepth < 0 || d < maxDepth) {
			file := fmt.Sprintf("%s:%d", r.Ini, r.Line)
			if r.Ini == CommandLine {
				file = r.Ini
			}
			lines = append(lines, DepEntry{Name: r.Key + "=" + r.Value, File: file, Depth: d + 1,
				Via: r.Package.Name, Kind: "ini", Line: r.Line})
		}
	}
	out := append(entries, lines...)
	slices.SortStableFunc(out, func(x, y DepEntry) int { return x.Depth - y.Depth })
	return out
}
