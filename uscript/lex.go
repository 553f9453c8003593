package uscript

// The lexer turns a decoded source file into a flat token slice. It knows
// exactly as much UnrealScript as it takes to never mistake text in a
// comment, a string or a name for code: comments (// and nested /* */),
// string literals with backslash escapes, single-quoted names, object
// literals Type'Path', numbers, identifiers, one-byte symbols and # directive
// lines. Everything else is left to the parser.

type tokKind uint8

const (
	tIdent     tokKind = iota + 1
	tNumber            // 12, 1.5, 0x1F
	tString            // "..." (start/end exclude the quotes)
	tName              // '...' (start/end exclude the quotes)
	tObject            // Type'Path': start/end the whole literal (see objectParts)
	tDirective         // # to the end of the line (start/end exclude the #)
	tSym               // any other byte; sym holds it
)

// token is 16 bytes; a 16 MiB file of one-byte tokens would need 256 MiB
// of them, so tokens live in a pooled buffer (see Scan).
type token struct {
	kind       tokKind
	sym        byte
	single     bool // a ( whose group holds one argument (set by the parser)
	line       int32
	start, end int32
}

// A note is something the lexer met that does not stop the scan but that a
// reader should hear about (an unterminated comment, say).
type note struct {
	line int
	msg  string
}

type lexer struct {
	src     []byte
	toks    []token
	notes   []note
	line    int32
	tooMany bool // stopped at maxTokens
}

// maxTokens bounds the tokens of one file (16 bytes each, plus 4 bytes of
// bookkeeping in the parser): real code has about one token in five bytes,
// so a 16 MiB source file fits, while a file of nothing but parentheses is
// refused instead of costing twenty times its size.
const maxTokens = 1 << 22

// lex tokenizes src, appending to buf[:0]. src is at most 1.5 times
// MaxFileSize bytes (UTF-16 turned UTF-8), so int32 offsets hold. It
// reports whether it stopped at maxTokens, and then at which line.
func lex(src []byte, buf []token) (toks []token, notes []note, stoppedAt int) {
	l := lexer{src: src, line: 1, toks: buf[:0]}
	if cap(l.toks) == 0 {
		// Code has about one token in five bytes; the slice grows from there.
		l.toks = make([]token, 0, min(len(src)/5+16, maxTokens))
	}
	l.run()
	if l.tooMany {
		stoppedAt = int(l.line)
	}
	return l.toks, l.notes, stoppedAt
}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

func isIdentByte(c byte) bool {
	return isIdentStart(c) || c >= '0' && c <= '9'
}

// newlineAt reports whether a line ends at src[i]: "\n", or a "\r" that is
// not followed by "\n" (old Mac line ends; the engine's IsEOL accepts both).
func newlineAt(src []byte, i int) bool {
	c := src[i]
	return c == '\n' || c == '\r' && (i+1 >= len(src) || src[i+1] != '\n')
}

// eol reports whether src[i] ends the text of a line (either line-end byte).
func eol(c byte) bool { return c == '\n' || c == '\r' }

func (l *lexer) run() {
	src := l.src
	n := len(src)
	atLineStart := true
	for i := 0; i < n; {
		if len(l.toks) >= maxTokens {
			l.tooMany = true
			return
		}
		c := src[i]
		switch {
		case c == '\n' || c == '\r':
			if newlineAt(src, i) {
				l.line++
				atLineStart = true
			}
			i++
		case c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == 0:
			i++
		case c == '/' && i+1 < n && src[i+1] == '/':
			i += 2
			for i < n && !eol(src[i]) {
				i++
			}
		case c == '/' && i+1 < n && src[i+1] == '*':
			i = l.blockComment(i)
		case c == '#' && (atLineStart || i+5 <= n && equalFold(src[i+1:i+5], "exec")):
			i = l.directive(i)
			atLineStart = false
		case c == '"':
			i = l.quoted(i, '"', tString)
			atLineStart = false
		case c == '\'':
			i = l.quoted(i, '\'', tName)
			atLineStart = false
		case isIdentStart(c):
			i = l.ident(i)
			atLineStart = false
		case c >= '0' && c <= '9':
			j := i + 1
			for j < n && (isIdentByte(src[j]) || src[j] == '.') {
				j++
			}
			l.emit(token{kind: tNumber, start: int32(i), end: int32(j)})
			i = j
			atLineStart = false
		default:
			l.emit(token{kind: tSym, sym: c, start: int32(i), end: int32(i + 1)})
			i++
			atLineStart = false
		}
	}
}

func (l *lexer) emit(t token) {
	t.line = l.line
	l.toks = append(l.toks, t)
}

