package cache

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/upkdeps/upkdeps/internal/fsutil"
)

// IniName is the name of the cache's index file, inside the cache folder.
const IniName = "cache.ini"

// MaxIniSize bounds the cache.ini read: a real one holds about 50 bytes per
// downloaded package, so 16 MiB is hundreds of thousands of downloads.
const MaxIniSize = 16 << 20

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// defaultNewline ends the lines of a new cache.ini as the engine does on
// the system it runs on.
var defaultNewline = map[bool]string{true: "\r\n", false: "\n"}[runtime.GOOS == "windows"]

// cacheSection is the one section the engine reads and writes.
const cacheSection = "Cache"

// iniDoc is cache.ini kept line by line, so that a rewrite changes only the
// lines it means to: comments, other sections, unknown lines, their order,
// line ends and encoding survive. (The engine itself rewrites the whole
// file from its parsed form, dropping comments; ours is the polite
// version of the same change.)
type iniDoc struct {
	path    string
	enc     encoding
	lines   []iniLine
	newline string // line end for lines we add: the file's most common one
}

type encoding int

const (
	encUTF8    encoding = iota // UTF-8 or ASCII, with or without a BOM
	encLatin1                  // 8-bit text that is not valid UTF-8 (the engine's ANSI)
	encUTF16LE                 // with a BOM, as UT2004 writes user inis
	encUTF16BE
)

// iniLine is one line. raw is its bytes as stored (without the line end)
// for 8-bit files, its UTF-8 text for UTF-16 files; text is the decoded
// UTF-8 text with trailing white space removed.
type iniLine struct {
	raw     []byte
	eol     string // "\r\n", "\n", "\r" or "" (last line without one)
	text    string
	header  string // section name when the line is "[Name]"
	isKey   bool
	key     string // trimmed key
	value   string // value, unquoted
	section string // the section the line belongs to ("" before the first header)
}

// readIniDoc reads path; a missing file is an empty document.
func readIniDoc(path string) (*iniDoc, error) {
	d := &iniDoc{path: path, newline: defaultNewline}
	f, err := fsutil.OpenRegular(path)
	if errors.Is(err, os.ErrNotExist) {
		return d, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	if st.Size() > MaxIniSize {
		return nil, fmt.Errorf("cache: %s: %d bytes, over the %d-byte limit for a cache.ini", path, st.Size(), MaxIniSize)
	}
	data := make([]byte, st.Size())
	if _, err := f.ReadAt(data, 0); err != nil && st.Size() > 0 {
		return nil, fmt.Errorf("cache: %s: %w", path, err)
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
	var text []byte
	switch {
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}), bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		d.enc = encUTF16LE
		var order binary.ByteOrder = binary.LittleEndian
		if data[0] == 0xFE {
			d.enc, order = encUTF16BE, binary.BigEndian
		}
		body := data[2:]
		if len(body)%2 != 0 {
			return fmt.Errorf("cache: %s: odd byte count in a UTF-16 file", d.path)
		}
		units := make([]uint16, len(body)/2)
		for i := range units {
			units[i] = order.Uint16(body[2*i:])
		}
		text = []byte(string(utf16.Decode(units)))
	case utf8.Valid(data):
		d.enc = encUTF8
		text = data
	default:
		d.enc = encLatin1
		text = data
	}
	if bytes.IndexByte(text, 0) >= 0 {
		return fmt.Errorf("cache: %s: NUL byte at offset %d: not a text file", d.path, bytes.IndexByte(text, 0))
	}
	ends := map[string]int{}
	section := ""
	for len(text) > 0 {
		i := bytes.IndexAny(text, "\r\n")
		ln := iniLine{}
		if i < 0 {
			ln.raw, text = text, nil
		} else {
			ln.raw = text[:i]
			switch {
			case text[i] == '\r' && i+1 < len(text) && text[i+1] == '\n':
				ln.eol = "\r\n"
			case text[i] == '\r':
				ln.eol = "\r"
			default:
				ln.eol = "\n"
			}
			text = text[i+len(ln.eol):]
			ends[ln.eol]++
		}
		ln.text = d.decode(ln.raw)
		if len(d.lines) == 0 {
			ln.text = strings.TrimPrefix(ln.text, "\uFEFF")
		}
		ln.parse(&section)
		d.lines = append(d.lines, ln)
	}
	best := 0
	for _, eol := range []string{"\r\n", "\n", "\r"} {
		if ends[eol] > best {
			d.newline, best = eol, ends[eol]
		}
	}
	return nil
}

