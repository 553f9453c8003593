package ini

import (
	"bufio"
	"embed"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/upkdeps/upkdeps/internal/fold"
)

// stockFS holds one list per game profile, stock/<game>.txt: the package
// files a retail install ships, one path a line, "#" lines naming the
// sources (a complete install's Manifest.ini, a published file list).
//
//go:embed stock/*.txt
var stockFS embed.FS

//go:generate go test -run ^TestStockNames$ -update .

// Stock is what a game's retail install ships: its package files, which
// every client owns. Lookups ignore case and the folder: only the file name
// (with its extension) or the package name counts.
type Stock struct {
	Game    Game
	Sources []string            // where the list comes from, as its file says
	files   map[string]string   // lower-cased file name -> path as listed
	names   map[string][]string // lower-cased package name -> lower-cased file names
}

// HasFile reports whether the file name (Botpack.u, DM-Deck16][.unr; a
// path's folder is ignored) is a retail file of the game. A nil Stock has
// none.
func (s *Stock) HasFile(name string) bool {
	if s == nil {
		return false
	}
	_, ok := s.files[strings.ToLower(path.Base(strings.ReplaceAll(name, `\`, "/")))]
	return ok
}

// HasPackage reports whether a retail file of the game has the package
// name (any extension). A nil Stock has none.
func (s *Stock) HasPackage(name string) bool {
	return s != nil && len(s.names[strings.ToLower(name)]) > 0
}

// FilesOf returns the listed paths of the retail files that have the
// package name (any case, any extension), sorted; nil when none.
func (s *Stock) FilesOf(name string) []string {
	if s == nil {
		return nil
	}
	var out []string
	for _, base := range s.names[strings.ToLower(name)] {
		out = append(out, s.files[base])
	}
	slices.Sort(out)
	return out
}

// HasCode reports whether name is a retail code package (.u) of the game.
func (s *Stock) HasCode(name string) bool { return s.HasFile(name + ".u") }

// Files returns the listed paths, sorted case-insensitively. The caller
// owns the slice.
func (s *Stock) Files() []string {
	if s == nil {
		return nil
	}
	out := make([]string, 0, len(s.files))
	for _, p := range s.files {
		out = append(out, p)
	}
	slices.SortFunc(out, fold.Compare)
	return out
}

// parseStock reads a stock list.
func parseStock(g Game, text string) (*Stock, error) { return readStock(g, strings.NewReader(text)) }

// readStock reads a stock list from r.
func readStock(g Game, r io.Reader) (*Stock, error) {
	s := &Stock{Game: g, files: map[string]string{}, names: map[string][]string{}}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "":
		case strings.HasPrefix(line, "# Source: "):
			s.Sources = append(s.Sources, strings.TrimPrefix(line, "# Source: "))
		case strings.HasPrefix(line, "#"):
		default:
			base := strings.ToLower(path.Base(line))
			ext := path.Ext(base)
			if ext == "" || base == ext {
				return nil, fmt.Errorf("ini: stock list of %s: line %d: %q is not a package file name", g, n, line)
			}
			if _, dup := s.files[base]; !dup {
				s.files[base] = line
				name := strings.TrimSuffix(base, ext)
				s.names[name] = append(s.names[name], base)
			}
		}
	}
	return s, sc.Err()
}

// stocks holds each game's list once read: a command reads only its
// game's (a few hundred lines), not the lists of every game.
var stocks struct {
	mu    sync.Mutex
	lists map[Game]*Stock // nil value: the game has no list
}

// stockList returns g's list, read on first use, or nil when g has none.
// It panics only if the embedded list is malformed (a test reads them all).
func stockList(g Game) *Stock {
	stocks.mu.Lock()
	defer stocks.mu.Unlock()
	if s, ok := stocks.lists[g]; ok {
		return s
	}
	var s *Stock
	if f, err := stockFS.Open("stock/" + g.Name + ".txt"); err == nil {
		s, err = readStock(g, f)
		f.Close()
		if err != nil {
			panic(err)
		}
	}
	if stocks.lists == nil {
		stocks.lists = map[Game]*Stock{}
	}
	stocks.lists[g] = s
	return s
}

// anyCode is the fallback list: the code packages of every game's list.
var anyCode = sync.OnceValue(func() *Stock {
	s := &Stock{Sources: []string{"the code packages (.u) of every game's list"}, files: map[string]string{}, names: map[string][]string{}}
	// A list has one path a base name, so only the games' order decides
	// which path a name keeps: the first game's (each list's own order
	// does not matter, and is not sorted for).
	for _, g := range Games {
		l := stockList(g)
		if l == nil {
			continue
		}
		for base, p := range l.files {
			if strings.HasSuffix(base, ".u") && s.files[base] == "" {
				s.files[base] = p
				name := strings.TrimSuffix(base, ".u")
				s.names[name] = append(s.names[name], base)
			}
		}
	}
	return s
})

// StockOf returns the retail file list of g's profile. A game without a
// list of its own (Raven Shield, a UE2 Runtime tree, an unnamed UE1 or UE2
// game, the zero Game) gets the code packages of every game's list: a
// retail code package name is never a mod's, a map or texture name may be.
// It panics only if an embedded list is malformed (a test reads them all).
func StockOf(g Game) *Stock {
	if s := stockList(g); s != nil {
		return s
	}
	return anyCode()
}

// OwnStockOf returns g's own retail file list, or nil when upkdeps has
// none for g (StockOf then falls back to every game's code packages).
func OwnStockOf(g Game) *Stock { return stockList(g) }

// IsStockCode reports whether name is a retail code package of any game
// upkdeps knows (every client of that game owns it): anyCode's HasCode,
// searched in stockCodeNames (stocknames.go), so that no list is read for
// it. Reading every game's list for it was a sixth of the CPU of graph
// --format dot on the demo, which asks it of each node.
func IsStockCode(name string) bool {
	base := strings.ToLower(path.Base(strings.ReplaceAll(name+".u", `\`, "/")))
	_, ok := slices.BinarySearch(stockCodeNames[:], strings.TrimSuffix(base, ".u"))
	return ok
}

// IsStockPackage reports whether any retail file (code, sounds, textures,
// music, maps) of any game upkdeps has a full list for bears the package
// name: what every client of that game owns, such as UT99's
// Announcer.uax, which ships with the ServerSideOnly flag. It searches
// stockNames (stocknames.go, made from the lists by go generate), so a
// check reads no list for it: scanning the lists' text for each name cost
// a check of the demo a twentieth of its CPU, making their tables more.
func IsStockPackage(name string) bool {
	_, ok := slices.BinarySearch(stockNames[:], strings.ToLower(name))
	return ok
}
