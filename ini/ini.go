package ini

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	goini "gopkg.in/ini.v1"

	"github.com/upkdeps/upkdeps/internal/fsutil"
)

// File is a parsed ini file. Its methods look sections and keys up
// case-insensitively, as the engine does, and return values as spelled in
// the file.
type File struct {
	Path string // the name given to Load or Parse

	sections map[string]*section // by lower-cased name
	order    []string            // lower-cased names, first appearance order
}

// section holds every key line of one section (all headers with the same name,
// ignoring case, together).
type section struct {
	name  string             // spelling of the first header
	line  int                // line of the first header
	all   map[string][]Entry // by lower-cased base key ("paths" for Paths[2] too): every line, file order
	array map[string][]Entry // the engine's list (see finish) where it differs from all
}

// Entry is one key=value line of a section.
type Entry struct {
	Key   string // key as spelled in the file, e.g. "Paths" or "Paths[3]"
	Index int    // array index of an indexed key ("Paths[3]" is 3); -1 for a plain key
	Value string // value with surrounding blanks and one pair of surrounding double quotes removed
	Line  int    // 1-based line number
	// Append is set on a "Key+=Value" line read as an append to Key's list,
	// as a game whose profile has AppendSyntax reads it (see File.ForGame).
	Append bool
}

// loadOptions configure gopkg.in/ini.v1 (v1.67.3: LoadOptions in its ini.go,
// the line reader in its parser.go) for Unreal inis; scan writes the lines it
// is given. Options left off: AllowNonUniqueSections (the engine merges
// headers with the same name; so does ini.v1 without it), SpaceBeforeInlineComment
// and UnescapeValueCommentSymbols (the engine has no inline comments: ";" and
// "#" are value characters), UnescapeValueDoubleQuotes (the engine does not
// unescape \" in values), AllowBooleanKeys and AllowPythonMultilineValues
// (no such lines in Unreal inis), and ini.v1's quote removal, which also
// strips single quotes: PreserveSurroundedQuote keeps them and Unquote removes
// one pair of double quotes as the engine does.
var loadOptions = goini.LoadOptions{
	InsensitiveSections:        true, // [IpDrv.HTTPDownLoad] is [IpDrv.HTTPDownload]
	InsensitiveKeys:            true,
	AllowShadows:               true,   // repeated keys are arrays...
	AllowDuplicateShadowValues: true,   // ...and keep repeated values
	KeyValueDelimiters:         "=",    // values hold ':'
	ChildSectionDelimiter:      "\x00", // no [Core] -> [Core.System] inheritance; text never holds NUL
	IgnoreContinuation:         true,   // "DemoPaths[0]=C:\Demos\" ends in a backslash
	IgnoreInlineComment:        true,   // values hold ';' and '#'
	PreserveSurroundedQuote:    true,   // quotes are removed by our rule, not ini.v1's
	SkipUnrecognizableLines:    true,
}

// Load reads and parses the ini file at path. Files larger than MaxFileSize
// are refused before they are read.
func Load(path string) (*File, error) { return load(path, nil) }

// LoadSections is Load for a caller that reads only the named sections
// (any case): the File has every section, with its name and line, but the
// keys of those sections alone. The whole file is read and checked as Load
// checks it (the same errors for its lines, headers and number of key
// lines); the other sections' keys are counted, not kept or parsed, and
// the bound on the parser's work counts only the keys it parses (Load
// refuses a file whose keys would cost it too much, wherever they are): a
// localisation file's [Public] lines are a fraction of it.
func LoadSections(path string, sections ...string) (*File, error) {
	only := make(map[string]bool, len(sections))
	for _, s := range sections {
		only[strings.ToLower(s)] = true
	}
	return load(path, only)
}

// load is Load, with the keys of the sections in only alone when only is
// not nil (lower-cased names).
func load(path string, only map[string]bool) (*File, error) {
	data, err := fsutil.ReadRegular(path, MaxFileSize)
	var nr *fsutil.NotRegularError
	var big *fsutil.TooBigError
	var pe *os.PathError
	switch {
	case errors.As(err, &nr) && nr.Mode.IsDir():
		return nil, &Error{File: path, Msg: "is a directory"}
	case errors.As(err, &nr):
		return nil, &Error{File: path, Msg: (&fsutil.NotRegularError{Mode: nr.Mode}).Error()}
	case errors.As(err, &big):
		return nil, tooBig(path, big.Size)
	case errors.As(err, &pe) && pe.Op == "read":
		return nil, &Error{File: path, Msg: pe.Err.Error()}
	case err != nil:
		return nil, fmt.Errorf("ini: %w", err)
	}
	return parse(path, data, only)
}

func tooBig(name string, size int64) error {
	return &Error{File: name, Msg: fmt.Sprintf("file too large: %d bytes (limit %d)", size, MaxFileSize)}
}

