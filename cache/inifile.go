package cache

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"

	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/internal/fsutil"
)

// IniName is the name of the cache's index file, inside the cache folder.
const IniName = "cache.ini"

// MaxIniSize bounds the cache.ini read: a real one holds about 50 bytes per
// downloaded package, so 16 MiB is hundreds of thousands of downloads.
const MaxIniSize = 16 << 20

// defaultNewline ends the lines of a new cache.ini as the engine does on
// the system it runs on.
var defaultNewline = map[bool]string{true: "\r\n", false: "\n"}[runtime.GOOS == "windows"]

// cacheSection is the one section the engine reads and writes.
const cacheSection = "Cache"

// iniDoc is cache.ini kept line by line, so that a rewrite changes only the
// lines it means to: comments, other sections, unknown lines, their order,
// line ends and encoding survive. (The engine itself rewrites the whole
// file from its parsed form, dropping comments; ours is the polite
// version of the same change.) It reads the file with the ini package's
// decoder (ini.Decode) and line rules (ini.Lines, ini.ClassifyLine), so it
// sees the sections, keys and values ini.Parse sees; where Parse refuses a
// file for a malformed line (a "[" line without "]", an empty section
// name, a limit), the editor keeps the line as an unknown one.
type iniDoc struct {
	path    string
	enc     ini.Encoding
	lines   []iniLine
	newline string // line end for lines we add: the file's most common one
}

// iniLine is one line as ini.Lines split and classified it.
type iniLine struct {
	text     string // decoded text, without the line end
	eol      string // "\r\n", "\n", "\r" or "" (last line without one)
	isHeader bool
	header   string // section name of a header line
	isKey    bool
	key      string // key, blanks around it removed
	value    string // value, blanks around it and one pair of quotes removed
	section  string // the section the line belongs to ("" before the first header)
}

// newIniLine makes the iniLine of l; section is the current section, which
// a header changes.
func newIniLine(l ini.Line, section *string) iniLine {
	ln := iniLine{text: l.Text, eol: l.End}
	switch l.Kind {
	case ini.HeaderLine:
		ln.isHeader, ln.header = true, l.Name
		*section = l.Name
	case ini.KeyLine:
		ln.isKey, ln.key, ln.value = true, l.Key, ini.Unquote(l.Value)
	}
	ln.section = *section
	return ln
}

// readIniDoc reads path; a missing file is an empty document.
func readIniDoc(path string) (*iniDoc, error) {
	d := &iniDoc{path: path, newline: defaultNewline}
	data, err := fsutil.ReadRegular(path, MaxIniSize)
	var big *fsutil.TooBigError
	switch {
	case errors.Is(err, os.ErrNotExist):
		return d, nil
	case errors.As(err, &big):
		return nil, fmt.Errorf("cache: %s: %d bytes, over the %d-byte limit for a cache.ini", path, big.Size, MaxIniSize)
	case err != nil:
		return nil, fmt.Errorf("cache: %w", err)
	}
	if err := d.parse(data); err != nil {
		return nil, err
	}
	return d, nil
}

// parseIniDoc parses data as the cache.ini at path.
func parseIniDoc(path string, data []byte) (*iniDoc, error) {
	d := &iniDoc{path: path, newline: defaultNewline}
	return d, d.parse(data)
}

func (d *iniDoc) parse(data []byte) error {
	text, enc, err := ini.Decode(d.path, data)
	if err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	d.enc = enc
	ends := map[string]int{}
	section := ""
	for l := range ini.Lines(text) {
		d.lines = append(d.lines, newIniLine(l, &section))
		ends[l.End]++
	}
	best := 0
	for _, eol := range []string{"\r\n", "\n", "\r"} {
		if ends[eol] > best {
			d.newline, best = eol, ends[eol]
		}
	}
	return nil
}

// isCache reports whether the line is a key line of [Cache] (the engine
// merges repeated sections and ignores the case of names).
func (ln *iniLine) isCache() bool {
	return ln.isKey && strings.EqualFold(ln.section, cacheSection)
}

