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

// scan reads the decoded text line by line with the engine's rules and
// writes the normalised text that gopkg.in/ini.v1 then parses. The engine
// reads an ini like this:
//
//   - "\r\n", "\n" and a lone "\r" end a line; blanks at the start of a line
//     are skipped.
//   - A line starting with "[" is a section header; the name runs to the first
//     "]" and the rest of the line is ignored. Sections with the same name
//     (ignoring case) are one section.
//   - Any other line is "key=value", split at the first "=", with blanks
//     around key and value dropped. Lines before the first section, and lines
//     without "=", are ignored. ";" (and "#") lines are comments: the engine
//     reads them as keys named ";..." that nothing ever looks up.
//
// ini.v1 gives some lines meanings the engine does not have, so the scanner
// writes only headers and key lines, in a form ini.v1 reads back exactly:
// values starting with a backquote or with three double quotes (multi-line
// values for ini.v1) are wrapped in backquotes, keys starting with a quote or
// backquote (quoted names for ini.v1) and the key "-" (an auto-numbered key)
// are dropped (no Unreal setting is named so), and a header equal to the
// current section is not repeated.
//
// Errors: a line longer than MaxLineLength, a "[" line with no "]", an empty
// section name, more than MaxKeyLines key lines, and files whose distinct
// names would cost ini.v1 more than maxNameWork comparisons.
func scan(name, text string) (*scanned, error) {
	for strings.HasPrefix(text, "\uFEFF") {
		text = text[len("\uFEFF"):]
	}
	// Every "=" may start a key line: size the tables once.
	maxKeys := min(strings.Count(text, "=")+1, MaxKeyLines)
	s := &scanned{
		text:     make([]byte, 0, len(text)+len(text)/16),
		keys:     make([]keyLine, 0, maxKeys),
		sections: make(map[string]sectionLine),
		groups:   make(map[keyID]int, maxKeys),
	}
	// Model of ini.v1's name lists: the section list starts with "default";
	// position[g] is the place of group g in its section's key list.
	sectionIndex := map[string]int{"default": 0}
	sectionKeys := map[string]int{} // distinct keys so far, by section
	var position []int
	work := 0
	current := ""
	lineNo := 0
	for len(text) > 0 {
		lineNo++
		end := strings.IndexAny(text, "\r\n")
		var line string
		if end < 0 {
			line, text = text, ""
		} else {
			line = text[:end]
			if text[end] == '\r' && end+1 < len(text) && text[end+1] == '\n' {
				end++
			}
			text = text[end+1:]
		}
		if len(line) > MaxLineLength {
			return nil, &Error{File: name, Line: lineNo, Msg: fmt.Sprintf("line too long: %d bytes (limit %d)", len(line), MaxLineLength)}
		}
		l := strings.TrimLeftFunc(line, unicode.IsSpace)
		if l == "" || l[0] == ';' || l[0] == '#' {
			continue
		}
		if l[0] == '[' {
			end := strings.IndexByte(l, ']')
			if end < 0 {
				return nil, &Error{File: name, Line: lineNo, Msg: fmt.Sprintf("unterminated section header %s", quote(l))}
			}
			sec := l[1:end]
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
			if i, ok := sectionIndex[lower]; ok {
				work += i + 1
			} else {
				work += len(sectionIndex)
				sectionIndex[lower] = len(sectionIndex)
			}
			if work > maxNameWork {
				return nil, &Error{File: name, Line: lineNo, Msg: fmt.Sprintf("too many distinct sections (%d so far): not a game ini?", len(sectionIndex)-1)}
			}
			// ini.v1 keeps "DEFAULT" as spelled but lower-cases every other
			// name; writing it lower-case keeps all spellings together.
			if lower == "default" {
				sec = lower
			}
			s.text = append(s.text, '[')
			s.text = append(s.text, sec...)
			s.text = append(s.text, "]\n"...)
			continue
		}
		if current == "" {
			continue
		}
		eq := strings.IndexByte(l, '=')
		if eq < 0 {
			continue
		}
		key := strings.TrimSpace(l[:eq])
		if key == "" || key == "-" || key[0] == '"' || key[0] == '`' {
			continue
		}
		value := strings.TrimSpace(l[eq+1:])
		lowerKey := strings.ToLower(key)
		id := keyID{current, lowerKey}
		g, ok := s.groups[id]
		if ok {
			work += position[g] + 1
		} else {
			n := sectionKeys[current]
			work += n
			sectionKeys[current] = n + 1
			g = len(s.members)
			s.groups[id] = g
			s.members = append(s.members, nil)
			position = append(position, n)
		}
		if work > maxNameWork {
			return nil, &Error{File: name, Line: lineNo, Msg: fmt.Sprintf("too many distinct keys in section [%s] (%d so far): not a game ini?", s.sections[current].name, sectionKeys[current])}
		}
		if len(s.keys) == MaxKeyLines {
			return nil, &Error{File: name, Line: lineNo, Msg: fmt.Sprintf("too many key lines (limit %d): not a game ini?", MaxKeyLines)}
		}
		s.members[g] = append(s.members[g], int32(len(s.keys)))
		s.keys = append(s.keys, keyLine{line: lineNo, key: key, value: value})
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
	return s, nil
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
