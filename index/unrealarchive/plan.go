package unrealarchive

import (
	"cmp"
	"maps"
	"math"
	"math/bits"
	"path"
	"slices"
	"strings"

	"github.com/upkdeps/upkdeps/graph"
)

// Need is one package an install lacks.
type Need struct {
	Name string
	// Code is set when classes are imported from it: only a code package
	// (.u) can provide it, whatever other file shares its base name.
	Code bool
}

// PlanRequest is what Plan works from.
type PlanRequest struct {
	Missing []Need
	// Games are the games whose items may be used, as the archive names
	// them ("Unreal Tournament"); items of other games are never sources.
	Games []string
	// Have reports whether the install has a package (so that a
	// dependency hint it satisfies is not chased); nil: it has none.
	Have func(name string) bool
	// Stock reports whether a package ships with the game: never taken
	// from an item that bundles it. nil: none is.
	Stock func(name string) bool
	// MaxExact bounds the candidate items for which the smallest set is
	// searched exactly; beyond it Plan is greedy. 0 means 20.
	MaxExact int
}

// Request is the PlanRequest of an install's missing packages for the
// items of games: a Need per MissingPackage finding (Code when classes
// are imported from it), the packages g has (not missing) as Have, and
// graph.IsStock as Stock.
func Request(g *graph.Graph, findings []graph.Finding, games []string) PlanRequest {
	req := PlanRequest{Games: games, Stock: graph.IsStock,
		Have: func(n string) bool { p := g.Package(n); return p != nil && !p.Missing() }}
	for _, f := range findings {
		if f.Kind == graph.MissingPackage {
			req.Missing = append(req.Missing, Need{Name: f.Package, Code: f.ImportsClasses()})
		}
	}
	return req
}

// Choice is one archive to download and the missing packages it brings.
type Choice struct {
	Item     Item
	Download *Download // the best download: working, direct first; nil when none works
	Brings   []string  // missing packages (request order first, then the ones its own files need), sorted
	Needed   []string  // of Brings, those only its own or other chosen items' files need (dependency hints)
}

// PlanResult is the download list.
type PlanResult struct {
	Choices    []Choice
	Unprovided []string // missing packages no item of the games provides, sorted
	Exact      bool     // the set is the smallest; else greedy
	// Bound, for a greedy plan, is the factor by which it may exceed the
	// smallest set: H(n) for n packages to cover (at most ln n + 1).
	Bound float64
}

// provides returns the missing names (lower-cased) an item's files provide.
func provides(it Item, want map[string]Need, stock func(string) bool) []string {
	var out []string
	for _, f := range it.Files {
		ext := strings.ToLower(path.Ext(f.Name))
		base := strings.ToLower(strings.TrimSuffix(f.Name, path.Ext(f.Name)))
		n, ok := want[base]
		if !ok || (stock != nil && stock(n.Name)) || (n.Code && ext != ".u") || ext == ".umod" || ext == ".int" {
			continue
		}
		if !slices.Contains(out, base) {
			out = append(out, base)
		}
	}
	return out
}

// Plan finds the fewest items that bring the missing packages, closing
// over what the chosen items' own files import (the archive's dependency
// hints) that the install also lacks, and says what no item provides.
// Among equally small sets it prefers items with a working direct
// download, primaries over variations, then smaller archives.
func Plan(items []Item, req PlanRequest) PlanResult {
	pool := poolFor(items, req.Games)
	have := func(n string) bool { return req.Have != nil && req.Have(n) }
	want := map[string]Need{}
	var order []string // lower-cased names in the order they became wanted
	addWant := func(n Need) bool {
		k := strings.ToLower(n.Name)
		if old, ok := want[k]; ok {
			if n.Code && !old.Code {
				old.Code = true
				want[k] = old
			}
			return false
		}
		want[k] = n
		order = append(order, k)
		return true
	}
	for _, n := range req.Missing {
		addWant(n)
	}
	direct := map[string]bool{}
	for _, k := range order {
		direct[k] = true
	}
	res := PlanResult{Exact: true}
	var chosen []int
	// Each round covers what is wanted now; the chosen items' dependency
	// hints may add wants, which the next round covers. A want is added
	// once, so the rounds end.
	covered := map[string]bool{}
	for round := 0; round < 64; round++ {
		open := slices.DeleteFunc(slices.Clone(order), func(k string) bool { return covered[k] })
		if len(open) == 0 {
			break
		}
		// Items with a working download first; the others only for what
		// none of those provides.
		picks, exact := cover(pool, open, want, req.Stock, req.MaxExact, chosen, func(it Item) bool { return BestDownload(it) != nil })
		rest := slices.Clone(open)
		for _, i := range picks {
			for _, k := range provides(pool[i], want, req.Stock) {
				rest = slices.DeleteFunc(rest, func(s string) bool { return s == k })
			}
		}
		more, exact2 := cover(pool, rest, want, req.Stock, req.MaxExact, append(slices.Clone(chosen), picks...), func(it Item) bool { return BestDownload(it) == nil })
		picks = append(picks, more...)
		res.Exact = res.Exact && exact && exact2
		grew := false
		for _, i := range picks {
			chosen = append(chosen, i)
			for _, k := range provides(pool[i], want, req.Stock) {
				covered[k] = true
			}
			for _, n := range lacking(pool[i], have) {
				grew = addWant(n) || grew
			}
		}
		for _, k := range open {
			if !covered[k] {
				covered[k] = true // nothing provides it: stop looking
				res.Unprovided = append(res.Unprovided, want[k].Name)
			}
		}
		if !grew {
			break
		}
	}
	res.Choices = choices(pool, chosen, want, direct, req)
	slices.SortFunc(res.Unprovided, compareFold)
	if !res.Exact {
		res.Bound = harmonic(len(order))
	}
	return res
}

