package uscript

import (
	"fmt"
	"strconv"
	"strings"
)

// The declaration reader walks the same token slice the reference scanner
// does, but reads what a class declares instead of what it names: the
// class modifiers, constants, enums, structs, variables, functions and
// cpptext blocks, the input of a C++ header generator (see package
// uscript/header). Code inside function bodies, states, replication and
// defaultproperties blocks is skipped.

// Decls is the declaration-level reading of one class source file.
type Decls struct {
	Name         string // the class name as declared
	Super        string // the parent class; "" for none
	SuperPackage string // the package of Super when written qualified
	Within       string
	File         string
	Line         int // the line of the class declaration
	// Modifiers are the class modifiers, lower-cased, in source order
	// (native, noexport, abstract, config, ...); ModifierArgs holds the
	// parenthesised argument of those that have one (config(User)).
	Modifiers    []string
	ModifierArgs map[string]string
	DependsOn    []string
	Consts       []Const
	Enums        []Enum
	Structs      []Struct
	Vars         []Var
	Funcs        []Func
	// CppText is the text between the braces of a cpptext block, verbatim;
	// CppTextLine is the line of its keyword (0 when there is none).
	CppText     string
	CppTextLine int
	// Diagnostics are declarations the reader could not follow.
	Diagnostics []Diagnostic
}

// Has reports whether the class has the (lower-case) modifier mod.
func (d *Decls) Has(mod string) bool { return hasMod(d.Modifiers, mod) }

func hasMod(mods []string, mod string) bool {
	for _, m := range mods {
		if m == mod {
			return true
		}
	}
	return false
}

// Const is a const declaration; Value is the source text after the =.
type Const struct {
	Name, Value string
	Line        int
}

// Enum is an enum declaration, standalone or inline in a var.
type Enum struct {
	Name   string
	Values []string
	Line   int
	// InStruct is set for an enum declared inside a struct (in a member's
	// type or on its own): the struct's, not the class's.
	InStruct bool
}

// Struct is a struct declaration.
type Struct struct {
	Name      string
	Super     string
	Modifiers []string // native, export, transient, ...
	Vars      []Var
	CppText   string // structcpptext or cppstruct, verbatim
	Line      int
}

// Type is a declared type. Name is a builtin type lower-cased (byte, int,
// bool, float, string, name, pointer, button), "class" (with Class the
// meta class), "array" (with Elem), "delegate" (with Class the function),
// "map", or a user type as written: a struct, an enum or a class, which
// only a symbol table can tell apart.
type Type struct {
	Name    string
	Package string // the package of a qualified user type (Engine.Actor)
	Class   string // class<Class>, delegate<Class>
	Elem    *Type  // array<Elem>
	Line    int
}

// String formats the type as UnrealScript spells it.
func (t Type) String() string {
	switch {
	case t.Name == "array" && t.Elem != nil:
		return "array<" + t.Elem.String() + ">"
	case (t.Name == "class" || t.Name == "delegate") && t.Class != "":
		return t.Name + "<" + t.Class + ">"
	case t.Package != "":
		return t.Package + "." + t.Name
	}
	return t.Name
}

// Var is a member variable (of a class or struct).
type Var struct {
	Name      string
	Type      Type
	Dim       int    // the static array size; 1 for a scalar
	DimText   string // the size as written when it is not a number (a const or enum count)
	Modifiers []string
	Editable  bool   // var() or var(Category)
	Category  string // the category in var(Category)
	Line      int
}

// Has reports whether the variable has the (lower-case) modifier mod.
func (v *Var) Has(mod string) bool { return hasMod(v.Modifiers, mod) }

// Param is a function parameter.
type Param struct {
	Name      string
	Type      Type
	Dim       int
	Modifiers []string // out, optional, coerce, skip, const
	Line      int
}

// Has reports whether the parameter has the (lower-case) modifier mod.
func (p *Param) Has(mod string) bool { return hasMod(p.Modifiers, mod) }