// lastKey returns the index of the last [Cache] line with key (any case):
// the engine's config lookup finds the most recently added of repeated keys.
func (d *iniDoc) lastKey(key string) int {
	for i := len(d.lines) - 1; i >= 0; i-- {
		if d.lines[i].isCache() && strings.EqualFold(d.lines[i].key, key) {
			return i
		}
	}
	return -1
}

// set gives key the value: the last line holding the key is rewritten (its
// key spelling kept), or a line is added after the last line of the last
// [Cache] section (a section is added when there is none). It returns the
// 1-based line number changed or added.
func (d *iniDoc) set(key, value string) (int, error) {
	if i := d.lastKey(key); i >= 0 {
		ln := &d.lines[i]
		k, _, _ := strings.Cut(ln.text, "=")
		return i + 1, d.replace(i, k+"="+value)
	}
	last := -1
	for i, ln := range d.lines {
		if ln.isHeader && strings.EqualFold(ln.header, cacheSection) {
			last = i
		} else if last >= 0 && ln.isCache() {
			last = i
		}
	}
	if last < 0 {
		if n := len(d.lines); n > 0 {
			if d.lines[n-1].eol == "" {
				d.lines[n-1].eol = d.newline
			}
			if d.lines[n-1].text != "" {
				d.insert(n, "") // a blank line between sections, as the engine writes
			}
		}
		if err := d.insert(len(d.lines), "["+cacheSection+"]"); err != nil {
			return 0, err
		}
		last = len(d.lines) - 1
	}
	if d.lines[last].eol == "" {
		d.lines[last].eol = d.newline
	}
	return last + 2, d.insert(last+1, key+"="+value)
}

// replace rewrites line i (a key line: set never rewrites a header, so the
// lines after it stay in their section).
func (d *iniDoc) replace(i int, text string) error {
	ln, err := d.newLine(i, text, d.lines[i].eol)
	if err != nil {
		return err
	}
	d.lines[i] = ln
	return nil
}

// insert adds a line before line i.
func (d *iniDoc) insert(i int, text string) error {
	ln, err := d.newLine(i, text, d.newline)
	if err != nil {
		return err
	}
	d.lines = append(d.lines, iniLine{})
	copy(d.lines[i+1:], d.lines[i:])
	d.lines[i] = ln
	return nil
}

// newLine makes the line text, to be line i, classified as ini.Lines would.
func (d *iniDoc) newLine(i int, text, eol string) (iniLine, error) {
	if err := d.encodable(text); err != nil {
		return iniLine{}, err
	}
	section := ""
	if i > 0 {
		section = d.lines[i-1].section
	}
	l := ini.ClassifyLine(i+1, text)
	l.End = eol
	return newIniLine(l, &section), nil
}

// encodable reports an error when text cannot be stored in the file's
// encoding (a name outside Latin-1 in an 8-bit file).
func (d *iniDoc) encodable(text string) error {
	if _, err := d.enc.Encode(text); err != nil {
		return fmt.Errorf("cache: %s: %q cannot be written in the file's encoding (%s): %w", d.path, text, d.enc, err)
	}
	return nil
}

// bytes returns the file content, in the file's encoding.
func (d *iniDoc) bytes() []byte {
	var b strings.Builder
	for _, ln := range d.lines {
		b.WriteString(ln.text)
		b.WriteString(ln.eol)
	}
	out, err := d.enc.Encode(b.String())
	if err != nil {
		// Cannot happen: every line was decoded from the encoding or
		// checked against it (encodable) before it was added.
		return []byte(b.String())
	}
	return out
}

// write replaces the file atomically.
func (d *iniDoc) write() error {
	perm := os.FileMode(0o644)
	if st, err := os.Stat(d.path); err == nil {
		perm = st.Mode().Perm()
	}
	if err := fsutil.WriteFileAtomic(d.path, d.bytes(), perm); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	return nil
}