// lacking returns what the item's files import, by its dependency hints, that
// the install lacks (have says no), in file order.
func lacking(it Item, have func(string) bool) []Need {
	var out []Need
	for _, file := range slices.Sorted(maps.Keys(it.Dependencies)) {
		for _, d := range it.Dependencies[file] {
			if d.Status != "OK" && !have(d.Name) {
				out = append(out, Need{Name: d.Name})
			}
		}
	}
	return out
}

// poolFor returns the items not deleted, of games when there are any.
func poolFor(items []Item, gameList []string) []Item {
	games := map[string]bool{}
	for _, g := range gameList {
		games[strings.ToLower(g)] = true
	}
	var pool []Item
	for _, it := range items {
		if !it.Deleted && (len(games) == 0 || games[strings.ToLower(it.Game)]) {
			pool = append(pool, it)
		}
	}
	return pool
}

// choices returns what the chosen items of pool bring, of the wants, and
// which of those only a choice's dependency hints wanted.
func choices(pool []Item, chosen []int, want map[string]Need, direct map[string]bool, req PlanRequest) []Choice {
	var out []Choice
	for _, i := range chosen {
		it := pool[i]
		c := Choice{Item: it, Download: BestDownload(it)}
		for _, k := range provides(it, want, req.Stock) {
			c.Brings = append(c.Brings, want[k].Name)
			if !direct[k] {
				c.Needed = append(c.Needed, want[k].Name)
			}
		}
		slices.SortFunc(c.Brings, compareFold)
		slices.SortFunc(c.Needed, compareFold)
		out = append(out, c)
	}
	return out
}

func compareFold(a, b string) int {
	return cmp.Or(strings.Compare(strings.ToLower(a), strings.ToLower(b)), strings.Compare(a, b))
}

func harmonic(n int) float64 {
	h := 0.0
	for i := 1; i <= n; i++ {
		h += 1 / float64(i)
	}
	return math.Round(h*100) / 100
}

// Rank orders items by preference, best first: a working direct
// download, a primary (not a variation), a smaller archive, then hash.
func Rank(a, b Item) int {
	score := func(it Item) int {
		s := 0
		if d := BestDownload(it); d != nil {
			s += 2
			if d.Direct {
				s++
			}
		}
		if it.VariationOf == "" {
			s++
		}
		return s
	}
	return cmp.Or(score(b)-score(a), cmp.Compare(a.Size, b.Size), strings.Compare(a.Hash, b.Hash))
}

// BestDownload returns the item's best working download, or nil.
func BestDownload(it Item) *Download {
	var best *Download
	for i := range it.Downloads {
		d := &it.Downloads[i]
		if !d.OK() {
			continue
		}
		if best == nil || (d.Direct && !best.Direct) || (d.Direct == best.Direct && d.Main && !best.Main) {
			best = d
		}
	}
	return best
}

// set is a bit set over the open names.
type set []uint64