// Func is a function, event, delegate or operator declared at class level
// (functions inside states are not read).
type Func struct {
	Name string
	// Kind is function, event, delegate, operator, preoperator or postoperator.
	Kind string
	// Symbol is the operator's symbol (+, ==, dot) for the operator kinds.
	Symbol string
	// Modifiers are lower-cased, in source order: native, static, final,
	// simulated, singular, latent, iterator, exec, private, protected, ...
	Modifiers []string
	// NativeIndex is the number of native(N); -1 when there is none.
	NativeIndex int
	Precedence  int // operator(N)
	Return      *Type
	Params      []Param
	Body        bool // declared with a body rather than ';'
	Line        int
}

// Has reports whether the function has the (lower-case) modifier mod.
func (f *Func) Has(mod string) bool { return hasMod(f.Modifiers, mod) }

// Native reports whether the function is implemented in C++.
func (f *Func) Native() bool { return f.Has("native") || f.Has("intrinsic") }

// Event reports whether the function was declared with the event keyword.
func (f *Func) Event() bool { return f.Kind == "event" }

// maxDeclItems bounds the declarations one file may hold (variables,
// functions, parameters, enum values...), so that a hostile file cannot
// make the reader hold far more than the tokens it already holds.
const maxDeclItems = 1 << 18

// ReadDeclsFile reads one .uc file and returns its declarations; the bounds
// of ScanFile apply.
func ReadDeclsFile(path string) (*Decls, error) {
	src, err := readSource(path)
	if err != nil {
		return nil, err
	}
	return ReadDecls(path, src)
}

// ReadDecls reads the declarations of one class source. It has the bounds
// of Scan (size, tokens, nesting) and never panics; it returns an *Error
// when src is too large or holds no class declaration.
func ReadDecls(filename string, src []byte) (*Decls, error) {
	buf := scratchPool.Get().(*scratch)
	defer buf.put()
	text, toks, notes, err := lexSource(filename, src, buf)
	if err != nil {
		return nil, err
	}
	r := declReader{parser: parser{file: filename, src: text, toks: toks, names: buf.names}}
	r.match(buf)
	r.d = &Decls{File: filename}
	if err := r.run(); err != nil {
		return nil, err
	}
	for _, n := range notes {
		r.d.Diagnostics = append(r.d.Diagnostics, Diagnostic{File: filename, Line: n.line, Msg: n.msg})
	}
	return r.d, nil
}

type declReader struct {
	parser
	d     *Decls
	items int
}

func (r *declReader) count(n int) error {
	r.items += n
	if r.items > maxDeclItems {
		return &Error{File: r.file, Msg: fmt.Sprintf("more than %d declarations", maxDeclItems)}
	}
	return nil
}
func (r *declReader) text(i int) string { return string(r.word(i)) }

func (r *declReader) lower(i int) string { return strings.ToLower(string(r.word(i))) }

// skipStatement returns the index after the ; or block that ends the
// statement starting at i.
func (r *declReader) skipStatement(i int) int {
	for i < len(r.toks) {
		switch {
		case r.isSym(i, ';'):
			return i + 1
		case r.isSym(i, '{'):
			j := r.closing(i) + 1
			if r.isSym(j, ';') {
				j++
			}
			return j
		case r.isSym(i, '}'):
			return i + 1
		}
		i++
	}
	return i
}

// skipBlock skips a block keyword (defaultproperties, replication, state)
// and its braces.
func (r *declReader) skipBlock(i int) int {
	for i < len(r.toks) && !r.isSym(i, '{') && !r.isSym(i, ';') {
		i++
	}
	if r.isSym(i, ';') {
		return i + 1
	}
	if i < len(r.toks) {
		return r.closing(i) + 1
	}
	return i
}

