package uscript

import "unicode/utf8"

// The parser walks the token slice once, front to back, and records
// references as it meets them. It recognises just the shapes that name
// classes and packages: the class declaration, var/local declarations,
// function headers, class<...>/array<...>, Name(expr), Name.default,
// new Name, Super(Name), object literals, # directives and the
// defaultproperties and cpptext blocks.

type parser struct {
	vars      map[string]struct{} // lower-cased variable and parameter names
	file      string
	src       []byte
	toks      []token
	closes    []int32 // for a ( or { token: the index of its closing token, or -1
	c         *Class
	haveClass bool
	inClass   bool              // typeUnit is inside class<...>
	textLine  int32             // the line of text
	text      string            // the evidence text of the last line asked for
	names     map[string]string // interned names
	// The preprocessor's state (preproc.go): the condition stack, its
	// summary, and the names the file #defines.
	conds           []int8
	isDead, isMaybe bool
	defines         map[string]bool
}

// match pairs every ( and { with its closing token in one pass, and notes
// which parenthesised groups have a single argument.
func (p *parser) match(buf *scratch) {
	n := len(p.toks)
	if cap(buf.closes) < n {
		buf.closes = make([]int32, n)
	}
	p.closes = buf.closes[:n]
	buf.closes = p.closes
	var parens, braces []int32
	for i := range p.toks {
		p.closes[i] = -1
		t := &p.toks[i]
		if t.kind != tSym {
			continue
		}
		switch t.sym {
		case '(':
			parens = append(parens, int32(i))
			t.single = true
		case ')':
			if k := len(parens); k > 0 {
				p.closes[parens[k-1]] = int32(i)
				parens = parens[:k-1]
			}
		case ',':
			if k := len(parens); k > 0 {
				p.toks[parens[k-1]].single = false
			}
		case '{':
			braces = append(braces, int32(i))
		case '}':
			if k := len(braces); k > 0 {
				p.closes[braces[k-1]] = int32(i)
				braces = braces[:k-1]
			}
		}
	}
}

func (p *parser) word(i int) []byte {
	t := &p.toks[i]
	return p.src[t.start:t.end]
}

func (p *parser) isSym(i int, c byte) bool {
	return i >= 0 && i < len(p.toks) && p.toks[i].kind == tSym && p.toks[i].sym == c
}

func (p *parser) isIdent(i int) bool {
	return i >= 0 && i < len(p.toks) && p.toks[i].kind == tIdent
}

func (p *parser) isWord(i int, lower string) bool {
	return p.isIdent(i) && equalFold(p.word(i), lower)
}

// closing returns the index of the token closing the group opened at i, or
// the end of the tokens when it is never closed.
func (p *parser) closing(i int) int {
	if c := p.closes[i]; c >= 0 {
		return int(c)
	}
	return len(p.toks)
}

func (p *parser) intern(b []byte) string {
	if s, ok := p.names[string(b)]; ok {
		return s
	}
	s := string(b)
	p.names[s] = s
	return s
}

// lineText returns the trimmed source line holding offset, read at most
// 512 bytes either way so that a huge one-line file costs no more per
// reference than a normal one.
func (p *parser) lineText(line, offset int32) string {
	if line == p.textLine && p.text != "" {
		return p.text
	}
	src := p.src
	a, b := int(offset), int(offset)
	for a > 0 && !eol(src[a-1]) && int(offset)-a < 512 {
		a--
	}
	for b < len(src) && !eol(src[b]) && b-int(offset) < 512 {
		b++
	}
	s := toUTF8(trimBlank(src[a:b]))
	if len(s) > 200 {
		cut := 200
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	p.textLine, p.text = line, s
	return s
}

func trimBlank(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == 0) {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == 0) {
		b = b[:len(b)-1]
	}
	return b
}

// Flags of add.
const (
	fCall     = 1 << iota // Ref.call
	fMaybeVar             // Ref.maybeVar
	fValue                // Ref.value
	fClass                // Ref.class
	fInactive             // Ref.Inactive
)

