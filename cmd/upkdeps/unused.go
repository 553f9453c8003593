package main

import (
	"os"
	"path"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/redirect"
)

// UnusedSchemaVersion is the version of unused --json (docs/json.md).
const UnusedSchemaVersion = 1

// unusedReport is what unused --json prints (docs/json.md#unused).
type unusedReport struct {
	SchemaVersion int `json:"schema_version"`
	// Unused are the package files nothing reaches, sorted by name.
	Unused []unusedPackage `json:"unused"`
	// UnusedBytes is their size in all.
	UnusedBytes int64 `json:"unused_bytes"`
	// StockUnused counts the stock packages nothing reaches (not listed).
	StockUnused int `json:"stock_unused"`
	// ServerPackages are the ServerPackages lines, in the ini's order.
	ServerPackages []serverPackageCost `json:"server_packages"`
}

type unusedPackage struct {
	Name   string `json:"name"`
	File   string `json:"file"`   // relative to the game root, "/"-separated
	Folder string `json:"folder"` // the file's folder
	Kind   string `json:"kind"`
	Bytes  int64  `json:"bytes"` // -1 when unknown
	// Through are the unused packages nothing imports that would reach
	// this one if a map or an ini line named them; empty when naming this
	// one is the way.
	Through []string `json:"through"`
}

// serverPackageCost is one ServerPackages line: what a new client
// downloads for it, and what on the server needs it.
type serverPackageCost struct {
	Line    string `json:"line"` // "Server.ini:23 ServerPackages=Mod01"
	Package string `json:"package"`
	Missing bool   `json:"missing"` // no file resolves for it
	// Download is what a client downloads for this line alone: the
	// server_packages root of downloads --json for an ini with only it.
	Download redirect.RootDownload `json:"download"`
	// Only is the part of Download that no other root (map, other line)
	// needs: what removing the line saves a new client.
	Only redirect.Sizes `json:"only"`
	// NeededBy are the maps and other ini lines that need the package
	// (sorted: ini lines, then maps); empty when nothing does.
	NeededBy []string `json:"needed_by"`
	// NothingNeedsIt is true when NeededBy is empty.
	NothingNeedsIt bool `json:"nothing_needs_it"`
}

func newUnusedCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "unused [--ini INI] [--json]",
		Short: "Packages nothing on the server uses, and what each ServerPackages line costs",
		Long: `unused lists the package files nothing reaches: no map, no ini line (ServerPackages,
ServerActors, EditPackages, the game classes...), no native code and no package that is reached
imports them; with each its size and folder and, when other unused packages import it, those
that nothing imports: a map or an ini line naming one of them would reach it. Stock packages are
never listed (the game ships them), only counted. Then, per ServerPackages line: what a new client
downloads for it (as downloads counts it: published packages only), the part of that no other
map or line needs (what removing the line saves), and what needs the package ("nothing on this
server needs it" when nothing does). It deletes nothing. Exit 1 when a package is unused or a
line is needed by nothing.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			in, g, err := a.openGraph(cmd.Context())
			if err != nil {
				return err
			}
			nat, err := a.loadNatives(in)
			if err != nil {
				return err
			}
			stock := ini.StockOf(in.Game)
			res := g.Unused(graph.UnusedOptions{EditPackages: in.Ini.EditPackages(), Natives: nat, IsStock: stockTest(stock)})
			rep := unusedReport{SchemaVersion: UnusedSchemaVersion, Unused: []unusedPackage{}, StockUnused: res.Stock,
				ServerPackages: []serverPackageCost{}}
			for _, u := range res.Packages {
				p := u.Package
				up := unusedPackage{Name: p.Name, File: path.Clean(p.Rel), Folder: path.Dir(path.Clean(p.Rel)), Kind: string(p.Kind),
					Bytes: -1, Through: []string{}}
				if fi, err := os.Stat(p.File); err == nil {
					up.Bytes = fi.Size()
					rep.UnusedBytes += up.Bytes
				}
				for _, t := range u.Through {
					up.Through = append(up.Through, t.Name)
				}
				rep.Unused = append(rep.Unused, up)
			}
			if rep.ServerPackages, err = serverPackageCosts(in, g, stock); err != nil {
				return err
			}
			if a.cfg.JSON {
				if err := writeJSON(cmd.OutOrStdout(), rep); err != nil {
					return err
				}
			} else if err := writeUnused(cmd, rep); err != nil {
				return err
			}
			for _, sp := range rep.ServerPackages {
				if sp.NothingNeedsIt {
					return errFindings
				}
			}
			if len(rep.Unused) > 0 {
				return errFindings
			}
			return nil
		},
	}
	cmd.Flags().Bool("json", false, "print the report as JSON (docs/json.md)")
	return cmd
}

// stockTest says which package names are the game's own: its retail
// code, or a retail file of the game's stock list.
func stockTest(s *ini.Stock) func(string) bool {
	return func(name string) bool { return graph.IsStock(name) || s.HasPackage(name) }
}

// serverPackageCosts works out each ServerPackages line's download, the
// part of it no other root needs, and what needs its package.
func serverPackageCosts(in *install, g *graph.Graph, stock *ini.Stock) ([]serverPackageCost, error) {
	var lines []graph.RootRef
	for _, r := range g.Roots() {
		if strings.EqualFold(r.Key, "ServerPackages") {
			lines = append(lines, r)
		}
	}
	out := []serverPackageCost{}
	for _, r := range lines {
		c := serverPackageCost{Line: r.Evidence(), Package: r.Value, Missing: r.Package == nil || r.Package.Missing(), NeededBy: []string{}}
		d, err := redirect.NewDownloads(g, redirect.DownloadOptions{ServerPackages: []string{r.Value}, Maps: []string{},
			Generation: in.Search.Generation(), Stock: stock})
		if err != nil {
			return nil, err
		}
		c.Download = redirect.RootDownload{Name: "ServerPackages", Kind: "server_packages", Packages: []string{}, Sizes: redirect.Sizes{Compressed: -1}}
		for _, rd := range d.Roots {
			if rd.Kind == "server_packages" {
				c.Download = rd
			}
		}
		// What the other roots reach: the maps, the other lines.
		var others []*graph.Package
		for _, o := range g.Roots() {
			if o.Package != nil && !sameLine(o, r) {
				others = append(others, o.Package)
			}
		}
		for _, p := range g.Packages() {
			if p.Kind == graph.KindMap {
				others = append(others, p)
			}
		}
		reached := map[*graph.Package]bool{}
		for _, rr := range g.Reach(others, -1, false) {
			reached[rr.Package] = true
		}
		c.Only = redirect.Sizes{Compressed: -1}
		sizes := map[string]redirect.PackageDownload{}
		for _, pd := range d.Packages {
			sizes[strings.ToLower(pd.Name)] = pd
		}
		for _, n := range c.Download.Packages {
			if p := g.Package(n); p != nil && !reached[p] {
				pd := sizes[strings.ToLower(n)]
				c.Only.Count++
				c.Only.Bytes += pd.Bytes
			}
		}
		if r.Package != nil {
			c.NeededBy = neededBy(g, r.Package, r)
		}
		c.NothingNeedsIt = len(c.NeededBy) == 0
		out = append(out, c)
	}
	return out, nil
}

// sameLine reports whether two roots are one ini line.
func sameLine(a, b graph.RootRef) bool { return a.Ini == b.Ini && a.Line == b.Line && a.Key == b.Key }

// neededBy lists the ini lines (other than own) and the maps from which p
// is reached: ini lines first, in the ini's order, then maps by name.
func neededBy(g *graph.Graph, p *graph.Package, own graph.RootRef) []string {
	needs := map[*graph.Package]bool{}
	for _, r := range g.Reach([]*graph.Package{p}, -1, true) {
		needs[r.Package] = true
	}
	out := []string{}
	for _, r := range g.Roots() {
		if r.Package != nil && needs[r.Package] && !sameLine(r, own) {
			out = append(out, r.Evidence())
		}
	}
	for _, q := range g.Packages() {
		if q.Kind == graph.KindMap && needs[q] && q != p {
			out = append(out, q.Name)
		}
	}
	return out
}

// writeUnused prints the report as text.
func writeUnused(cmd *cobra.Command, rep unusedReport) error {
	bw := &errWriter{w: cmd.OutOrStdout()}
	if len(rep.Unused) == 0 {
		bw.printf("Every package is used: a map, an ini line, native code or a used package reaches each one.\n")
	} else {
		bw.printf("%d package(s) nothing uses (no map, ini line, native code or used package reaches them), %s:\n", len(rep.Unused), byteSize(rep.UnusedBytes))
		width := 0
		for _, u := range rep.Unused {
			width = max(width, len(u.File))
		}
		for _, u := range rep.Unused {
			size := "?"
			if u.Bytes >= 0 {
				size = byteSize(u.Bytes)
			}
			bw.printf("  %-*s %10s  %s\n", width, u.File, size, throughText(u))
		}
	}
	if rep.StockUnused > 0 {
		bw.printf("(%d stock package(s) nothing uses are not listed: the game ships them.)\n", rep.StockUnused)
	}
	if len(rep.ServerPackages) > 0 {
		bw.printf("\nServerPackages lines (what a new client downloads for each):\n")
	}
	for _, sp := range rep.ServerPackages {
		bw.printf("  %s\n", sp.Line)
		switch {
		case sp.Missing:
			bw.printf("    the package is missing: clients cannot download it\n")
		default:
			bw.printf("    downloads %d package(s), %s; %d of them, %s, for this line alone\n", sp.Download.Count, byteSize(sp.Download.Bytes), sp.Only.Count, byteSize(sp.Only.Bytes))
		}
		if sp.NothingNeedsIt {
			bw.printf("    nothing on this server needs it\n")
		} else {
			shown := sp.NeededBy
			more := ""
			if len(shown) > 5 {
				more = ", and " + strconv.Itoa(len(shown)-5) + " more"
				shown = shown[:5]
			}
			bw.printf("    needed by %s%s\n", strings.Join(shown, ", "), more)
		}
	}
	return bw.err
}

// throughText says what would reach an unused package.
func throughText(u unusedPackage) string {
	if len(u.Through) == 0 {
		return u.Kind + ", nothing imports it"
	}
	return u.Kind + ", imported only by unused packages: naming " + strings.Join(u.Through, " or ") + " would reach it"
}
