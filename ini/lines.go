package ini

import (
	"iter"
	"strings"
	"unicode"
)

// LineKind tells what a line of an ini file is to the engine.
type LineKind int

const (
	// IgnoredLine is a line the engine reads nothing from: blank, a comment
	// (";" or "#" first), a line without "=", or a key line whose name no
	// Unreal setting has (see ClassifyLine).
	IgnoredLine LineKind = iota
	// HeaderLine starts a section: "[" first, the name running to the first "]".
	HeaderLine
	// UnterminatedHeader is a "[" line with no "]". Parse refuses it; an editor
	// may keep it as an unknown line.
	UnterminatedHeader
	// KeyLine is a "key=value" line.
	KeyLine
)

// Line is one line of an ini file, split and classified by the engine's
// rules (see ClassifyLine and Lines).
type Line struct {
	Num  int      // 1-based line number
	Text string   // the line as written, without its line end
	End  string   // "\r\n", "\n", "\r", or "" for a last line without one
	Kind LineKind // what the line is
	// Name is the section name of a HeaderLine, as spelled; it may be empty
	// ("[]"), which Parse refuses.
	Name string
	// Key and Value are the parts of a KeyLine, blanks around both
	// removed; Value keeps its quotes (see Unquote).
	Key, Value string
}

// ClassifyLine reads line num (1-based) of a file, text without its line
// end, as the engine does:
//
//   - On the first line, byte-order marks (U+FEFF) at the start are skipped;
//     then blanks (unicode.IsSpace).
//   - A line starting with "[" is a HeaderLine; the section name runs to the
//     first "]" and the rest of the line is ignored ("[Cache] ; downloads"
//     is the section Cache). Without a "]" it is an UnterminatedHeader.
//   - A line starting with ";" or "#" is a comment (the engine reads it as
//     a key named ";..." that nothing looks up): an IgnoredLine.
//   - Any other line with "=" is a KeyLine, split at the first "=", blanks
//     around key and value removed. A line without "=" is an IgnoredLine.
//
// Key lines whose key is empty, is "-", or starts with a quote or a
// backquote are IgnoredLines: no Unreal setting is named so, and
// gopkg.in/ini.v1 would read them as something else (an auto-numbered key,
// a quoted name).
// A line never holds "\r" or "\n"; splitting text into lines is Lines' job.
func ClassifyLine(num int, text string) Line {
	l := text
	if num == 1 {
		l = strings.TrimLeft(l, "\uFEFF")
	}
	l = strings.TrimLeftFunc(l, unicode.IsSpace)
	ln := Line{Num: num, Text: text}
	if l == "" || l[0] == ';' || l[0] == '#' {
		return ln
	}
	if l[0] == '[' {
		end := strings.IndexByte(l, ']')
		if end < 0 {
			ln.Kind = UnterminatedHeader
			return ln
		}
		ln.Kind, ln.Name = HeaderLine, l[1:end]
		return ln
	}
	k, v, ok := strings.Cut(l, "=")
	if !ok {
		return ln
	}
	k = strings.TrimSpace(k)
	if k == "" || k == "-" || k[0] == '"' || k[0] == '`' {
		return ln
	}
	ln.Kind, ln.Key, ln.Value = KeyLine, k, strings.TrimSpace(v)
	return ln
}

// Lines splits decoded text (see Decode) into classified lines. A line ends
// at "\r\n", "\n" or a lone "\r", as the engine splits; the text after the
// last line end, if any, is a last line with an empty End. Each line is
// classified by ClassifyLine. Joining every Text and End gives the text back
// exactly (byte-order marks starting the text are in the first line's Text),
// which is what a line-preserving editor needs.
func Lines(text string) iter.Seq[Line] {
	return func(yield func(Line) bool) {
		// nl and cr are where the next "\n" and "\r" are (-1: none left),
		// each searched for again only once passed: IndexByte's scan is
		// many times IndexAny's, and the two together stay linear in the
		// text whichever ends it uses.
		num, pos := 0, 0
		nl, cr := nextByte(text, 0, '\n'), nextByte(text, 0, '\r')
		for pos < len(text) {
			num++
			if nl >= 0 && nl < pos {
				nl = nextByte(text, pos, '\n')
			}
			if cr >= 0 && cr < pos {
				cr = nextByte(text, pos, '\r')
			}
			i := nl
			if cr >= 0 && (i < 0 || cr < i) {
				i = cr
			}
			var raw, end string
			switch {
			case i < 0:
				raw, pos = text[pos:], len(text)
			case text[i] == '\r' && i+1 < len(text) && text[i+1] == '\n':
				raw, end, pos = text[pos:i], "\r\n", i+2
			default:
				raw, end, pos = text[pos:i], text[i:i+1], i+1
			}
			ln := ClassifyLine(num, raw)
			ln.End = end
			if !yield(ln) {
				return
			}
		}
	}
}

// nextByte is the offset of the first c in text at or after from, or -1.
func nextByte(text string, from int, c byte) int {
	if i := strings.IndexByte(text[from:], c); i >= 0 {
		return from + i
	}
	return -1
}

// Unquote removes one pair of surrounding double quotes, as the engine does
// when it reads a value ("\"1.0.0\"" is 1.0.0).
func Unquote(v string) string {
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		return v[1 : len(v)-1]
	}
	return v
}
