package search

import (
	"fmt"
	"iter"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Candidate is a package file reachable through a Paths entry.
type Candidate struct {
	Name      string // package name: the file name without the Paths prefix and extension, as spelled on disk
	File      string // absolute path
	Rel       string // File relative to the game root, with "/"
	PathIndex int    // the first Paths entry that reaches the file
	// Localized is set for a file with the language's extension
	// ("Foo.det_u"), which the engine prefers to "Foo.u" in the same folder.
	Localized bool
	// Wins is set when Find(Name) chooses this file: the engine loads it for
	// that spelling of the name.
	Wins bool
}

// Packages returns every package file reachable through Paths, in the
// engine's priority: by Paths entry, then by file name. A file is
// reachable through an entry when it is in the entry's folder and its name
// is the entry's prefix, a name, and the entry's extension (ignoring case,
// as the case-insensitive pass does). A file reachable through several
// entries (two entries naming one folder) is listed once, for the first.
// Entries without "*" match no file. The caller owns the returned slice.
func (s *Searcher) Packages() []Candidate {
	return append([]Candidate(nil), s.shared()...)
}

// AllPackages yields what Packages returns, in its order, without a copy
// of the list: on 20,000 packages Packages copies 1.4 MB, which a caller
// that only reads each once does not need.
func (s *Searcher) AllPackages() iter.Seq[Candidate] {
	return func(yield func(Candidate) bool) {
		for _, c := range s.shared() {
			if !yield(c) {
				return
			}
		}
	}
}

// shared returns the list of Packages, scanned once; it is never
// modified after.
func (s *Searcher) shared() []Candidate {
	s.mu.Lock()
	done := s.scanned
	s.mu.Unlock()
	if !done {
		pkgs := s.scanPackages()
		s.mu.Lock()
		if !s.scanned {
			s.packages, s.scanned = pkgs, true
		}
		s.mu.Unlock()
	}
	return s.packages
}

func (s *Searcher) scanPackages() []Candidate {
	var out []Candidate
	seen := make(map[string]bool)
	for i := range s.pats {
		p := &s.pats[i]
		if p.ext == "" {
			continue
		}
		for _, file := range s.list(p.dir).names {
			if len(file) < len(p.prefix) || file[:len(p.prefix)] != p.prefix {
				continue
			}
			name, local := "", false
			if p.localExt != "" {
				name, local = cutSuffixFold(file[len(p.prefix):], p.localExt)
			}
			if !local {
				var ok bool
				if name, ok = cutSuffixFold(file[len(p.prefix):], p.ext); !ok {
					continue
				}
			}
			full := joinName(p.dir, file)
			if name == "" || seen[full] {
				continue
			}
			seen[full] = true
			out = append(out, Candidate{Name: name, File: full, Rel: p.rel + file, PathIndex: i, Localized: local})
		}
	}
	// The list is kept as long as the Searcher: at its size, not with
	// the up to half spare capacity of its growth (1 MB on 20,000
	// packages).
	out = slices.Clone(out)
	// Which candidate each name resolves to, on every core: a lookup
	// through Paths per package, tens of thousands in a large install.
	// Locate answers these names from then on without the lookup (a check
	// resolves every name it imports, most of them packages' own names).
	res := make([]Result, len(out))
	var wg sync.WaitGroup
	const chunk = 2048
	for start := 0; start < len(out); start += chunk {
		end := min(start+chunk, len(out))
		wg.Go(func() {
			for i := start; i < end; i++ {
				res[i] = s.Locate(out[i].Name)
				out[i].Wins = res[i].File == out[i].File
			}
		})
	}
	wg.Wait()
	set := &locatedSet{byName: make(map[string]located, len(out)), cands: out}
	for i, r := range res {
		l := located{at: int32(i), pathIndex: int32(r.PathIndex), caseMismatch: r.CaseMismatch}
		step, known := stepCode(r.Step)
		if !out[i].Wins || !known {
			// Another file than the candidate's (a name another Paths
			// entry or extension wins), or none: its own strings.
			l.at = ^int32(len(set.others))
			set.others = append(set.others, answer{r.File, r.Rel, r.Step})
		}
		l.step = step
		set.byName[out[i].Name] = l
	}
	s.located.Store(set)
	return out
}

// locatedSet is what Locate answers for the names Packages looked up. An
// answer whose file is the name's own candidate (nearly all) is a number
// of that candidate, not its strings: 32 bytes a name in the map, not 72
// (1.3 MB less on 20,000 packages).
type locatedSet struct {
	byName map[string]located
	cands  []Candidate
	others []answer // the answers that are no candidate's file
}

// located is one answer of a locatedSet.
type located struct {
	at           int32 // the candidate whose File and Rel it has; ^k: others[k]'s
	pathIndex    int32
	step         uint8 // steps[step]; others[k].step when at is ^k
	caseMismatch bool
}

// answer is the strings of an answer that is no candidate's file.
type answer struct{ file, rel, step string }

// steps are the Steps by their code in located.
var steps = [...]string{"", StepAsGiven, StepPaths, StepCache, StepCaseInsensitive}

// stepCode returns step's code in steps, and whether it has one.
func stepCode(step string) (uint8, bool) {
	for i, s := range steps {
		if s == step {
			return uint8(i), true
		}
	}
	return 0, false
}

// result returns Locate's answer for name, when the set has one.
func (set *locatedSet) result(name string) (Result, bool) {
	l, ok := set.byName[name]
	if !ok {
		return Result{}, false
	}
	r := Result{Name: name, PathIndex: int(l.pathIndex), CaseMismatch: l.caseMismatch}
	if l.at >= 0 {
		c := &set.cands[l.at]
		r.File, r.Rel, r.Step = c.File, c.Rel, steps[l.step]
	} else {
		a := &set.others[^l.at]
		r.File, r.Rel, r.Step = a.file, a.rel, a.step
	}
	return r, true
}

// The kinds of Collision.
const (
	// KindCollision: the same package name with different extensions
	// (Credits.utx and Credits.umx). The earliest in Paths is always loaded;
	// the others can never be loaded by name.
	KindCollision = "collision"
	// KindShadowed: the same file name in two Paths folders. The one in the
	// earlier folder is always loaded.
	KindShadowed = "shadowed"
	// KindCase: package names that differ only in case (Botpack.u and
	// BotPack.u). A case-insensitive file system loads the first for every
	// spelling; a case-sensitive one loads the file matching the spelling.
	// Names that also differ in extension or folder are one collision or
	// shadowed finding whose message says so.
	KindCase = "case"
)

// Collision is a finding about package names that compete.
type Collision struct {
	Kind    string   // KindCollision, KindShadowed or KindCase
	Name    string   // the package name as the winner spells it
	Winner  string   // the file loaded (the first in the engine's priority), relative to the game root
	Others  []string // the competing files, relative to the game root, in priority order
	Message string   // one line for people
}

// Collisions returns the collisions among Packages, one per name, sorted
// by name (ignoring case). Files compete when their package names are
// equal ignoring case; the winner of a group is its first file in the
// engine's priority, the one a case-insensitive file system loads. A
// localized file and the plain file it stands in for ("Foo.det_u",
// "Foo.u", same Paths entry) are not a collision. The caller owns the
// returned slice.
func (s *Searcher) Collisions() []Collision {
	// Most names are one file's: only the names of two or more get a
	// group, and only theirs are sorted.
	pkgs := s.shared()
	first := make(map[string]int, len(pkgs)) // by lower-cased name: its first file
	groups := make(map[string][]Candidate)
	var keys []string
	for i, c := range pkgs {
		k := strings.ToLower(c.Name)
		j, ok := first[k]
		switch {
		case !ok:
			first[k] = i
		case groups[k] == nil:
			keys = append(keys, k)
			groups[k] = []Candidate{pkgs[j], c}
		default:
			groups[k] = append(groups[k], c)
		}
	}
	sort.Strings(keys)

	var out []Collision
	for _, k := range keys {
		if c, ok := s.collision(groups[k]); ok {
			out = append(out, c)
		}
	}
	return out
}

// collision describes a group of files whose package names are equal
// ignoring case, in the engine's priority order: one finding saying which
// file the engine loads, on which file system. Its kind is the strongest
// difference: another extension (collision), else another folder
// (shadowed), else the case of the name alone (case).
func (s *Searcher) collision(g []Candidate) (Collision, bool) {
	win := g[0]
	var exts, shadows, cases, others []string
	caseDiff := false
	for _, c := range g[1:] {
		switch {
		case c.PathIndex == win.PathIndex && c.Localized != win.Localized:
			continue // the localized stand-in and its plain file
		case !strings.EqualFold(s.pats[c.PathIndex].ext, s.pats[win.PathIndex].ext):
			exts = append(exts, c.Rel)
		case !strings.EqualFold(c.Rel, win.Rel):
			shadows = append(shadows, c.Rel)
		default:
			cases = append(cases, c.Rel)
		}
		others = append(others, c.Rel)
		caseDiff = caseDiff || c.Name != win.Name
	}
	if len(others) == 0 {
		return Collision{}, false
	}
	c := Collision{Kind: KindCase, Name: win.Name, Winner: win.Rel, Others: others}
	var parts []string
	if len(exts) > 0 {
		c.Kind = KindCollision
		parts = append(parts, fmt.Sprintf("%s can never be loaded by name (same name, another extension, later in Paths)", strings.Join(exts, ", ")))
	}
	if len(shadows) > 0 {
		if c.Kind == KindCase {
			c.Kind = KindShadowed
		}
		parts = append(parts, fmt.Sprintf("%s is never loaded (same file name in a later Paths folder)", strings.Join(shadows, ", ")))
	}
	if len(cases) > 0 {
		parts = append(parts, fmt.Sprintf("%s differs only in case", strings.Join(cases, ", ")))
	}
	if !caseDiff {
		c.Message = fmt.Sprintf("%s: %s is loaded; %s", win.Name, win.Rel, strings.Join(parts, "; "))
		return c, true
	}
	// The names differ in case too: a case-insensitive file system loads
	// the winner for every spelling, a case-sensitive one the first file
	// in Paths order whose name is spelled as the import spells it.
	var bySpelling []string
	seen := map[string]bool{}
	for _, f := range g {
		if !seen[f.Name] {
			seen[f.Name] = true
			bySpelling = append(bySpelling, fmt.Sprintf("%q loads %s", f.Name, f.Rel))
		}
	}
	c.Message = fmt.Sprintf("%s: on a case-insensitive file system (Windows) %s is loaded for every spelling and %s; on a case-sensitive one (Linux) the spelling decides: %s",
		win.Name, win.Rel, strings.Join(parts, "; "), strings.Join(bySpelling, ", "))
	return c, true
}