func (r *declReader) run() error {
	haveClass := false
	n := len(r.toks)
	for i := 0; i < n; {
		t := r.toks[i]
		if t.kind != tIdent {
			i++
			continue
		}
		w := r.lower(i)
		var err error
		switch {
		case (w == "class" || w == "interface") && !haveClass && r.isIdent(i+1):
			haveClass = true
			i = r.classDecl(i)
		case w == "var":
			var vars []Var
			vars, i, err = r.varDecl(i, true)
			r.d.Vars = append(r.d.Vars, vars...)
		case w == "enum" && r.isIdent(i+1):
			var e Enum
			e, i = r.enumDecl(i)
			r.d.Enums = append(r.d.Enums, e)
			if r.isSym(i, ';') {
				i++
			}
		case w == "struct":
			i, err = r.structDecl(i)
			if r.isSym(i, ';') {
				i++
			}
		case w == "const" && r.isIdent(i+1) && r.isSym(i+2, '='):
			j := i + 3
			for j < n && !r.isSym(j, ';') && !r.isSym(j, '}') {
				j++
			}
			val := ""
			if j > i+3 && j <= n {
				val = strings.TrimSpace(string(r.src[r.startOf(i+3):r.endOf(j-1)]))
				if strings.ContainsAny(val, "\r\n") {
					val = strings.Join(strings.Fields(val), " ") // one line, as a #define
				}
			}
			r.d.Consts = append(r.d.Consts, Const{Name: r.text(i + 1), Value: val, Line: int(t.line)})
			i = j + 1
		case w == "cpptext" || w == "cppstruct":
			txt, line, next := r.cppText(i)
			if r.d.CppTextLine == 0 {
				r.d.CppText, r.d.CppTextLine = txt, line
			}
			i = next
		case w == "defaultproperties" || w == "replication" || w == "structdefaultproperties":
			i = r.skipBlock(i)
		case w == "state" || (w == "auto" || w == "simulated") && r.stateAhead(i):
			i = r.skipBlock(i)
		case r.isSym(i+1, '(') && (w == "defaultproperties"):
			i = r.skipBlock(i)
		default:
			var next int
			next, err = r.maybeFunction(i)
			i = next
		}
		if err != nil {
			return err
		}
		if err := r.count(0); err != nil {
			return err
		}
	}
	if !haveClass {
		return &Error{File: r.file, Line: 1, Msg: "no class declaration"}
	}
	return nil
}

// endOf returns the end offset of the text of token i, including the
// quotes of a string or name.
func (r *declReader) endOf(i int) int32 {
	t := r.toks[i]
	if (t.kind == tString || t.kind == tName) && int(t.end) < len(r.src) {
		return t.end + 1
	}
	return t.end
}

// startOf returns the start offset of the text of token i, including the
// opening quote of a string or name.
func (r *declReader) startOf(i int) int32 {
	t := r.toks[i]
	if (t.kind == tString || t.kind == tName) && t.start > 0 {
		return t.start - 1
	}
	return t.start
}

// stateAhead reports whether the modifiers at i lead to "state".
func (r *declReader) stateAhead(i int) bool {
	for k := i; k < len(r.toks) && k < i+4 && r.isIdent(k); k++ {
		if r.isWord(k, "state") {
			return true
		}
	}
	return false
}

// cppText returns the verbatim text between the braces after the keyword
// at i, the keyword's line and the index after the block.
func (r *declReader) cppText(i int) (string, int, int) {
	line := int(r.toks[i].line)
	j := i + 1
	if !r.isSym(j, '{') {
		return "", line, j
	}
	end := r.closing(j)
	from := int(r.toks[j].end)
	to := len(r.src)
	if end < len(r.toks) {
		to = int(r.toks[end].start)
	}
	if to < from {
		to = from
	}
	return string(r.src[from:to]), line, end + 1
}

// classDecl reads the class declaration at i (readClassDecl) into the
// Decls: parent, outer class, dependson list, the other words as modifiers
// with their arguments' text.
func (r *declReader) classDecl(i int) int {
	d := r.d
	d.Name = r.text(i + 1)
	d.Line = int(r.toks[i].line)
	d.ModifierArgs = map[string]string{}
	next, ok := r.readClassDecl(i, func(c classClause) {
		switch {
		case c.kind == clauseExtends:
			d.Super, d.SuperPackage = c.name, c.pkg
		case c.kind == clauseWithin:
			d.Within = c.name
		case c.open >= 0 && equalFold(c.word, "dependson"):
			for k := c.open + 1; k < c.close; k++ {
				if r.isIdent(k) {
					d.DependsOn = append(d.DependsOn, r.text(k))
				}
			}
		default:
			w := r.lower(c.at)
			d.Modifiers = append(d.Modifiers, w)
			if c.open >= 0 && c.close > c.open+1 && c.close <= len(r.toks) {
				d.ModifierArgs[w] = string(r.src[r.startOf(c.open+1):r.endOf(c.close-1)])
			}
		}
	})
	if !ok {
		d.Diagnostics = append(d.Diagnostics, Diagnostic{File: r.file, Line: d.Line, Msg: "class declaration does not end with ';'"})
	}
	return next
}