// add records a reference found at token t. The parser moves forward, so
// references arrive in line order and a repeat on the same line is among
// the last few recorded (a pathological line of thousands may keep a few
// repeats; Index removes those from the evidence).
func (p *parser) add(kind RefKind, pkg, name, typ string, t token, flags int) {
	if p.isDead {
		return
	}
	if p.isMaybe {
		flags |= fInactive
	}
	line := int(t.line)
	refs := p.c.Refs
	for k := len(refs) - 1; k >= 0 && k >= len(refs)-32 && refs[k].Line == line; k-- {
		r := &refs[k]
		if r.Kind == kind && r.Package == pkg && r.Name == name && r.Type == typ {
			// Written several ways on one line: the surer reading wins.
			r.call = r.call && flags&fCall != 0
			r.maybeVar = r.maybeVar && flags&fMaybeVar != 0
			r.value = r.value && flags&fValue != 0
			r.class = r.class || flags&fClass != 0
			r.Inactive = r.Inactive && flags&fInactive != 0
			return
		}
	}
	p.c.Refs = append(p.c.Refs, Ref{
		Kind: kind, Package: pkg, Name: name, Type: typ,
		Line: line, Text: p.lineText(t.line, t.start),
		call: flags&fCall != 0, maybeVar: flags&fMaybeVar != 0, value: flags&fValue != 0,
		class: flags&fClass != 0, Inactive: flags&fInactive != 0,
	})
}

// addVar remembers a declared variable or parameter name.
func (p *parser) addVar(i int) {
	if p.vars == nil {
		p.vars = map[string]struct{}{}
	}
	lower := lowerBytes(p.word(i))
	if _, ok := p.vars[string(lower)]; !ok {
		p.vars[string(lower)] = struct{}{}
	}
}

