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
	m := make(map[string]located, len(out))
	for i, r := range res {
		if out[i].Wins {
			// The same file: its candidate's strings, not a second copy.
			r.File, r.Rel = out[i].File, out[i].Rel
		}
		m[out[i].Name] = located{r.File, r.Rel, r.Step, int32(r.PathIndex), r.CaseMismatch}
	}
	s.located.Store(&m)
	return out
}

// located is what Locate answers for a name Packages looked up: a Result
// without the name (the key) and the lists Locate leaves nil, so that an
// install's 20,000 names keep 64 bytes each, not 160.
type located struct {
	file, rel, step string
	pathIndex       int32
	caseMismatch    bool
}

// result is l as Locate returns it for name.
func (l located) result(name string) Result {
	return Result{Name: name, File: l.file, Rel: l.rel, Step: l.step, PathIndex: int(l.pathIndex), CaseMismatch: l.caseMismatch}
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