// modifiers reads declaration modifiers from i (with their parenthesised
// arguments: native(123), config(User)) and returns them lower-cased, the
// native index (or -1) and the next index.
func (r *declReader) modifiers(i int) ([]string, int, int) {
	var mods []string
	native := -1
	for r.isIdent(i) && (classify(r.word(i))&kwModifier != 0 || r.isWord(i, "static") || r.isWord(i, "intrinsic") ||
		// UE2's cache (var() cache string X), unless it is the type
		// (Engine.Cache is a class).
		r.isWord(i, "cache") && r.isIdent(i+1) && (r.isIdent(i+2) || r.isSym(i+2, '<') || r.isSym(i+2, '.'))) {
		w := r.lower(i)
		mods = append(mods, w)
		i++
		if r.isSym(i, '(') {
			end := r.closing(i)
			if (w == "native" || w == "intrinsic") && end == i+2 && r.toks[i+1].kind == tNumber {
				if n, err := strconv.Atoi(r.text(i + 1)); err == nil {
					native = n
				}
			}
			i = end + 1
		}
	}
	return mods, native, i
}

// typeAt reads a type at i; depth bounds nesting.
func (r *declReader) typeAt(i, depth int) (Type, int, bool) {
	if !r.isIdent(i) || depth > maxTypeDepth {
		return Type{}, i, false
	}
	t := Type{Line: int(r.toks[i].line)}
	w := r.lower(i)
	if r.isSym(i+1, '<') {
		switch w {
		case "class", "delegate":
			t.Name = w
			j := i + 2
			if r.isIdent(j) {
				_, name, next := r.qualified(j)
				t.Class = name
				j = next
			}
			for j < len(r.toks) && !r.isSym(j, '>') && !r.isSym(j, ';') {
				j++
			}
			if r.isSym(j, '>') {
				j++
			}
			return t, j, true
		case "array":
			t.Name = "array"
			elem, j, ok := r.typeAt(i+2, depth+1)
			if ok {
				t.Elem = &elem
			}
			if r.isSym(j, '>') {
				j++
			}
			return t, j, true
		}
	}
	switch w {
	case "byte", "int", "bool", "float", "string", "name", "pointer", "button", "map", "class":
		t.Name = w
		if w == "string" && r.isSym(i+1, '[') && r.isSym(i+3, ']') {
			return t, i + 4, true // UE1's string[N]
		}
		return t, i + 1, true
	}
	pkg, name, next := r.qualified(i)
	t.Name, t.Package = name, pkg
	return t, next, true
}

// dim reads an optional [N] at i.
func (r *declReader) dim(i int) (int, string, int) {
	if !r.isSym(i, '[') {
		return 1, "", i
	}
	j := i + 1
	for j < len(r.toks) && !r.isSym(j, ']') && !r.isSym(j, ';') && j < i+8 {
		j++
	}
	txt := ""
	if j > i+1 {
		txt = string(r.src[r.startOf(i+1):r.endOf(j-1)])
	}
	n, err := strconv.Atoi(strings.TrimSpace(txt))
	if err != nil || n < 1 {
		n = 0
	} else {
		txt = ""
	}
	if r.isSym(j, ']') {
		j++
	}
	return n, txt, j
}

