package ini

import (
	"cmp"
	"slices"
	"strings"
)

// ListProblem is a ServerPackages, ServerActors or EditPackages line the
// engine reads otherwise than its author probably meant: a repeat of an
// earlier entry, or an entry in a section the engine does not read that
// key from.
type ListProblem struct {
	Section string // the section of the line, as spelled in its header
	Key     string // as spelled in the file
	Value   string
	Line    int
	// First is the line of the earlier entry a repeat repeats (0 for a
	// misplaced line), FirstValue its value (it may differ in case).
	First      int
	FirstValue string
	// ReadFrom is, for a misplaced line, the section the engine reads the
	// key from.
	ReadFrom string
}

// Misplaced reports whether the line is in a section the engine does not
// read the key from (else it repeats line First).
func (p ListProblem) Misplaced() bool { return p.First == 0 }

// listKeys are the list keys checked, with the sections that hold them.
// EditPackages repeats are left to the EditPackages order check, which
// reports them as errors.
var listKeys = []struct {
	key      string
	sections func(f *File) []string // the sections the engine reads it from; the first is named
	repeats  bool                   // check for repeats
}{
	{"ServerPackages", gameEngineSections, true},
	{"ServerActors", gameEngineSections, true},
	{"EditPackages", func(*File) []string { return []string{SectionEditor} }, false},
}

// gameEngineSections are the sections ServerPackages and ServerActors are
// read from: the config section of the game engine class ([Engine.Engine]
// GameEngine=, Engine.GameEngine by default). A subclass reads its own
// section (a config variable that is not globalconfig is read from the
// section of the object's class): Deus Ex's DeusEx.DeusExGameEngine reads
// only [DeusEx.DeusExGameEngine]. [Engine.GameEngine] and
// [XC_Engine.XC_GameEngine] are read together otherwise, as ServerPackages
// merges them.
func gameEngineSections(f *File) []string {
	v, ok := f.Value(SectionEngine, "GameEngine")
	if ok && strings.Count(v, ".") == 1 && !strings.EqualFold(v, SectionGameEngine) && !strings.EqualFold(v, SectionXCGameEngine) {
		return []string{v}
	}
	return []string{SectionGameEngine, SectionXCGameEngine}
}

// engineLike reports whether a section belongs to the engine's own classes
// (Engine.*, Editor.*, XC_Engine.*, or a *GameEngine/*EditorEngine class of
// any package): a mod's own config section may have keys of these names
// for its own use.
func engineLike(section string) bool {
	pkg, class, _ := strings.Cut(strings.ToLower(section), ".")
	switch pkg {
	case "engine", "editor", "xc_engine":
		return true
	}
	return strings.HasSuffix(class, "gameengine") || strings.HasSuffix(class, "editorengine")
}

// ListProblems returns the repeated ServerPackages and ServerActors lines
// and the misplaced ones of these and EditPackages, in line order. A repeat
// is the same value again, ignoring case (the engine loads the package once
// and spawns a ServerActors class twice), within the sections the engine
// reads the key from, merged.
// A misplaced line is one of these keys in another section of the
// engine's classes ([Engine.GameInfo]), which the engine never reads for
// it.
func (f *File) ListProblems() []ListProblem {
	var out []ListProblem
	for _, lk := range listKeys {
		read := lk.sections(f)
		seen := map[string]Entry{}
		for _, sec := range read {
			if !lk.repeats {
				break
			}
			for _, e := range f.entries(sec, lk.key) {
				if e.Value == "" {
					continue
				}
				k := strings.ToLower(e.Value)
				if first, dup := seen[k]; dup {
					out = append(out, ListProblem{Section: f.sectionName(sec), Key: e.Key, Value: e.Value, Line: e.Line,
						First: first.Line, FirstValue: first.Value})
					continue
				}
				seen[k] = e
			}
		}
		for _, sec := range f.Sections() {
			if !engineLike(sec) || containsFold(read, sec) {
				continue
			}
			for _, e := range f.Entries(sec, lk.key) {
				out = append(out, ListProblem{Section: sec, Key: e.Key, Value: e.Value, Line: e.Line, ReadFrom: read[0]})
			}
		}
	}
	sortProblems(out)
	return out
}

func (f *File) sectionName(lower string) string {
	if sec := f.sections[strings.ToLower(lower)]; sec != nil {
		return sec.name
	}
	return lower
}

func containsFold(list []string, s string) bool {
	for _, v := range list {
		if strings.EqualFold(v, s) {
			return true
		}
	}
	return false
}

func sortProblems(ps []ListProblem) {
	slices.SortStableFunc(ps, func(a, b ListProblem) int { return cmp.Compare(a.Line, b.Line) })
}
