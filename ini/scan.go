package ini

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// keyLine is one key=value line as the scanner saw it.
type keyLine struct {
	line  int    // 1-based line number in the file
	key   string // key as spelled in the file, surrounding blanks removed
	value string // value with surrounding blanks removed, quotes kept
}

// sectionLine is the first header line of a section.
type sectionLine struct {
	line int
	name string // spelling of the first header
}

// keyID names a key of a section, both lower-cased.
type keyID struct{ section, key string }

// scanned is what the scanner hands to the ini.v1 step.
type scanned struct {
	text     []byte                 // the normalised text ini.v1 parses
	keys     []keyLine              // every key line, in file order
	sections map[string]sectionLine // by lower-cased name
	order    []string               // lower-cased section names, first appearance order
	groups   map[keyID]int          // distinct keys, numbered from 0
	members  [][]int32              // by group: indices into keys, file order
}

// scan is the step before ini.v1: it reads the decoded text with Lines (the
// line rules are ClassifyLine's), enforces the limits, and writes the
// normalised text that gopkg.in/ini.v1 then parses: only section headers and
// key lines, in a form ini.v1 reads back exactly. Values starting with a
// backquote or with three double quotes (multi-line values for ini.v1) are
// wrapped in backquotes, a header equal to the current section is not
// repeated, and key lines before the first header are left out, as the
// engine ignores them. It also records what ini.v1 does not keep: line
// numbers and spellings.
//
// Errors: a line longer than MaxLineLength, an UnterminatedHeader, an empty
// section name, more than MaxKeyLines key lines, and files whose distinct
// names would cost ini.v1 more than maxNameWork comparisons (see nameWork).
func scan(name, text string) (*scanned, error) { return scanSections(name, text, nil) }

// scanSections is scan writing for ini.v1 the headers and key lines of the
// sections in only alone, when only is not nil (lower-cased names): every
// line is still read and held to the limits on lines, headers and key
// lines, with scan's errors; the bound on ini.v1's work (nameWork) counts
// the keys ini.v1 is given, not the others, which are neither kept nor
// looked up, and every header, given or not, so that a file with too many
// sections is refused as scan refuses it.
func scanSections(name, text string, only map[string]bool) (*scanned, error) {
	// Every "=" may start a key line: size the tables once (for a few
	// sections' keys, grown as found).
	maxKeys := min(strings.Count(text, "=")+1, MaxKeyLines)
	size := len(text) + len(text)/16
	if only != nil {
		maxKeys, size = 0, 0 // what ini.v1 is given is a few lines
	}
	s := &scanned{
		text:     make([]byte, 0, size),
		keys:     make([]keyLine, 0, maxKeys),
		sections: make(map[string]sectionLine),
		groups:   make(map[keyID]int, maxKeys),
	}
	var work nameWork
	current, keyLines := "", 0
	keep := only == nil // current's keys go to ini.v1
	for ln := range Lines(text) {
		lineNo := ln.Num
		if len(ln.Text) > MaxLineLength {
			return nil, &Error{File: name, Line: lineNo, Msg: fmt.Sprintf("line too long: %d bytes (limit %d)", len(ln.Text), MaxLineLength)}
		}
		switch ln.Kind {
		case UnterminatedHeader:
			return nil, &Error{File: name, Line: lineNo, Msg: fmt.Sprintf("unterminated section header %s", quote(strings.TrimLeftFunc(ln.Text, unicode.IsSpace)))}
		case HeaderLine:
			sec := ln.Name
			if sec == "" {
				return nil, &Error{File: name, Line: lineNo, Msg: "empty section name"}
			}
			lower := strings.ToLower(sec)
			if _, ok := s.sections[lower]; !ok {
				s.sections[lower] = sectionLine{line: lineNo, name: sec}
				s.order = append(s.order, lower)
			}
			if lower == current {
				continue
			}
			current = lower
			keep = only == nil || only[lower]
			if !work.section(lower) {
				return nil, &Error{File: name, Line: lineNo, Msg: fmt.Sprintf("too many distinct sections (%d so far): not a game ini?", work.sections())}
			}
			if !keep {
				continue // no keys for ini.v1: its header would only cost it a section
			}
			// ini.v1 keeps "DEFAULT" as spelled but lower-cases every other
			// name; writing it lower-case keeps all spellings together.
			if lower == "default" {
				sec = lower
			}
			s.text = append(s.text, '[')
			s.text = append(s.text, sec...)
			s.text = append(s.text, "]\n"...)
		case KeyLine:
			if current == "" {
				continue
			}
			// A line of a section not kept is counted, not kept: ini.v1 is
			// not given it.
			key, value := ln.Key, ln.Value
			g := -1
			if keep {
				id := keyID{current, strings.ToLower(key)}
				var ok bool
				if g, ok = s.groups[id]; !ok {
					g = len(s.members)
					s.groups[id] = g
					s.members = append(s.members, nil)
				}
				if !work.key(current, g, !ok) {
					return nil, &Error{File: name, Line: lineNo, Msg: fmt.Sprintf("too many distinct keys in section [%s] (%d so far): not a game ini?", s.sections[current].name, work.perSection[current])}
				}
			}
			if keyLines == MaxKeyLines {
				return nil, tooManyKeyLines(name, lineNo)
			}
			keyLines++
			if !keep {
				continue
			}
			s.members[g] = append(s.members[g], int32(len(s.keys)))
			s.keys = append(s.keys, keyLine{line: lineNo, key: key, value: value})
			s.writeKey(key, value)
		}
	}
	return s, nil
}