// Parse parses data as an ini file called name (used in errors, by Dir, and
// by GuessGame). An empty file is valid and has no sections.
//
// Text with a UTF-16 (LE or BE) or UTF-8 byte-order mark is read as such;
// text without one is UTF-8 when it is valid UTF-8 and Latin-1 otherwise, as
// the engine widens ANSI text byte by byte. The package documentation gives
// the line rules. Errors are *Error values naming the file and, where there
// is one, the line.
func Parse(name string, data []byte) (*File, error) { return parse(name, data, nil) }

// parse is Parse, with the keys of the sections in only alone when only is
// not nil (lower-cased names; see LoadSections).
func parse(name string, data []byte, only map[string]bool) (*File, error) {
	if len(data) > MaxFileSize {
		return nil, tooBig(name, int64(len(data)))
	}
	text, _, err := Decode(name, data)
	if err != nil {
		return nil, err
	}
	sc, err := scanSections(name, text, only)
	if err != nil {
		return nil, err
	}
	gf, err := goini.LoadSources(loadOptions, sc.text)
	if err != nil {
		return nil, &Error{File: name, Msg: "gopkg.in/ini.v1: " + err.Error()}
	}
	return build(name, sc, gf), nil
}

// build indexes what ini.v1 parsed. ini.v1 holds the values; the scan adds
// line numbers and spellings: a key's lines, in file order, take ini.v1's
// values in order (ini.v1 leaves empty values out of ValueWithShadows; the
// scan knows which lines have one). That the two read the same sections,
// keys and values is proven by FuzzParse (agree), not checked here; a
// mismatch could only misplace a value, never fail or panic.
func build(name string, sc *scanned, gf *goini.File) *File {
	f := &File{Path: name, sections: make(map[string]*section, len(sc.order)), order: sc.order}
	for _, lower := range sc.order {
		sl := sc.sections[lower]
		f.sections[lower] = &section{name: sl.name, line: sl.line}
	}
	for _, gs := range gf.Sections() {
		sec := f.sections[gs.Name()]
		if sec == nil {
			continue // ini.v1's DEFAULT section, when the file has none
		}
		keys := gs.Keys()
		if sec.all == nil {
			sec.all = make(map[string][]Entry, len(keys))
		}
		for _, gk := range keys {
			g, ok := sc.groups[keyID{gs.Name(), gk.Name()}]
			if !ok {
				continue
			}
			base, index, indexed := splitIndex(gk.Name())
			if !indexed {
				base, index = gk.Name(), -1
			}
			recs := sc.members[g]
			values := gk.ValueWithShadows()
			all := sec.all[base]
			if all == nil {
				all = make([]Entry, 0, len(recs))
			}
			for _, ri := range recs {
				r := &sc.keys[ri]
				v := ""
				if r.value != "" && len(values) > 0 {
					v, values = values[0], values[1:]
				}
				all = append(all, Entry{Key: r.key, Index: index, Value: Unquote(v), Line: r.line})
			}
			sec.all[base] = all
		}
	}
	for _, sec := range f.sections {
		sec.finish()
	}
	return f
}

// finish orders every key's lines and computes the engine's list.
//
// A key can be written repeated (Paths=a, Paths=b: the 469 patch, UT2004) or
// indexed (Paths[0]=a, Paths[1]=b: older inis). When a section holds both,
// the list is the indexed entries in index order followed by the repeated
// ones in file order. For an index written twice the last line wins, as the
// engine's lookup of "Paths[1]" finds the newest pair. Gaps in the indices
// are skipped. (Later engines read only the repeated form when it is present;
// Entries shows both forms with line numbers for callers that want to warn.)
func (s *section) finish() {
	for base, all := range s.all {
		byLine := func(a, b Entry) int { return cmp.Compare(a.Line, b.Line) }
		if !slices.IsSortedFunc(all, byLine) {
			slices.SortFunc(all, byLine) // lines are unique
		}
		if !slices.ContainsFunc(all, func(e Entry) bool { return e.Index >= 0 }) {
			continue // the list is all, in file order
		}
		indexed := make([]Entry, 0, len(all))
		var plain []Entry
		at := make(map[int]int, len(all)) // index -> position in indexed
		for _, e := range all {
			switch p, seen := at[e.Index]; {
			case e.Index < 0:
				plain = append(plain, e)
			case seen:
				indexed[p] = e
			default:
				at[e.Index] = len(indexed)
				indexed = append(indexed, e)
			}
		}
		slices.SortFunc(indexed, func(a, b Entry) int { return cmp.Compare(a.Index, b.Index) }) // indices are unique
		if s.array == nil {
			s.array = make(map[string][]Entry)
		}
		s.array[base] = append(indexed, plain...)
	}
}