// parse splits the line as the engine's config reader does: trailing white
// space dropped, "[Name]" starts a section, ";" at the start is a comment,
// "Key=Value" splits at the first "=" and surrounding quotes leave the value.
func (ln *iniLine) parse(section *string) {
	ln.text = strings.TrimRight(ln.text, " \t")
	t := strings.TrimLeft(ln.text, " \t")
	if len(t) >= 2 && t[0] == '[' && t[len(t)-1] == ']' {
		ln.header = t[1 : len(t)-1]
		*section = ln.header
		ln.section = ln.header
		return
	}
	ln.section = *section
	if t == "" || t[0] == ';' {
		return
	}
	k, v, ok := strings.Cut(t, "=")
	if !ok {
		return
	}
	ln.isKey, ln.key, ln.value = true, strings.TrimSpace(k), v
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		ln.value = v[1 : len(v)-1]
	}
}

func (d *iniDoc) decode(raw []byte) string {
	if d.enc != encLatin1 {
		return string(raw)
	}
	r := make([]rune, len(raw))
	for i, b := range raw {
		r[i] = rune(b)
	}
	return string(r)
}

// encode turns text into the file's stored form.
func (d *iniDoc) encode(text string) ([]byte, error) {
	if d.enc != encLatin1 {
		return []byte(text), nil
	}
	out := make([]byte, 0, len(text))
	for _, r := range text {
		if r > 0xFF {
			return nil, fmt.Errorf("cache: %s: %q cannot be written in the file's 8-bit encoding", d.path, text)
		}
		out = append(out, byte(r))
	}
	return out, nil
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
		if ln.header != "" && strings.EqualFold(ln.header, cacheSection) {
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

func (d *iniDoc) replace(i int, text string) error {
	raw, err := d.encode(text)
	if err != nil {
		return err
	}
	if i == 0 && bytes.HasPrefix(d.lines[0].raw, utf8BOM) {
		raw = append(append([]byte(nil), utf8BOM...), raw...)
	}
	ln := iniLine{raw: raw, eol: d.lines[i].eol, text: text}
	section := d.lines[i].section
	ln.parse(&section)
	d.lines[i] = ln
	return nil
}

func (d *iniDoc) insert(i int, text string) error {
	raw, err := d.encode(text)
	if err != nil {
		return err
	}
	section := ""
	if i > 0 {
		section = d.lines[i-1].section
	}
	ln := iniLine{raw: raw, eol: d.newline, text: text}
	ln.parse(&section)
	d.lines = append(d.lines, iniLine{})
	copy(d.lines[i+1:], d.lines[i:])
	d.lines[i] = ln
	return nil
}

// bytes returns the file content.
func (d *iniDoc) bytes() []byte {
	var b bytes.Buffer
	for _, ln := range d.lines {
		b.Write(ln.raw)
		b.WriteString(ln.eol)
	}
	if d.enc != encUTF16LE && d.enc != encUTF16BE {
		return b.Bytes()
	}
	units := utf16.Encode([]rune(b.String()))
	out := make([]byte, 2, 2+2*len(units))
	var order binary.AppendByteOrder = binary.LittleEndian
	out[0], out[1] = 0xFF, 0xFE
	if d.enc == encUTF16BE {
		order = binary.BigEndian
		out[0], out[1] = 0xFE, 0xFF
	}
	for _, u := range units {
		out = order.AppendUint16(out, u)
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