// varDecl reads "var(Cat) modifiers Type A, B[4];" from the keyword at i,
// with inline enum and struct types. member is false inside a struct only
// in that the caller collects the result.
func (r *declReader) varDecl(i int, member bool) ([]Var, int, error) {
	line := int(r.toks[i].line)
	j := i + 1
	editable, category := false, ""
	if r.isSym(j, '(') {
		editable = true
		end := r.closing(j)
		if end == j+2 && r.isIdent(j+1) {
			category = r.text(j + 1)
		}
		j = end + 1
	}
	mods, _, j := r.modifiers(j)
	var typ Type
	switch {
	case r.isWord(j, "enum") && r.isIdent(j+1):
		var e Enum
		e, j = r.enumDecl(j)
		e.InStruct = !member
		r.d.Enums = append(r.d.Enums, e)
		typ = Type{Name: e.Name, Line: e.Line}
	case r.isWord(j, "struct"):
		var err error
		before := len(r.d.Structs)
		j, err = r.structDecl(j)
		name := ""
		if len(r.d.Structs) > before {
			name = r.d.Structs[len(r.d.Structs)-1].Name
		}
		if err != nil {
			return nil, j, err
		}
		typ = Type{Name: name, Line: line}
	default:
		var ok bool
		typ, j, ok = r.typeAt(j, 0)
		if !ok {
			return nil, r.skipStatement(j), nil
		}
	}
	var vars []Var
	for j < len(r.toks) {
		if !r.isIdent(j) {
			break
		}
		v := Var{Name: r.text(j), Type: typ, Modifiers: mods, Editable: editable, Category: category, Line: int(r.toks[j].line)}
		v.Dim, v.DimText, j = r.dim(j + 1)
		if r.isSym(j, '<') { // UE2.5+ metadata <ToolTip=...>
			for j < len(r.toks) && !r.isSym(j, '>') && !r.isSym(j, ';') {
				j++
			}
			if r.isSym(j, '>') {
				j++
			}
		}
		vars = append(vars, v)
		if err := r.count(1); err != nil {
			return nil, j, err
		}
		if !r.isSym(j, ',') {
			break
		}
		j++
	}
	_ = member
	return vars, r.skipStatement(j), nil
}

// enumDecl reads "enum Name { A, B }" from the keyword at i and returns the
// index after the closing brace.
func (r *declReader) enumDecl(i int) (Enum, int) {
	e := Enum{Name: r.text(i + 1), Line: int(r.toks[i].line)}
	j := i + 2
	if !r.isSym(j, '{') {
		return e, j
	}
	end := r.closing(j)
	for k := j + 1; k < end; k++ {
		if r.isIdent(k) && (r.isSym(k-1, '{') || r.isSym(k-1, ',')) {
			e.Values = append(e.Values, r.text(k))
			if r.count(1) != nil {
				break
			}
		}
	}
	return e, end + 1
}

// structDecl reads a struct from the keyword at i, appending it (and the
// structs and enums declared inside it) to the class, and returns the index
// after its closing brace.
func (r *declReader) structDecl(i int) (int, error) {
	s := Struct{Line: int(r.toks[i].line)}
	mods, _, j := r.modifiers(i + 1)
	for r.isIdent(j) && (r.isWord(j, "export") || r.isWord(j, "native") || r.isWord(j, "transient") || r.isWord(j, "init") || r.isWord(j, "long") || r.isWord(j, "atomic")) {
		mods = append(mods, r.lower(j))
		j++
	}
	s.Modifiers = mods
	if !r.isIdent(j) {
		return r.skipStatement(j), nil
	}
	s.Name = r.text(j)
	j++
	if (r.isWord(j, "extends") || r.isWord(j, "expands")) && r.isIdent(j+1) {
		_, s.Super, j = r.qualified(j + 1)
	}
	if !r.isSym(j, '{') {
		return r.skipStatement(j), nil
	}
	end := r.closing(j)
	for k := j + 1; k < end; {
		w := ""
		if r.isIdent(k) {
			w = r.lower(k)
		}
		switch w {
		case "var":
			vars, next, err := r.varDecl(k, false)
			if err != nil {
				return next, err
			}
			s.Vars = append(s.Vars, vars...)
			k = next
		case "enum":
			if r.isIdent(k + 1) {
				e, next := r.enumDecl(k)
				e.InStruct = true
				r.d.Enums = append(r.d.Enums, e)
				k = next
				if r.isSym(k, ';') {
					k++
				}
				continue
			}
			k++
		case "struct":
			next, err := r.structDecl(k)
			if err != nil {
				return next, err
			}
			k = next
			if r.isSym(k, ';') {
				k++
			}
		case "structcpptext", "cppstruct", "cpptext":
			txt, _, next := r.cppText(k)
			s.CppText = txt
			k = next
		case "structdefaultproperties":
			k = r.skipBlock(k)
		default:
			k = r.skipStatement(k)
		}
		if k > end {
			k = end
		}
	}
	r.d.Structs = append(r.d.Structs, s)
	return end + 1, r.count(1)
}