func newSet(n int) set  { return make(set, (n+63)/64) }
func (s set) add(i int) { s[i/64] |= 1 << (i % 64) }
func (s set) or(t set) set {
	u := slices.Clone(s)
	for i := range u {
		u[i] |= t[i]
	}
	return u
}
func (s set) subsetOf(t set) bool {
	for i := range s {
		if s[i]&^t[i] != 0 {
			return false
		}
	}
	return true
}
func (s set) countNotIn(t set) int {
	n := 0
	for i := range s {
		n += bits.OnesCount64(s[i] &^ t[i])
	}
	return n
}

// cover returns pool indices of the fewest usable items that provide every
// name of open that some such item provides (skipping the already chosen), exactly
// when the useful candidates are at most maxExact, else greedily.
func cover(pool []Item, open []string, want map[string]Need, stock func(string) bool, maxExact int, chosen []int, usable func(Item) bool) ([]int, bool) {
	if len(open) == 0 {
		return nil, true
	}
	if maxExact <= 0 {
		maxExact = 20
	}
	cands, all := candidates(pool, open, want, stock, chosen, usable)
	// Best first, so that among covers of one size the first found is the
	// preferred one; then drop a candidate an earlier (better or equal)
	// one covers entirely.
	slices.SortStableFunc(cands, func(a, b coverCand) int { return Rank(pool[a.idx], pool[b.idx]) })
	var kept []coverCand
	for _, c := range cands {
		dominated := false
		for _, k := range kept {
			if c.mask.subsetOf(k.mask) {
				dominated = true
				break
			}
		}
		if !dominated {
			kept = append(kept, c)
		}
	}
	if len(kept) <= maxExact {
		return exactCover(kept, all, len(open)), true
	}
	// Greedy: the item covering the most still-open names, ties by rank.
	var out []int
	got := newSet(len(open))
	for !all.subsetOf(got) {
		best, bestN := -1, 0
		for i, c := range kept {
			if n := c.mask.countNotIn(got); n > bestN {
				best, bestN = i, n
			}
		}
		if best < 0 {
			break
		}
		out = append(out, kept[best].idx)
		got = got.or(kept[best].mask)
	}
	return out, false
}

// coverCand is an item cover may choose: its index in the pool and the
// open names it provides.
type coverCand struct {
	idx  int
	mask set
}

// candidates returns the usable items of pool not yet chosen that provide
// some name of open, and the set of the names they provide.
func candidates(pool []Item, open []string, want map[string]Need, stock func(string) bool, chosen []int, usable func(Item) bool) ([]coverCand, set) {
	bit := map[string]int{}
	for i, k := range open {
		bit[k] = i
	}
	var cands []coverCand
	all := newSet(len(open))
	for i, it := range pool {
		if slices.Contains(chosen, i) || !usable(it) {
			continue
		}
		m, any := newSet(len(open)), false
		for _, k := range provides(it, want, stock) {
			if b, ok := bit[k]; ok {
				m.add(b)
				any = true
			}
		}
		if any {
			cands = append(cands, coverCand{i, m})
			all = all.or(m)
		}
	}
	return cands, all
}

// exactCover returns the pool indices of the smallest subset of kept that
// covers all (of names open names); within a size, the first in kept's
// order (best ranked) wins. nil when none does.
func exactCover(kept []coverCand, all set, names int) []int {
	n := len(kept)
	for size := 1; size <= n; size++ {
		var pick []int
		var rec func(start int, m set) bool
		rec = func(start int, m set) bool {
			if len(pick) == size {
				return all.subsetOf(m)
			}
			for i := start; i <= n-(size-len(pick)); i++ {
				pick = append(pick, i)
				if rec(i+1, m.or(kept[i].mask)) {
					return true
				}
				pick = pick[:len(pick)-1]
			}
			return false
		}
		if rec(0, newSet(names)) {
			out := make([]int, len(pick))
			for j, p := range pick {
				out[j] = kept[p].idx
			}
			return out
		}
	}
	return nil
}

// gameNames maps upkdeps' game profiles to the Unreal Archive's game names.
var gameNames = map[string][]string{
	"unreal": {"Unreal"},
	"ut99":   {"Unreal Tournament"},
	"ut2003": {"Unreal Tournament 2003"},
	"ut2004": {"Unreal Tournament 2004"},
	"rune":   {"Rune"},
}

// GamesFor returns the Unreal Archive's names of the games whose content
// an install of the game profile can use (nil: the archive has none).
// Each game only its own: UT99 cannot load Unreal's content nor UT2003
// UT2004's (their package versions and classes differ).
func GamesFor(profile string) []string { return slices.Clone(gameNames[strings.ToLower(profile)]) }
