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
	// Winner is, for a misplaced line that a more derived class's section
	// (ReadFrom) overrides, the first line of the key there, which the
	// engine reads instead; the zero Entry otherwise.
	Winner Entry
}

// Overridden reports whether the line is in a parent class's section whose
// key a more derived section overrides (Winner).
func (p ListProblem) Overridden() bool { return p.Misplaced() && p.Winner.Line > 0 }

// Misplaced reports whether the line is in a section the engine does not
// read the key from (else it repeats line First).
func (p ListProblem) Misplaced() bool { return p.First == 0 }

// listKeys are the list keys checked, with the sections that hold them.
// EditPackages repeats are left to the EditPackages order check, which
// reports them as errors.
var listKeys = []struct {
	key      string
	sections func(f *File, key string) []string // the sections the engine reads it from; the first is named
	repeats  bool                               // check for repeats
}{
	{"ServerPackages", gameEngineSectionsFor, true},
	{"ServerActors", gameEngineSectionsFor, true},
	{"EditPackages", func(*File, string) []string { return []string{SectionEditor} }, false},
}

// gameEngineSubclass returns the game engine class [Engine.Engine]
// GameEngine= names when it is a subclass of Engine.GameEngine other than
// XC_Engine's ("DeusEx.DeusExGameEngine", "SwatGame.SwatGameEngine"), or "".
func gameEngineSubclass(f *File) string {
	v, ok := f.Value(SectionEngine, "GameEngine")
	if ok && strings.Count(v, ".") == 1 && !strings.EqualFold(v, SectionGameEngine) && !strings.EqualFold(v, SectionXCGameEngine) {
		return v
	}
	return ""
}

// gameEngineSectionsFor are the sections a key of the game engine
// (ServerPackages, ServerActors, UT2004's MainMenuClass, ...) is read from.
//
// The engine's config follows class inheritance: a class's defaults start
// as its parent's (https://wiki.beyondunreal.com/Defaultproperties: "If a
// property is not mentioned in the defaultproperties block, its default
// value is inherited from the parent class"), and loading a class's config
// replaces only the properties whose keys its own section has
// (https://wiki.beyondunreal.com/Legacy:Config_Vars_And_.Ini_Files: the
// section of a class is [Package.Class]). So for a game engine subclass
// ([Engine.Engine] GameEngine=) the most derived section that has the key
// wins, whole (an array as a whole), and a key its own section lacks keeps
// [Engine.GameEngine]'s value. Deus Ex's inis keep ServerActors in
// [DeusEx.DeusExGameEngine] (that section wins); SWAT 4's stock inis set
// GameEngine=SwatGame.SwatGameEngine, have no section of that class and
// list ServerPackages under [Engine.GameEngine], which the engine then
// reads. A subclass's intermediate parents are not known here (only the
// ini is read): the chain is the subclass and Engine.GameEngine.
// [XC_Engine.XC_GameEngine] is a sibling of such a subclass and is not
// read. Without a subclass (GameEngine= Engine.GameEngine or
// XC_Engine.XC_GameEngine), [Engine.GameEngine] and
// [XC_Engine.XC_GameEngine] are read together, as ServerPackages merges
// them.
func gameEngineSectionsFor(f *File, key string) []string {
	sub := gameEngineSubclass(f)
	if sub == "" {
		return []string{SectionGameEngine, SectionXCGameEngine}
	}
	if f.HasKey(sub, key) || !f.HasKey(SectionGameEngine, key) {
		return []string{sub}
	}
	return []string{SectionGameEngine}
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
// it, or in [Engine.GameEngine] when a game engine subclass's own section
// has the key (Overridden; see gameEngineSectionsFor).
func (f *File) ListProblems() []ListProblem {
	var out []ListProblem
	for _, lk := range listKeys {
		read := lk.sections(f, lk.key)
		var winner Entry
		if w := f.Entries(read[0], lk.key); len(w) > 0 {
			winner = w[0]
		}
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
				p := ListProblem{Section: sec, Key: e.Key, Value: e.Value, Line: e.Line, ReadFrom: f.sectionName(read[0])}
				if strings.EqualFold(sec, SectionGameEngine) && len(read) == 1 {
					p.Winner = winner // the subclass's own section overrides the parent's
				}
				out = append(out, p)
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
