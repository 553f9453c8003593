package check

import (
	"fmt"

	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/install"
	"github.com/upkdeps/upkdeps/livemap"
)

// LiveMissing is the finding kind of a live map entry (a mapvote preset's
// or default package, a UT2004 class section's bAddToServerPackages) whose
// package no file resolves for.
const LiveMissing graph.FindingKind = "live_missing"

// LiveFindings reports the live map's entries that the ini's
// ServerPackages do not already hold and whose package does not resolve:
// an error (live_missing) on the line that names it, a warning for a
// disabled preset. The ini's own ServerPackages are the graph's
// missing_package findings. A mapvote config that cannot be read is a
// warning through warn.
func LiveFindings(in *install.Install, warn func(string)) []graph.Finding {
	m, err := in.LiveMap()
	if err != nil {
		warnf(warn, "warning: %v: the live package map was not read", err)
		return nil
	}
	disabled := map[string]bool{}
	for _, p := range m.Presets {
		disabled[p.Name] = p.Disabled
	}
	var out []graph.Finding
	for _, p := range m.Missing(func(pkg string) bool { return in.Search.Find(pkg).Found() }) {
		if p.From == livemap.FromIni {
			continue
		}
		who := "the live map's base"
		if p.Preset != "" {
			who = fmt.Sprintf("preset %s (%s)", p.Preset, m.Manager)
		} else if p.From == livemap.FromIniSection {
			who = "the class's section (the server adds its package when the class runs)"
		}
		sev, fix := graph.Error, "install the package or remove it from the line"
		if disabled[p.Preset] && p.Preset != "" {
			sev, fix = graph.Warning, "the preset is disabled; install the package before enabling it"
		}
		if p.Preset != "" && !m.Managed {
			sev, fix = graph.Warning, fix+" (the mapvote's switch is off, so it sends nothing yet)"
		}
		out = append(out, graph.Finding{Kind: LiveMissing, Severity: sev, Package: p.Package, Roots: []string{p.Source.String()},
			Message: fmt.Sprintf("%s: %s sends package %s, but no file resolves through Paths: %s", p.Source, who, p.Package, fix)})
	}
	return out
}