func tooManyKeyLines(name string, line int) error {
	return &Error{File: name, Line: line, Msg: fmt.Sprintf("too many key lines (limit %d): not a game ini?", MaxKeyLines)}
}

// writeKey writes a key line for ini.v1: a value that starts with a
// backquote or three double quotes is wrapped in backquotes.
func (s *scanned) writeKey(key, value string) {
	s.text = append(s.text, key...)
	s.text = append(s.text, '=')
	if strings.HasPrefix(value, "`") || strings.HasPrefix(value, `"""`) {
		s.text = append(s.text, '`')
		s.text = append(s.text, value...)
		s.text = append(s.text, '`')
	} else {
		s.text = append(s.text, value...)
	}
	s.text = append(s.text, '\n')
}

// nameWork is the bound on ini.v1's quadratic name lookups. gopkg.in/ini.v1
// (v1.67) finds an existing section, or a key of a section, by walking a list
// of the names so far, so a file with n distinct keys in one section costs
// about n*n/2 string comparisons. nameWork counts them as ini.v1 will make
// them, on the text scan writes, and refuses a file once the count passes
// maxNameWork (see limits.go).
type nameWork struct {
	total      int
	sectionAt  map[string]int // ini.v1's section list, which starts with "default"
	perSection map[string]int // distinct keys so far, by section
	position   []int          // by key group: its place in its section's key list
}

// section counts ini.v1's lookup of a header; false when over the bound.
func (w *nameWork) section(lower string) bool {
	if w.sectionAt == nil {
		w.sectionAt = map[string]int{"default": 0}
		w.perSection = map[string]int{}
	}
	if i, ok := w.sectionAt[lower]; ok {
		w.total += i + 1
	} else {
		w.total += len(w.sectionAt)
		w.sectionAt[lower] = len(w.sectionAt)
	}
	return w.total <= maxNameWork
}

// sections is the number of distinct sections so far.
func (w *nameWork) sections() int { return len(w.sectionAt) - 1 }

// key counts ini.v1's lookup of a key line of group g (new: its first
// line); false when over the bound.
func (w *nameWork) key(section string, g int, isNew bool) bool {
	if isNew {
		n := w.perSection[section]
		w.total += n
		w.perSection[section] = n + 1
		w.position = append(w.position, n)
	} else {
		w.total += w.position[g] + 1
	}
	return w.total <= maxNameWork
}

// quote shortens and quotes a line for an error message.
func quote(s string) string {
	const max = 60
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return fmt.Sprintf("%q...", s[:cut])
	}
	return fmt.Sprintf("%q", s)
}
