package check

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/ini"
)

// minStockMissing is how many of the game's own packages must be missing
// for StockMissing to say the base install is incomplete: one absent
// retail file may be a server's choice (a map left out), several are an
// install that is not whole.
const minStockMissing = 2

// StockMissing returns the one finding that says the base install is
// incomplete, when at least minStockMissing of the packages that fs's
// missing_package findings name are on the game's own retail list (stock,
// ini.OwnStockOf; nil: no finding). It counts them, names the folders the
// list puts them in, and counts the other missing packages apart (the
// mods'); its Packages are the retail ones, in fs's order. Each of them
// keeps its own missing_package finding.
func StockMissing(fs []graph.Finding, stock *ini.Stock, g ini.Game) (graph.Finding, bool) {
	if stock == nil {
		return graph.Finding{}, false
	}
	var own []string
	seen := map[string]bool{}
	others := 0
	folders := map[string]int{}    // by lower-cased folder
	spelled := map[string]string{} // lower-cased folder -> its first spelling
	for _, f := range fs {
		if f.Kind != graph.MissingPackage || seen[strings.ToLower(f.Package)] {
			continue
		}
		seen[strings.ToLower(f.Package)] = true
		files := stock.FilesOf(f.Package)
		if len(files) == 0 {
			others++
			continue
		}
		own = append(own, f.Package)
		folder := path.Dir(strings.ReplaceAll(files[0], `\`, "/"))
		if folder == "." {
			folder = "the game folder"
		}
		key := strings.ToLower(folder) // the list spells folders in either case (Textures, textures)
		if spelled[key] == "" {
			spelled[key] = folder
		}
		folders[key]++
	}
	if len(own) < minStockMissing {
		return graph.Finding{}, false
	}
	var where []string
	for _, d := range slices.Sorted(maps.Keys(folders)) {
		where = append(where, fmt.Sprintf("%s %d", spelled[d], folders[d]))
	}
	title := g.String()
	if p := g.Profile(); p != nil {
		title = p.Title
	}
	msg := fmt.Sprintf("the base install is incomplete: %d of %s's own packages that this install needs are missing (%s): "+
		"install or repair the game's own files first", len(own), title, strings.Join(where, ", "))
	if others > 0 {
		msg += fmt.Sprintf("; %d other missing package(s) are not the game's", others)
	}
	return graph.Finding{Kind: graph.StockMissing, Severity: graph.Error, Package: title, Packages: own, Message: msg}, true
}
