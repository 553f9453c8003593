package check

import (
	"fmt"
	"strings"

	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/install"
	"github.com/upkdeps/upkdeps/livemap"
)

// LiveMissing is the finding kind of a live map entry (a mapvote preset's
// or default package) whose package no file resolves for.
const LiveMissing graph.FindingKind = "live_missing"

// LiveUnsent is the finding kind of a package a mapvote needs every client
// to have that the server does not send (livemap.Map.Unsent).
const LiveUnsent graph.FindingKind = "live_unsent"

// LiveFindings reports the live map's entries that the ini's
// ServerPackages do not already hold and whose package does not resolve:
// an error (live_missing) on the line that names it, a warning for a
// disabled preset. The ini's own ServerPackages are the graph's
// missing_package findings. A mapvote config that cannot be read is a
// warning through warn, and so is each of the live map's notes (what it
// did not read), so that the packages check counts as sent say what went
// unchecked. A class section's line setting its mutator switch
// (livemap.IgnoredSwitchLines), which the engine never reads, is an
// ini_section warning instead of a note.
func LiveFindings(in *install.Install, warn func(string)) []graph.Finding {
	var out []graph.Finding
	gen := in.Search.Generation()
	ignored := livemap.IgnoredSwitchLines(in.Ini, gen)
	for _, s := range ignored {
		pkg, _, _ := strings.Cut(strings.TrimPrefix(s.Text, "["), ".")
		out = append(out, graph.Finding{Kind: graph.IniSection, Severity: graph.Warning, Package: pkg, Roots: []string{s.String()},
			Message: fmt.Sprintf("%s adds nothing to the package map: %s; list %s in ServerPackages if clients need it", s, livemap.IgnoredWhy(gen), pkg)})
	}
	m, err := in.LiveMap()
	if err != nil {
		warnf(warn, "warning: %v: the live package map was not read", err)
		return out
	}
notes:
	for _, n := range m.Notes {
		for _, s := range ignored {
			if strings.HasPrefix(n, s.String()+" ") {
				continue notes
			}
		}
		warnf(warn, "note: the live package map: %s", n)
	}
	disabled := map[string]bool{}
	for _, p := range m.Presets {
		disabled[p.Name] = p.Disabled
	}
	for _, e := range m.Unsent {
		why := "clients cannot vote"
		if m.Manager == livemap.MVES {
			why += ` (MVES logs "not in ServerPackages, nobody will be able to vote")`
		} else {
			why += " (VoteSys's README: add it to ServerPackages)"
		}
		out = append(out, graph.Finding{Kind: LiveUnsent, Severity: graph.Error, Package: e.Package, Roots: []string{e.Source.String()},
			Message: fmt.Sprintf("%s: %s's client package %s is not in ServerPackages and its switch is off (%s): %s: add ServerPackages=%s to [%s]",
				e.Source, m.Manager, e.Package, m.SwitchText(), why, e.Package, ini.SectionGameEngine)})
	}
	for _, p := range m.Missing(func(pkg string) bool { return in.Search.Find(pkg).Found() }) {
		if p.From == livemap.FromIni {
			continue
		}
		who := "the live map's base"
		if p.Preset != "" {
			who = fmt.Sprintf("preset %s (%s)", p.Preset, m.Manager)
		}
		sev, fix := graph.Error, "install the package or remove it from the line"
		if disabled[p.Preset] && p.Preset != "" {
			sev, fix = graph.Warning, "the preset is disabled; install the package before enabling it"
		}
		verb := "sends"
		if p.Loaded {
			// The server loads a preset's game class, mutators and
			// actors whether or not the mapvote manages ServerPackages.
			verb = "makes the server load (a game class, mutator or actor)"
		} else if p.Preset != "" && !m.Managed && p.From != livemap.FromDefaults {
			sev, fix = graph.Warning, fix+" (the mapvote's switch is off, so it sends nothing yet)"
		}
		out = append(out, graph.Finding{Kind: LiveMissing, Severity: sev, Package: p.Package, Roots: []string{p.Source.String()},
			Message: fmt.Sprintf("%s: %s %s package %s, but no file resolves through Paths: %s", p.Source, who, verb, p.Package, fix)})
	}
	return out
}