// splitIndex splits "paths[12]" into "paths" and 12. The index must be
// written as the engine writes it ("%i": no sign, blanks or leading zeros),
// otherwise the engine never finds the key and neither does this package.
func splitIndex(key string) (base string, index int, ok bool) {
	if !strings.HasSuffix(key, "]") {
		return key, -1, false
	}
	open := strings.LastIndexByte(key, '[')
	if open <= 0 {
		return key, -1, false
	}
	digits := key[open+1 : len(key)-1]
	if digits == "" || len(digits) > 9 || (len(digits) > 1 && digits[0] == '0') {
		return key, -1, false
	}
	for _, c := range []byte(digits) {
		if c < '0' || c > '9' {
			return key, -1, false
		}
	}
	n, _ := strconv.Atoi(digits)
	return key[:open], n, true
}

// entries returns the engine's list for a plain key (see finish), or the
// lines of exactly that key for an indexed one ("Paths[2]"), in file order.
// The result must not be modified.
func (f *File) entries(sectionName, key string) []Entry {
	sec := f.sections[strings.ToLower(sectionName)]
	if sec == nil {
		return nil
	}
	lower := strings.ToLower(key)
	base, _, indexed := splitIndex(lower)
	if !indexed {
		if list, ok := sec.array[lower]; ok {
			return list
		}
		return sec.all[lower]
	}
	var out []Entry
	for _, e := range sec.all[base] {
		if strings.ToLower(e.Key) == lower {
			out = append(out, e)
		}
	}
	return out
}

// Values returns the non-empty values of key in section: for a plain key
// ("Paths") the repeated and indexed forms merged as described on Entries;
// for an indexed key ("Paths[2]") the values of exactly that key, in file
// order. Lookups ignore case. It returns nil when there is none; the caller
// owns the returned slice.
func (f *File) Values(sectionName, key string) []string {
	var out []string
	for _, e := range f.entries(sectionName, key) {
		if e.Value != "" {
			out = append(out, e.Value)
		}
	}
	return out
}

// Value returns the first of Values and whether there is one.
func (f *File) Value(sectionName, key string) (string, bool) {
	v := f.Values(sectionName, key)
	if len(v) == 0 {
		return "", false
	}
	return v[0], true
}

// Last returns the last of Values and whether there is one. For a setting
// that holds one value (CachePath, RedirectToURL) this is the one the engine
// uses when the key is repeated: its config lookup finds the newest line.
func (f *File) Last(sectionName, key string) (string, bool) {
	v := f.Values(sectionName, key)
	if len(v) == 0 {
		return "", false
	}
	return v[len(v)-1], true
}

// HasKey reports whether section has at least one line for key, even with
// an empty value. For a plain key both forms count ("Paths" is there when
// only "Paths[0]" is).
func (f *File) HasKey(sectionName, key string) bool {
	return len(f.entries(sectionName, key)) > 0
}

// Entries returns every line for key in section, empty values included, in
// file order. For a plain key ("Paths") that is both the repeated lines and
// the indexed ones ("Paths[0]", with Index set). Values and the typed accessors
// merge them: the indexed entries in index order (for an index written twice,
// the last line), then the repeated ones in file order. The caller owns the
// returned slice.
func (f *File) Entries(sectionName, key string) []Entry {
	var src []Entry
	if _, _, indexed := splitIndex(strings.ToLower(key)); indexed {
		src = f.entries(sectionName, key)
	} else if sec := f.sections[strings.ToLower(sectionName)]; sec != nil {
		src = sec.all[strings.ToLower(key)]
	}
	if len(src) == 0 {
		return nil
	}
	return append([]Entry(nil), src...)
}

// SectionEntries returns every key line of section, empty values included,
// in file order: all keys, repeated and indexed, of all its headers. The
// caller owns the returned slice.
func (f *File) SectionEntries(sectionName string) []Entry {
	sec := f.sections[strings.ToLower(sectionName)]
	if sec == nil {
		return nil
	}
	var out []Entry
	for _, all := range sec.all {
		out = append(out, all...)
	}
	slices.SortFunc(out, func(a, b Entry) int { return cmp.Compare(a.Line, b.Line) }) // lines are unique
	return out
}

// HasSection reports whether the file has a header for section (ignoring
// case), even an empty one.
func (f *File) HasSection(sectionName string) bool {
	return f.sections[strings.ToLower(sectionName)] != nil
}

// Sections returns the section names in order of first appearance, spelled as
// in their first header. The caller owns the returned slice.
func (f *File) Sections() []string {
	out := make([]string, len(f.order))
	for i, lower := range f.order {
		out[i] = f.sections[lower].name
	}
	return out
}

// SectionLine returns the line of the first header of section, or 0.
func (f *File) SectionLine(sectionName string) int {
	if sec := f.sections[strings.ToLower(sectionName)]; sec != nil {
		return sec.line
	}
	return 0
}

// Dir returns the folder of the ini. The engine runs with this folder (the
// game's System folder) as its working directory, so relative Paths and
// CachePath are relative to it.
func (f *File) Dir() string {
	return filepath.Dir(f.Path)
}