// lowerBytes returns an ASCII lower-cased copy of b.
func lowerBytes(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

// dropVariables removes the references that read a declared variable as a
// class: "Bot.Default.Health" where Bot is a Pawn parameter. The names are
// those of the whole file, whatever their scope: a name used both ways in
// one class is rare, and then the class reference is lost.
func (p *parser) dropVariables() {
	if len(p.vars) == 0 {
		return
	}
	refs := p.c.Refs[:0]
	for _, r := range p.c.Refs {
		if r.maybeVar {
			name := r.Name
			if r.Kind == KindQualified {
				name = r.Package
			}
			if _, isVar := p.vars[string(lowerBytes([]byte(name)))]; isVar {
				continue
			}
		}
		refs = append(refs, r)
	}
	p.c.Refs = refs
}

func (p *parser) run() {
	n := len(p.toks)
	depth := 0
	for i := 0; i < n; {
		t := p.toks[i]
		switch t.kind {
		case tDirective:
			p.hash(t)
			i++
			for p.isDead && i < n && p.toks[i].kind != tDirective {
				i++ // a branch known to be inactive
			}
		case tObject:
			p.literal(t, 0)
			i++
		case tSym:
			switch t.sym {
			case '{':
				depth++
			case '}':
				if depth > 0 {
					depth--
				}
			}
			i++
		case tIdent:
			i = p.ident(i, depth)
		default:
			i++
		}
	}
}

// ident handles the identifier at i and returns the index to go on from.
func (p *parser) ident(i, depth int) int {
	w := p.word(i)
	flags := classify(w)
	if flags == 0 {
		return p.name(i)
	}
	switch {
	case (equalFold(w, "class") || equalFold(w, "interface")) && !p.haveClass && depth == 0 && p.isIdent(i+1):
		return p.classDecl(i)
	case equalFold(w, "class") && p.isSym(i+1, '<') && !p.isSym(i-1, '.'):
		return p.typeUnit(i, true, 0)
	case equalFold(w, "var") || equalFold(w, "local"):
		return p.declaration(i)
	case flags&kwFunction != 0 && !p.isSym(i+1, '<'):
		return p.function(i)
	case equalFold(w, "defaultproperties") || equalFold(w, "structdefaultproperties"):
		return p.defaults(i)
	case equalFold(w, "cpptext") || equalFold(w, "cppstruct") || equalFold(w, "structcpptext"):
		if p.isSym(i+1, '{') {
			return p.closing(i+1) + 1
		}
	case equalFold(w, "cppbitmask"):
		// 227's cppbitmask(Name) { var bool ...; }: the group names a
		// C++ mask; the block holds ordinary declarations.
		if p.isSym(i+1, '(') {
			return p.closing(i+1) + 1
		}
	case equalFold(w, "super") || equalFold(w, "global"):
		// Super(Actor).PostBeginPlay() names a class.
		if p.isSym(i+1, '(') && p.isIdent(i+2) && p.isSym(i+3, ')') && classify(p.word(i+2)) == 0 {
			p.add(KindType, "", p.intern(p.word(i+2)), "", p.toks[i+2], fClass)
			return i + 4
		}
	case equalFold(w, "struct") || equalFold(w, "enum"):
		p.typeDecl(i)
	case equalFold(w, "new"):
		// new Foo, new(Outer) Foo; new class'Foo' is a literal.
		j := i + 1
		if p.isSym(j, '(') {
			j = p.closing(j) + 1
		}
		if p.isIdent(j) && classify(p.word(j)) == 0 && !p.isSym(j+1, '.') {
			p.add(KindType, "", p.intern(p.word(j)), "", p.toks[j], fMaybeVar)
			return j + 1
		}
	}
	return i + 1
}

// name handles a plain (non-keyword) identifier in code.
func (p *parser) name(i int) int {
	if p.isSym(i-1, '.') {
		return i + 1 // a member: Other.Health, Level.Game.Foo
	}
	t := p.toks[i]
	if p.isSym(i+1, '.') && p.isIdent(i+2) {
		second := p.word(i + 2)
		switch {
		case equalFold(second, "default") || equalFold(second, "static"):
			p.add(KindType, "", p.intern(p.word(i)), "", t, fMaybeVar)
		case p.isSym(i+3, '(') || p.isSym(i+3, '.') && (p.isWord(i+4, "default") || p.isWord(i+4, "static")):
			// Only where a class can stand: Pkg.Class(expr),
			// Pkg.Class.default.X. Other.Health and Level.Game are
			// members, whatever Other and Level are.
			p.add(KindQualified, p.intern(p.word(i)), p.intern(second), "", t, fMaybeVar)
		}
		return i + 3
	}
	// A name between an operand and "(" is a binary operator: A Dot (B).
	operand := p.isIdent(i-1) && classify(p.word(i-1)) == 0 || p.isSym(i-1, ')') || p.isSym(i-1, ']')
	if !operand && p.isSym(i+1, '(') && p.toks[i+1].single && p.closes[i+1] > int32(i+2) {
		p.add(KindType, "", p.intern(p.word(i)), "", t, fCall|fMaybeVar)
	}
	return i + 1
}

// qualified reads Name, Pkg.Name or Pkg.Class.Member at i and returns the
// first two parts and the index after the last.
func (p *parser) qualified(i int) (left, right string, next int) {
	first := p.intern(p.word(i))
	next = i + 1
	if !p.isSym(next, '.') || !p.isIdent(next+1) {
		return "", first, next
	}
	second := p.intern(p.word(next + 1))
	next += 2
	for p.isSym(next, '.') && p.isIdent(next+1) {
		next += 2
	}
	return first, second, next
}

// classClause is one part of a class declaration as readClassDecl reads it.
type classClause struct {
	kind      clauseKind
	at        int    // token index: the parent's name (extends, within), else the word
	pkg, name string // the parent (extends, within): Pkg.Name, pkg "" when unqualified
	word      []byte // the word (clauseWord)
	open      int    // clauseWord: index of the "(" after the word, -1 when none
	close     int    // clauseWord: index of its ")" (or the end), when open >= 0
}

type clauseKind uint8

const (
	clauseExtends clauseKind = iota // extends or expands Pkg.Name
	clauseWithin                    // within Pkg.Name
	clauseWord                      // any other word (dependson, implements, a modifier), with its "(...)"
)

// readClassDecl reads "class X extends Y within Z dependson(A) ...;" from
// the class keyword at i, the one reader of class declarations: it calls
// on for each clause after the name, in order, and returns the index after
// the ";", or, with ok false, where the declaration stopped without one
// (at a "{" or "}", or the end).
func (p *parser) readClassDecl(i int, on func(classClause)) (next int, ok bool) {
	j := i + 2
	for j < len(p.toks) {
		if p.isSym(j, ';') {
			return j + 1, true
		}
		if p.isSym(j, '{') || p.isSym(j, '}') {
			break
		}
		if !p.isIdent(j) {
			j++
			continue
		}
		w := p.word(j)
		parent := (equalFold(w, "extends") || equalFold(w, "expands")) && p.isIdent(j+1)
		if parent || equalFold(w, "within") && p.isIdent(j+1) {
			c := classClause{kind: clauseWithin, at: j + 1}
			if parent {
				c.kind = clauseExtends
			}
			c.pkg, c.name, j = p.qualified(j + 1)
			on(c)
			continue
		}
		c := classClause{kind: clauseWord, at: j, word: w, open: -1}
		j++
		if p.isSym(j, '(') {
			c.open, c.close = j, p.closing(j)
			j = c.close + 1
		}
		on(c)
	}
	return j, false
}

// classDecl reads the class declaration at i (readClassDecl): its parent,
// outer class, dependson and implements lists become references.
func (p *parser) classDecl(i int) int {
	c := p.c
	p.haveClass = true
	c.Name = p.intern(p.word(i + 1))
	c.Line = int(p.toks[i].line)
	extends := false
	next, ok := p.readClassDecl(i, func(cl classClause) {
		switch {
		case cl.kind == clauseExtends && extends:
			// A second extends names a C++ interface (227's "class
			// Subsystem extends Object extends FExec"), no script class.
		case cl.kind == clauseExtends:
			extends = true
			c.Super, c.SuperPackage = cl.name, cl.pkg
			c.superKey = p.intern(lowerBytes([]byte(cl.name)))
			p.add(KindExtends, cl.pkg, cl.name, "", p.toks[cl.at], 0)
		case cl.kind == clauseWord && (equalFold(cl.word, "native") || equalFold(cl.word, "intrinsic")):
			c.Native = true
		case cl.kind == clauseWithin:
			c.Within, c.WithinPackage = cl.name, cl.pkg
			p.add(KindWithin, cl.pkg, cl.name, "", p.toks[cl.at], 0)
		case cl.open >= 0 && (equalFold(cl.word, "dependson") || equalFold(cl.word, "implements")):
			kind, flags := KindDependsOn, 0
			if equalFold(cl.word, "implements") {
				kind, flags = KindType, fClass
			}
			for k := cl.open + 1; k < cl.close; {
				if !p.isIdent(k) {
					k++
					continue
				}
				pkg, name, next := p.qualified(k)
				p.add(kind, pkg, name, "", p.toks[k], flags)
				k = next
			}
		}
	})
	if !ok {
		c.Diagnostics = append(c.Diagnostics, Diagnostic{File: p.file, Line: c.Line, Msg: "class declaration does not end with ';'"})
	}
	return next
}

// typeDecl remembers the name a struct or enum declaration at i gives its
// type: "struct native Name extends Parent {", "enum EName {". The body is
// left to the main loop.
func (p *parser) typeDecl(i int) {
	for j := i + 1; j < len(p.toks) && j < i+12; j++ {
		if p.isSym(j, '{') || p.isWord(j, "extends") {
			if j > i+1 && p.isIdent(j-1) {
				if p.c.types == nil {
					p.c.types = map[string]struct{}{}
				}
				p.c.types[string(lowerBytes(p.word(j-1)))] = struct{}{}
			}
			return
		}
		if !p.isIdent(j) {
			return
		}
	}
}

// skipModifiers skips the specifiers of a declaration from i, in any
// order and with their parenthesised arguments (native(123),
// config(User)), and returns the index of the type. A word is a specifier
// when the table says so (isSpecifier), unless it is itself the type (var
// GUID FileGUID: a type and a name follow the specifiers); a word the
// table does not know is one too when what follows it is still a type and
// a name (a licensee's "var deepcopy Foo Bar;").
func (p *parser) skipModifiers(i int) int {
	if p.isIdent(i+1) && i+2 < len(p.toks) && p.toks[i+2].kind == tSym && p.isIdent(i) {
		switch p.toks[i+2].sym {
		case ';', ',', ')', '(', '[':
			// The common "Type Name;", "Type Name(": no specifier,
			// unless the first word is one (var GUID X is not).
			if classify(p.word(i))&kwModifier == 0 {
				return i
			}
		}
	}
	for k := 0; p.isIdent(i) && k < 64; k++ {
		w := p.word(i)
		f := classify(w)
		spec := f&kwModifier != 0 || classifyExt(w)&extSpecifier != 0
		switch {
		case p.isSym(i+1, '('):
			if !spec {
				return i // function Name(
			}
			i = p.closing(i+1) + 1
			continue
		case spec && (f&kwModifier == 0 || equalFold(w, "guid")) && p.typeAndName(i):
			return i // a word of the table that is the type here (var Cache C)
		case spec:
		case p.typeAndName(i):
			return i
		case f&kwReserved != 0:
			return i // struct, enum (var() struct native Name {...} X;), a type keyword
		case !p.isSpecifierAt(i+1) && !p.typeAndName(i+1):
			return i
		}
		i++
	}
	return i
}

// isSpecifierAt reports whether the token at i is a specifier.
func (p *parser) isSpecifierAt(i int) bool {
	return p.isIdent(i) && isSpecifier(p.word(i))
}

// typeAndName reports whether a type starts at i and a name follows it
// that ends the declaration's head: "Type Name;" "Type Name," "Type
// Name[" "Type Name)" "Type Name(" (a function) "Type Name=" "Type
// Name<" (UE3 metadata) "Type Name{".
func (p *parser) typeAndName(i int) bool {
	if !p.isIdent(i) {
		return false
	}
	if w := p.word(i); classify(w)&kwModifier != 0 && !equalFold(w, "guid") {
		return false // a modifier, never a type (GUID is both: Object's struct Guid)
	}
	next := p.typeEnd(i)
	if next == i || !p.isIdent(next) || next+1 >= len(p.toks) || classify(p.word(next)) != 0 {
		return false // no name after the type (array<, class<, const: more of the head)
	}
	t := p.toks[next+1]
	if t.kind != tSym {
		return false
	}
	switch t.sym {
	case ';', ',', ')', '[', '(', '=', '<', '{':
		return true
	}
	return false
}

// declaration reads the type of "var(Category) modifiers Type Name" or
// "local Type Name" from the keyword at i. An inline enum or struct is left
// to the main loop.
func (p *parser) declaration(i int) int {
	j := i + 1
	if p.isSym(j, '(') {
		j = p.closing(j) + 1
	}
	j = p.skipModifiers(j)
	if p.isWord(j, "enum") || p.isWord(j, "struct") {
		return j // the main loop reads the type's name
	}
	j = p.typeUnit(j, true, 0)
	// The names: "A, B[4], C<ToolTip=...>;".
	for k, name := j, true; k < len(p.toks); k++ {
		if p.isSym(k, ';') || p.isSym(k, '{') || p.isSym(k, '}') {
			break
		}
		if name && p.isIdent(k) {
			p.addVar(k)
		}
		name = p.isSym(k, ',')
	}
	return j
}

// typeEnd returns the index after the type at i, as typeUnit reads it,
// without recording or interning anything: Name, Pkg.Name, and the
// generic types through typeUnit.
func (p *parser) typeEnd(i int) int {
	if p.isSym(i+1, '<') {
		return p.typeUnit(i, false, 0)
	}
	if !p.isIdent(i) {
		return i
	}
	if w := p.word(i); classify(w) != 0 || isIntrinsic(w) {
		return i + 1
	}
	next := i + 1
	for p.isSym(next, '.') && p.isIdent(next+1) {
		next += 2
	}
	return next
}

// maxTypeDepth bounds the nesting of array<class<...>> the parser follows,
// so that hostile input cannot make it recurse deeply.
const maxTypeDepth = 16

// typeUnit reads a type at i: a name (Foo, Pkg.Foo, Class.Struct),
// class<T>, array<T> or delegate<F>, recording class references when emit is
// set. It returns the index after the type, or i when no type starts there.
func (p *parser) typeUnit(i int, emit bool, depth int) int {
	if !p.isIdent(i) || depth > maxTypeDepth {
		return i
	}
	w := p.word(i)
	if p.isSym(i+1, '<') {
		switch {
		case equalFold(w, "class"), equalFold(w, "array"), equalFold(w, "lazyarray"):
			outer := p.inClass
			p.inClass = p.inClass || equalFold(w, "class")
			j := p.typeUnit(i+2, emit, depth+1)
			p.inClass = outer
			if p.isSym(j, '>') {
				j++
			}
			return j
		case equalFold(w, "delegate"):
			j := i + 2
			for j < len(p.toks) && j < i+8 && !p.isSym(j, '>') {
				j++
			}
			return j + 1
		}
	}
	if classify(w) != 0 || isIntrinsic(w) {
		return i + 1
	}
	pkg, name, next := p.qualified(i)
	if emit {
		flags := 0
		if p.inClass {
			flags = fClass // class<X> names nothing but a class
		}
		p.add(KindType, pkg, name, "", p.toks[i], flags)
	}
	return next
}

// function reads a function header from the keyword at i: the return type,
// the name (remembered, to tell calls from casts) and the parameter types.
// The body is left to the main loop.
func (p *parser) function(i int) int {
	// The shapes: "function Name(", "function Type Name(" and, for
	// operators, "operator(16) Type Symbols(". Anything else is not a
	// header: UE1 actors have a variable named Event.
	operator := !equalFold(p.word(i), "function") && !equalFold(p.word(i), "event") && !equalFold(p.word(i), "delegate")
	j := i + 1
	if operator && p.isSym(j, '(') {
		j = p.closing(j) + 1 // operator(16)
	}
	j = p.skipModifiers(j)
	if !p.isIdent(j) {
		return i + 1
	}
	if next := p.typeUnit(j, false, 0); !p.isSym(next, '(') {
		switch {
		case p.isIdent(next) && p.isSym(next+1, '('):
			// function Type Name(, operator(16) float Dot(
		case operator:
			k := next
			for k < len(p.toks) && k < next+3 && p.toks[k].kind == tSym && !p.isSym(k, '(') {
				k++
			}
			if !p.isSym(k, '(') {
				return i + 1
			}
		case !p.isIdent(next) || !p.isSym(next+1, '('):
			return i + 1
		}
		p.typeUnit(j, true, 0) // the return type
		j = next
		for !p.isSym(j, '(') {
			j++
		}
	} else {
		j = next
	}
	if p.isIdent(j - 1) {
		if p.c.funcs == nil {
			p.c.funcs = map[string]struct{}{}
		}
		p.c.funcs[string(lowerBytes(p.word(j-1)))] = struct{}{}
	}
	end := p.closing(j)
	for k := j + 1; k < end; {
		k = p.skipModifiers(k)
		k = p.typeUnit(k, true, 0)
		if p.isIdent(k) && k < end {
			p.addVar(k)
		}
		// Skip the parameter name, array size and UE3 default value.
		for k < end && !p.isSym(k, ',') {
			if p.isSym(k, '(') {
				k = p.closing(k)
			}
			k++
		}
		k++
	}
	return end + 1
}

// defaults reads a defaultproperties (or structdefaultproperties) block.
// Its lines are Key=Value pairs, not code: only object literals, subobject
// classes (Begin Object Class=Foo) and qualified values (Key=Pkg.Name) are
// references there.
func (p *parser) defaults(i int) int {
	j := i + 1
	end := len(p.toks)
	if p.isSym(j, '{') {
		end = p.closing(j)
		j++
	}
	for ; j < end; j++ {
		t := p.toks[j]
		switch {
		case t.kind == tObject && !p.isDead:
			p.literal(t, fValue)
		case t.kind == tDirective:
			p.hash(t)
		case p.isDead:
		case p.isWord(j, "begin") && p.isWord(j+1, "object"):
			for k := j + 2; k < end && p.toks[k].line == t.line; k++ {
				if p.isWord(k, "class") && p.isSym(k+1, '=') && p.isIdent(k+2) {
					pkg, name, _ := p.qualified(k + 2)
					p.add(KindType, pkg, name, "", p.toks[k+2], fClass)
				}
				if p.isWord(k, "name") && p.isSym(k+1, '=') && p.isIdent(k+2) {
					if p.c.subobjects == nil {
						p.c.subobjects = map[string]struct{}{}
					}
					p.c.subobjects[string(lowerBytes(p.word(k+2)))] = struct{}{}
				}
			}
		case p.isSym(j, '=') && p.isIdent(j+1) && p.isSym(j+2, '.') && p.isIdent(j+3):
			p.add(KindQualified, p.intern(p.word(j+1)), p.intern(p.word(j+3)), "", p.toks[j+1], fValue)
		}
	}
	return end + 1
}

// literal records an object literal Type'Path'.
func (p *parser) literal(t token, flags int) {
	typb, path := objectParts(p.src[t.start:t.end])
	typ := p.intern(typb)
	if dot := indexByte(path, '.'); dot > 0 && dot < len(path)-1 {
		p.add(KindLiteral, p.intern(path[:dot]), p.intern(path[dot+1:]), typ, t, flags)
		return
	}
	p.add(KindLiteral, "", p.intern(path), typ, t, flags)
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}
