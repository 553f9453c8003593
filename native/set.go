package native

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"
)

// Source says where a package's class list came from.
type Source struct {
	Kind  string // "binary" or "table"
	Path  string // the binary's path (Kind "binary")
	Table string // the table's name (Kind "table")
	// UsedInstead, for a binary Set.Ignored lists, is the path of the
	// binary of the same package that was used.
	UsedInstead string
}

// Kinds of Source.
const (
	SourceBinary = "binary"
	SourceTable  = "table"
)

// Set is what one install knows about native classes: the binaries read
// from its folders and, for packages without a binary, fallback tables.
// The zero value is empty and ready to use; a nil *Set knows nothing.
type Set struct {
	// Game is the game profile the set was loaded for (ini.Game's Name),
	// "" when unknown: a table made for another game is only a guess at
	// this game's native classes (Exact).
	Game    string
	bins    map[string]*setPkg // lower-cased package
	tabs    map[string]*setPkg
	ignored []Source
}

type setPkg struct {
	name    string
	classes []string        // sorted case-insensitively
	has     map[string]bool // lower-cased classes
	src     Source
}

func newSetPkg(name string, classes []string, src Source) *setPkg {
	p := &setPkg{name: name, classes: sortClasses(slices.Clone(classes)), has: map[string]bool{}, src: src}
	for _, c := range p.classes {
		p.has[strings.ToLower(c)] = true
	}
	return p
}

// NewSet returns an empty set.
func NewSet() *Set { return &Set{} }

// AddBinary adds the classes of a binary. The first binary of a package
// wins (Core.dll and Core.so of one install list the same classes); a later
// one is recorded in Ignored. The set copies what it keeps of b.
func (s *Set) AddBinary(b *Binary) {
	key := strings.ToLower(b.Package)
	src := Source{Kind: SourceBinary, Path: b.Path}
	if kept := s.bins[key]; kept != nil {
		if samePath(kept.src.Path, b.Path) {
			return // the same file, found through two spellings of its folder
		}
		src.UsedInstead = kept.src.Path
		s.ignored = append(s.ignored, src)
		return
	}
	if s.bins == nil {
		s.bins = map[string]*setPkg{}
	}
	s.bins[key] = newSetPkg(b.Package, b.Classes, src)
}

// AddTable adds a fallback table: its list of a package is used only while
// no binary of that package is added, and only if no earlier table has
// the package. The set copies what it keeps of t.
func (s *Set) AddTable(t *Table) {
	if s.tabs == nil {
		s.tabs = map[string]*setPkg{}
	}
	for _, pkg := range sortedKeys(t.Packages) {
		key := strings.ToLower(pkg)
		if s.tabs[key] == nil {
			s.tabs[key] = newSetPkg(pkg, t.Packages[pkg], Source{Kind: SourceTable, Table: t.Name})
		}
	}
}

func (s *Set) lookup(pkg string) *setPkg {
	if s == nil {
		return nil
	}
	key := strings.ToLower(pkg)
	if p := s.bins[key]; p != nil {
		return p
	}
	return s.tabs[key]
}

// Has reports whether class is a native class of pkg, ignoring case.
func (s *Set) Has(pkg, class string) bool {
	p := s.lookup(pkg)
	return p != nil && p.has[strings.ToLower(class)]
}

// HasPackage reports whether a binary or a table says pkg has native code.
func (s *Set) HasPackage(pkg string) bool { return s.lookup(pkg) != nil }

// FromBinary reports whether a binary of pkg was read, so that its list
// is exact for this install rather than a table's guess.
func (s *Set) FromBinary(pkg string) bool {
	return s != nil && s.bins[strings.ToLower(pkg)] != nil
}

// Exact reports whether the set's list of pkg's native classes is this
// game's: read from a binary, or from a built-in table made for Game (any
// table when Game is ""). A list from another game's table (Unreal 227
// falls back on UT99's) may lack classes the game's binary registers.
func (s *Set) Exact(pkg string) bool {
	p := s.lookup(pkg)
	switch {
	case p == nil:
		return false
	case p.src.Kind == SourceBinary || s.Game == "":
		return true
	}
	t := Builtin(p.src.Table)
	return t == nil || strings.EqualFold(t.Game, s.Game)
}

// Classes returns the native classes of pkg, sorted case-insensitively,
// and where the list came from; ok is false when nothing knows pkg. The
// caller owns the slice.
func (s *Set) Classes(pkg string) (classes []string, src Source, ok bool) {
	p := s.lookup(pkg)
	if p == nil {
		return nil, Source{}, false
	}
	return slices.Clone(p.classes), p.src, true
}

// Packages returns the packages the set knows, spelled as their source
// spells them (a binary's spelling over a table's), sorted
// case-insensitively.
func (s *Set) Packages() []string {
	if s == nil {
		return nil
	}
	names := map[string]string{}
	for k, p := range s.tabs {
		names[k] = p.name
	}
	for k, p := range s.bins {
		names[k] = p.name
	}
	out := slices.Collect(maps.Values(names))
	slices.SortFunc(out, compareFold)
	return out
}

// Ignored returns the binaries AddBinary did not use because an earlier
// binary of the same package was added (UsedInstead names it), in the
// order they were added. A binary added twice is not listed.
func (s *Set) Ignored() []Source {
	if s == nil {
		return nil
	}
	return slices.Clone(s.ignored)
}

// samePath reports whether two paths name the same file: equal once made
// absolute and clean.
func samePath(a, b string) bool {
	return absPath(a) == absPath(b)
}

func absPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return filepath.Clean(p)
}
