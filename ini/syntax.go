package ini

import (
	"cmp"
	"slices"
	"strings"
)

// ForGame returns the file as the engine of game g reads it. Every engine
// reads the syntax the package documentation describes; a profile with
// AppendSyntax (SWRC) also reads "Key+=Value" as one more entry of the
// list Key, in file order among Key's repeated lines (Entry.Append is set).
// Other engines read such a line as a key named "Key+" that no setting
// has: in f, and in what ForGame returns for them, it stays that key.
//
// ForGame returns f itself when nothing changes. Otherwise f is not
// modified; the result is a new File sharing f's unchanged sections.
func (f *File) ForGame(g Game) *File {
	p := g.Profile()
	if p == nil || !p.AppendSyntax() || len(f.AppendLines()) == 0 {
		return f
	}
	out := &File{Path: f.Path, sections: make(map[string]*section, len(f.sections)), order: f.order}
	for lower, sec := range f.sections {
		if !sec.hasAppends() {
			out.sections[lower] = sec
			continue
		}
		ns := &section{name: sec.name, line: sec.line, all: make(map[string][]Entry, len(sec.all))}
		for key, all := range sec.all {
			base, ok := appendBase(key)
			if !ok {
				ns.all[key] = append(ns.all[key], all...)
				continue
			}
			for _, e := range all {
				e.Append, e.Index = true, -1
				ns.all[base] = append(ns.all[base], e)
			}
		}
		for key, all := range ns.all {
			slices.SortFunc(all, func(a, b Entry) int { return cmp.Compare(a.Line, b.Line) }) // lines are unique
			ns.all[key] = all
		}
		ns.finish()
		out.sections[lower] = ns
	}
	return out
}

// AppendLines returns the "Key+=Value" lines of every section, in file
// order: the lines a game with AppendSyntax reads as
// appends and any other reads as keys of their own (worth a warning there).
// The caller owns the returned slice.
func (f *File) AppendLines() []AppendLine {
	var out []AppendLine
	for _, lower := range f.order {
		sec := f.sections[lower]
		for key, all := range sec.all {
			if _, ok := appendBase(key); !ok {
				continue
			}
			for _, e := range all {
				out = append(out, AppendLine{Section: sec.name, Entry: e})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b AppendLine) int { return cmp.Compare(a.Line, b.Line) })
	return out
}

// AppendLine is a "Key+=Value" line and the section it is in.
type AppendLine struct {
	Section string // as spelled in its first header
	Entry          // Key is spelled with its "+" ("Paths+")
}

// appendGames are the games whose inis append to lists with "Key+=Value":
// SWRC's System.ini (Paths+=, EditPackages+=, ServerPackages+=,
// ServerActors+=; issue 26).
var appendGames = map[Game]bool{SWRC: true}

// AppendSyntax reports whether the game's engine reads "Key+=Value" as an
// append to the list Key (see File.ForGame).
func (p *Profile) AppendSyntax() bool { return appendGames[p.Game] }

// hasAppends reports whether the section has a "Key+=" line.
func (s *section) hasAppends() bool {
	for key := range s.all {
		if _, ok := appendBase(key); ok {
			return true
		}
	}
	return false
}

// appendBase returns the list a lower-cased key "paths+" appends to
// ("paths"). Blanks before the "+" are not part of the name ("Paths +=").
func appendBase(key string) (string, bool) {
	base, ok := strings.CutSuffix(key, "+")
	base = strings.TrimSpace(base)
	if !ok || base == "" || strings.HasSuffix(base, "+") {
		return "", false
	}
	if _, _, indexed := splitIndex(base); indexed {
		return "", false // "Paths[0]+=": no engine writes it
	}
	return base, true
}