// countLines adds the line ends in src[from:to] to the current line.
func (l *lexer) countLines(from, to int) {
	for i := from; i < to; i++ {
		if (l.src[i] == '\n' || l.src[i] == '\r') && newlineAt(l.src, i) {
			l.line++
		}
	}
}

// blockComment skips the comment opening at src[i] and returns the offset
// after it. The UE1 and UE2 compilers nest block comments (their GetChar
// counts /* and */), so nesting is honoured; but when the nested reading
// runs to the end of the file while a plain reading (the first */ closes)
// would not, the source was written for a compiler that does not nest
// (UE3 and later), and the plain reading wins. A comment that no reading
// closes runs to the end of the file.
func (l *lexer) blockComment(i int) int {
	src := l.src
	n := len(src)
	start := i
	depth := 0
	for i < n {
		if src[i] == '/' && i+1 < n && src[i+1] == '*' {
			depth++
			i += 2
			continue
		}
		if src[i] == '*' && i+1 < n && src[i+1] == '/' {
			depth--
			i += 2
			if depth == 0 {
				l.countLines(start, i)
				return i
			}
			continue
		}
		i++
	}
	line := int(l.line)
	// Unclosed when nested: try the plain reading.
	for j := start + 2; j+1 < n; j++ {
		if src[j] == '*' && src[j+1] == '/' {
			l.notes = append(l.notes, note{line, "nested block comment is not closed; read as not nested"})
			l.countLines(start, j+2)
			return j + 2
		}
	}
	l.notes = append(l.notes, note{line, "block comment is not closed before the end of the file"})
	l.countLines(start, n)
	return n
}

// directive reads a # line: a # that starts a line, or #exec anywhere (the
// compiler takes a directive wherever a declaration may start). Like the engine's GetRawToken it stops at the
// end of the line or where a // or /* comment begins (outside quotes); the
// comment itself is then lexed as usual.
func (l *lexer) directive(i int) int {
	src := l.src
	n := len(src)
	j := i + 1
	inQuote := false
	for j < n && !eol(src[j]) {
		c := src[j]
		if c == '"' {
			inQuote = !inQuote
		} else if !inQuote && c == '/' && j+1 < n && (src[j+1] == '/' || src[j+1] == '*') {
			break
		}
		j++
	}
	l.emit(token{kind: tDirective, start: int32(i + 1), end: int32(j)})
	return j
}

// quoted reads a string or name literal opening at src[i]. A backslash
// escapes the next byte (UnrealScript strings; C++ character literals in
// cpptext). A literal never spans lines: the engine rejects that, and ending
// it at the line end keeps a stray quote from swallowing the rest of the
// file.
func (l *lexer) quoted(i int, q byte, kind tokKind) int {
	src := l.src
	n := len(src)
	j := i + 1
	for j < n && src[j] != q && !eol(src[j]) {
		if src[j] == '\\' && j+1 < n && !eol(src[j+1]) {
			j++
		}
		j++
	}
	l.emit(token{kind: kind, start: int32(i + 1), end: int32(j)})
	if j < n && src[j] == q {
		j++
	}
	return j
}

// ident reads an identifier and, when a quote follows it, an object literal
// such as Texture'Engine.S_Actor'. The engine allows blanks between the
// type and the quote; so do we, but then only when the quoted text is a
// well-formed object path, since "return 'X'" or an unquoted UE1 default
// text like Don't are not object literals.
func (l *lexer) ident(i int) int {
	src := l.src
	n := len(src)
	j := i + 1
	for j < n && isIdentByte(src[j]) {
		j++
	}
	k := j
	for k < n && (src[k] == ' ' || src[k] == '\t') {
		k++
	}
	if k < n && src[k] == '\'' && !keywordBlocksLiteral(src[i:j]) {
		p := k + 1
		for p < n && isPathByte(src[p]) {
			p++
		}
		if p < n && src[p] == '\'' && p > k+1 {
			l.emit(token{kind: tObject, start: int32(i), end: int32(p + 1)})
			return p + 1
		}
	}
	l.emit(token{kind: tIdent, start: int32(i), end: int32(j)})
	return j
}

// isPathByte reports whether c may appear in an object path inside an
// object literal: names, dots between them, and the dashes of map names.
func isPathByte(c byte) bool {
	return isIdentByte(c) || c == '.' || c == '-'
}

// objectParts splits the text of a tObject token into type and path.
func objectParts(lit []byte) (typ, path []byte) {
	j := 0
	for j < len(lit) && isIdentByte(lit[j]) {
		j++
	}
	q := j
	for q < len(lit) && lit[q] != '\'' {
		q++
	}
	if q+1 > len(lit)-1 {
		return lit[:j], nil
	}
	return lit[:j], lit[q+1 : len(lit)-1]
}
