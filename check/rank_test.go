package check

import (
	"slices"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/ini"
)

// TestRankFindings: the text report leads with the errors that stop the
// server (ServerPackages, ServerActors, the game class, other server lines,
// then what a server line reaches), then errors before warnings, each by the
// packages a finding touches; SortFindings' order (kind first) is not it.
func TestRankFindings(t *testing.T) {
	ref := func(key, value string, load string) graph.RootRef {
		pkg, _, _ := strings.Cut(value, ".")
		return graph.RootRef{Root: graph.Root{Ini: "Game.ini", Reference: ini.Reference{
			Section: "S", Key: key, Value: value, Line: len(key), Package: pkg, Load: load}}}
	}
	sp := ref("ServerPackages", "Skins", ini.LoadServer)
	sa := ref("ServerActors[0]", "Stats.Uplink", ini.LoadServer)
	game := ref("DefaultServerGame", "Game.Rules", ini.LoadServer)
	net := ref("NetworkDevice", "IpDrv.TcpNetDriver", ini.LoadBoth)
	console := ref("Console", "Menu.Console", ini.LoadClient)
	roots := rootLoads([]graph.RootRef{sp, sa, game, net, console})

	fs := []graph.Finding{
		{Kind: graph.Cycle, Severity: graph.Error, Package: "A", Packages: []string{"A", "B", "C", "D"}},
		{Kind: graph.MissingObject, Severity: graph.Error, Package: "Game", Roots: []string{game.Evidence()}},
		{Kind: graph.MissingPackage, Severity: graph.Error, Package: "Skins", Roots: []string{sp.Evidence()}},
		{Kind: graph.MissingPackage, Severity: graph.Error, Package: "Menu", Roots: []string{console.Evidence()}},
		{Kind: graph.MissingPackage, Severity: graph.Error, Package: "Lib", NeededBy: []string{"Game"},
			Chain: []string{game.Evidence(), "Game (System/Game.u)", "Lib (missing)"}},
		{Kind: graph.MissingPackage, Severity: graph.Error, Package: "Stats", Roots: []string{sa.Evidence(), console.Evidence()}},
		{Kind: graph.MissingObject, Severity: graph.Error, Package: "IpDrv", Roots: []string{net.Evidence()}},
		{Kind: graph.CaseMismatch, Severity: graph.Warning, Package: "Big", Roots: []string{sp.Evidence()},
			NeededBy: []string{"M1", "M2", "M3", "M4", "M5", "M6"}},
		{Kind: graph.MissingPackage, Severity: graph.Error, Package: "Tex", NeededBy: []string{"DM-1", "DM-2"}},
	}
	graph.SortFindings(fs)
	ranked := rankFindings(fs, roots)
	var have []string
	for _, r := range ranked {
		have = append(have, r.Package+": "+r.why())
	}
	want := []string{
		"Skins: breaks the server: Game.ini:14 ServerPackages=Skins",
		"Stats: breaks the server: Game.ini:15 ServerActors[0]=Stats.Uplink",
		"Game: breaks the server: Game.ini:17 DefaultServerGame=Game.Rules",
		"IpDrv: breaks the server: Game.ini:13 NetworkDevice=IpDrv.TcpNetDriver",
		"Lib: the server loads it through Game.ini:17 DefaultServerGame=Game.Rules",
		"A: touches 4 packages",
		"Tex: touches 3 packages",
		"Menu: touches 1 package",
		"Big: touches 7 packages",
	}
	if !slices.Equal(have, want) {
		t.Errorf("order:\nhave %q\nwant %q", have, want)
	}
}
