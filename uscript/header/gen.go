package header

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/uscript"
)

// Package is one package's sources, as ReadDecls read them.
type Package struct {
	Name    string
	Classes []*uscript.Decls
	// Native, when set, reports the classes the package's native module
	// registers (from its binary or a table): ucc exports those too even
	// when their script does not say native (Engine.SavedMove).
	Native func(class string) bool
	// Include, when set, reports whether <Pkg>/Inc/<cpp>.h exists: UE2
	// writes #include "<cpp>.h" into the class then.
	Include func(cpp string) bool
}

type class struct {
	d        *uscript.Decls
	pkg      *pkgInfo
	name     string // the name table's spelling of the file name
	file     string // the base file name, for ordering
	parent   *class
	children []*class
	actor    bool // derives from Actor
	config   bool // CLASS_Config, inherited
	trans    bool // CLASS_Transient, inherited
	exported bool
	native   bool            // declared native or intrinsic, or registered by the module
	funcs    map[string]bool // lower-cased names of the functions declared
}

type pkgInfo struct {
	name    string
	index   int
	classes []*class
	include func(cpp string) bool
}

type structInfo struct{ name string }

// Generator holds the classes, types and names of the packages added so
// far, in compile order.
type Generator struct {
	layout  Layout
	names   *names
	classes map[string]*class // lower-cased name -> the first class of that name
	// qualified maps lower-cased Package.Class to its class.
	qualified map[string]*class
	structs   map[string]*structInfo
	enums     map[string]string
	consts    map[string]string
	pkgs      []*pkgInfo
	hints     map[string]*Hints // lower-cased package name -> hints
	// nativeNames are the C++ names of the classes an existing header
	// names (lower-cased name without prefix -> AFoo or UFoo).
	nativeNames map[string]string
	// probes are the events existing headers call only when probed
	// (true) or always (false), lower-cased.
	probes map[string]bool
}

// New returns a Generator for layout.
func New(layout Layout) *Generator {
	return &Generator{
		layout:  layout,
		names:   newNames(),
		classes: map[string]*class{},

		qualified: map[string]*class{},
		structs:   map[string]*structInfo{},
		enums:     map[string]string{},
		consts:    map[string]string{},
		hints:     map[string]*Hints{},

		nativeNames: map[string]string{},
		probes:      map[string]bool{},
	}
}

// AddHints registers what an existing header of package pkg says about the
// engine's state (see the package documentation). Call it for every
// package before the first Add: the spellings it carries stand for names
// the engine knew before it compiled.
func (g *Generator) AddHints(pkg string, h *Hints) {
	if h == nil {
		return
	}
	g.hints[strings.ToLower(pkg)] = h
	for _, s := range h.Thunks {
		g.probes[strings.ToLower(s)] = false
	}
	for _, s := range h.Probes {
		g.probes[strings.ToLower(s)] = true
	}
	for _, s := range h.Spellings {
		g.names.add(s)
	}
	for _, s := range h.ClassRefs {
		if len(s) < 2 || s[0] != 'A' && s[0] != 'U' {
			continue
		}
		if k := strings.ToLower(s[1:]); g.nativeNames[k] == "" {
			g.nativeNames[k] = s
		}
	}
}

// Add adds a package's classes, after those of the packages added before
// (its dependencies, in EditPackages order).
func (g *Generator) Add(p Package) error {
	pi := &pkgInfo{name: g.names.spell(p.Name), index: len(g.pkgs), include: p.Include}
	g.pkgs = append(g.pkgs, pi)
	decls := slices.Clone(p.Classes)
	// ucc make imports the files as the file system lists them
	// (FindFiles: alphabetical on Windows); the class object is named
	// after the file.
	slices.SortStableFunc(decls, func(a, b *uscript.Decls) int {
		return cmp.Compare(strings.ToLower(baseName(a.File)), strings.ToLower(baseName(b.File)))
	})
	for _, d := range decls {
		name := baseName(d.File)
		if name == "" || !strings.EqualFold(name, d.Name) {
			name = d.Name
		}
		if err := g.addClass(pi, d, name); err != nil {
			return err
		}
	}
	g.link(pi)
	// Declarations in class-tree order, parents first, as the compiler's
	// first pass meets them.
	for _, c := range g.treeOrder(pi) {
		g.declare(c)
	}
	for _, c := range pi.classes {
		g.flags(c, 0)
		d := c.d
		c.native = d.Has("native") || d.Has("intrinsic") || p.Native != nil && p.Native(c.name)
		c.exported = c.native && !d.Has("noexport")
	}
	return nil
}

// addClass adds the class d declares, named name (its file's name).
func (g *Generator) addClass(pi *pkgInfo, d *uscript.Decls, name string) error {
	c := &class{d: d, pkg: pi, name: g.names.spell(name), file: strings.ToLower(baseName(d.File))}
	key := strings.ToLower(pi.name + "." + c.name)
	if old, dup := g.qualified[key]; dup {
		return fmt.Errorf("header: class %s is declared in %s and %s", c.name, old.d.File, d.File)
	}
	g.qualified[key] = c
	// A name defined in several packages (Wheel of Time's WOT.TriggerLight
	// beside Engine's) means the first one to others; a package's own
	// classes come first for it (see lookup).
	if _, ok := g.classes[strings.ToLower(c.name)]; !ok {
		g.classes[strings.ToLower(c.name)] = c
	}
	pi.classes = append(pi.classes, c)
	if d.Super != "" {
		g.names.spell(d.Super)
	}
	return nil
}

// AddCompiled adds a package known only from its compiled file f (an SDK's
// Engine.u without sources): its names, in the order of its name table, as
// the engine has them once it loaded the package; its classes, with their
// parents and the names of their functions, so that a class built on them
// knows its ancestry and which events it overrides; and its structs and
// enums, for the types of members. None of its classes is exported.
func (g *Generator) AddCompiled(pkg string, f *format.File) error {
	for _, n := range f.Names {
		g.names.add(n.Name)
	}
	pi := &pkgInfo{name: g.names.spell(pkg), index: len(g.pkgs)}
	g.pkgs = append(g.pkgs, pi)
	decls := map[int]*uscript.Decls{}
	for i, ex := range f.Exports {
		if !ex.Class.IsNull() {
			continue
		}
		d := &uscript.Decls{Name: f.ObjectName(format.ExportRef(i)), File: pkg + ".u"}
		if !ex.Super.IsNull() {
			d.Super = f.ObjectName(ex.Super)
		}
		decls[i] = d
	}
	for i, ex := range f.Exports {
		if ex.Class.IsNull() || !ex.Outer.IsExport() {
			continue
		}
		d := decls[ex.Outer.Index()]
		if d == nil {
			continue // not a member of a class
		}
		name := f.ObjectName(format.ExportRef(i))
		switch class, _ := f.ClassOf(format.ExportRef(i)); class {
		case "Function":
			d.Funcs = append(d.Funcs, uscript.Func{Name: name, NativeIndex: -1})
		case "Struct", "ScriptStruct":
			g.structs[strings.ToLower(name)] = &structInfo{name: g.names.spell(name)}
		case "Enum":
			g.enums[strings.ToLower(name)] = g.names.spell(name)
		}
	}
	for i := range f.Exports {
		if d := decls[i]; d != nil {
			if err := g.addClass(pi, d, d.Name); err != nil {
				return err
			}
		}
	}
	g.link(pi)
	for _, c := range pi.classes {
		g.flags(c, 0)
	}
	return nil
}

// link sets the parents and children of a package's classes, cutting
// parent cycles, and indexes their functions.
func (g *Generator) link(pi *pkgInfo) {
	for _, c := range pi.classes {
		if c.d.Super != "" {
			c.parent = g.lookup(pi, c.d.Super, c.d.SuperPackage)
		}
	}
	// A parent cycle (class A extends B, B extends A) is an error ucc
	// reports; here the link that closes it is cut, so that every walk up
	// the tree ends.
	for _, c := range pi.classes {
		seen := map[*class]bool{c: true}
		for p := c; p.parent != nil; p = p.parent {
			if seen[p.parent] {
				p.parent = nil
				break
			}
			seen[p.parent] = true
		}
	}
	for _, c := range pi.classes {
		if c.parent != nil {
			c.parent.children = append(c.parent.children, c)
		}
		c.funcs = map[string]bool{}
		for _, f := range c.d.Funcs {
			c.funcs[strings.ToLower(f.Name)] = true
		}
	}
}

func baseName(path string) string {
	b := filepath.Base(strings.ReplaceAll(path, `\`, "/"))
	return strings.TrimSuffix(b, filepath.Ext(b))
}

// treeOrder returns the package's classes parents first, siblings in file
// order.
func (g *Generator) treeOrder(pi *pkgInfo) []*class {
	var out []*class
	seen := map[*class]bool{}
	var visit func(c *class, depth int)
	visit = func(c *class, depth int) {
		if seen[c] || depth > 1000 {
			return
		}
		if c.parent != nil && c.parent.pkg == pi && !seen[c.parent] {
			visit(c.parent, depth+1)
		}
		if seen[c] {
			return
		}
		seen[c] = true
		out = append(out, c)
	}
	for _, c := range pi.classes {
		visit(c, 0)
	}
	return out
}

// declare adds the names a class declares to the name table, in source
// order, and registers its structs, enums and constants.
func (g *Generator) declare(c *class) {
	type item struct {
		line int
		name string
	}
	d := c.d
	var items []item
	add := func(line int, s string) { items = append(items, item{line, s}) }
	for _, k := range d.Consts {
		add(k.Line, k.Name)
		if _, ok := g.consts[strings.ToLower(k.Name)]; !ok {
			g.consts[strings.ToLower(k.Name)] = k.Value
		}
	}
	for _, e := range d.Enums {
		add(e.Line, e.Name)
		for _, v := range e.Values {
			add(e.Line, v)
		}
	}
	for _, s := range d.Structs {
		add(s.Line, s.Name)
		for _, v := range s.Vars {
			add(v.Line, v.Name)
		}
	}
	for _, v := range d.Vars {
		add(v.Line, v.Name)
	}
	for _, s := range d.Structs {
		g.structs[strings.ToLower(s.Name)] = &structInfo{name: g.names.spell(s.Name)}
	}
	for _, f := range d.Funcs {
		if isOperator(f.Kind) {
			add(f.Line, operatorName(f, g))
		} else {
			add(f.Line, f.Name)
		}
		for _, p := range f.Params {
			add(p.Line, p.Name)
		}
	}
	slices.SortStableFunc(items, func(a, b item) int { return a.line - b.line })
	for _, it := range items {
		g.names.add(it.name)
	}
	for _, e := range d.Enums {
		g.enums[strings.ToLower(e.Name)] = g.names.spell(e.Name)
	}
	for _, s := range d.Structs {
		g.structs[strings.ToLower(s.Name)] = &structInfo{name: g.names.spell(s.Name)}
	}
}

// flags works out the inherited class flags.
func (g *Generator) flags(c *class, depth int) {
	if depth > 1000 {
		return
	}
	d := c.d
	c.actor = strings.EqualFold(c.name, "Actor")
	// UE1 sets CLASS_Config for config(...) and for a config variable;
	// UE2 only for a config variable (VoiceChatRoom, config(User) without
	// one, has none in UT2004's header).
	c.config = !g.layout.UE2 && (d.Has("config") || d.Has("perobjectconfig"))
	c.trans = d.Has("transient")
	for _, v := range d.Vars {
		if v.Has("config") || v.Has("globalconfig") {
			c.config = true
		}
	}
	if p := c.parent; p != nil {
		if p.pkg == c.pkg {
			g.flags(p, depth+1)
		}
		c.actor = c.actor || p.actor
		c.config = c.config || p.config
		c.trans = c.trans || p.trans
	} else if d.Super != "" {
		// The parent has no source here (a mod built against an SDK's
		// headers): it is an actor when it is Actor, or when an existing
		// header names it or this class with the A prefix.
		c.actor = c.actor || strings.EqualFold(d.Super, "Actor") ||
			strings.HasPrefix(g.nativeNames[strings.ToLower(d.Super)], "A") ||
			strings.HasPrefix(g.nativeNames[strings.ToLower(c.name)], "A")
	}
}

// cppName returns the C++ name of a class: A or U and the name.
func (g *Generator) cppName(c *class) string {
	if c.actor {
		return "A" + c.name
	}
	return "U" + c.name
}

// classRef returns the C++ name of a class named name (U for unknown and
// Object).
func (g *Generator) classRef(name string) string {
	if c := g.classes[strings.ToLower(name)]; c != nil {
		return g.cppName(c)
	}
	// A class with no script (Engine.Model, Engine.Level) is registered
	// by the native module before any script is read: its spelling is the
	// C++ one, which only an existing header tells; else the source's with
	// a capital.
	if s, ok := g.nativeNames[strings.ToLower(name)]; ok {
		return s
	}
	return "U" + strings.ToUpper(name[:1]) + name[1:]
}

// ctype returns the C++ type of t in a class member (member) or a
// function parameter.
func (g *Generator) ctype(t uscript.Type, member bool) string {
	switch t.Name {
	case "byte":
		return "BYTE"
	case "int":
		return "INT"
	case "bool":
		return "BITFIELD"
	case "float":
		return "FLOAT"
	case "name":
		return "FName"
	case "string":
		if member {
			return "FStringNoInit"
		}
		return "FString"
	case "button":
		return "FName"
	case "class":
		return "class UClass*"
	case "delegate":
		return "FScriptDelegate"
	case "array":
		if t.Elem == nil {
			return "FArray"
		}
		if member && g.layout.UE2 {
			return "TArrayNoInit<" + g.ctype(*t.Elem, false) + ">"
		}
		return "TArray<" + g.ctype(*t.Elem, false) + ">"
	case "map":
		return "FMap"
	}
	k := strings.ToLower(t.Name)
	if _, ok := g.enums[k]; ok {
		return "BYTE"
	}
	if s, ok := g.structs[k]; ok {
		return "F" + s.name
	}
	if strings.EqualFold(t.Name, "pointer") {
		// UE2 (the public UT2004 SDK's EngineClasses.h) writes pointer-sized PTRINT.
		if g.layout.UE2 {
			return "PTRINT"
		}
		return "INT"
	}
	return "class " + g.classRef(t.Name) + "*"
}

// dim returns the static array size of a declaration as a number.
func (g *Generator) dim(c *class, n int, text string) int {
	if n > 0 {
		return n
	}
	for depth := 0; depth < 8 && text != ""; depth++ {
		if v, err := strconv.ParseInt(strings.TrimSpace(text), 0, 32); err == nil {
			return int(v)
		}
		text = g.constValue(c, strings.TrimSpace(text))
	}
	return 1
}

// constValue returns the value of the constant name as class c sees it:
// its own, a parent's, else the first declared anywhere.
func (g *Generator) constValue(c *class, name string) string {
	for p, depth := c, 0; p != nil && depth < 1000; p, depth = p.parent, depth+1 {
		for _, k := range p.d.Consts {
			if strings.EqualFold(k.Name, name) {
				return k.Value
			}
		}
	}
	return g.consts[strings.ToLower(name)]
}

func isOperator(kind string) bool { return strings.HasSuffix(kind, "operator") }

// operatorSymbols names the operator symbols the way the compiler names the
// functions they declare.
var operatorSymbols = map[string]string{
	"+": "Add", "-": "Subtract", "*": "Multiply", "/": "Divide", "%": "Percent",
	"**": "MultiplyMultiply", "==": "EqualEqual", "!=": "NotEqual", "<": "Less", ">": "Greater",
	"<=": "LessEqual", ">=": "GreaterEqual", "~=": "ComplementEqual", "<<": "LessLess",
	">>": "GreaterGreater", ">>>": "GreaterGreaterGreater", "&&": "AndAnd", "||": "OrOr",
	"^^": "XorXor", "&": "And", "|": "Or", "^": "Xor", "!": "Not", "~": "Complement",
	"++": "AddAdd", "--": "SubtractSubtract", "+=": "AddEqual", "-=": "SubtractEqual",
	"*=": "MultiplyEqual", "/=": "DivideEqual", "$": "Concat", "@": "At", "$=": "ConcatEqual",
	"@=": "AtEqual",
}

// operatorName returns the name of an operator function: the symbol's
// word, "_" and its parameter types (Multiply_ColorFloat); a preoperator's
// type is prefixed with Pre. g may be nil (the types then keep their
// source spelling).
func operatorName(f uscript.Func, g *Generator) string {
	word, ok := operatorSymbols[f.Symbol]
	if !ok {
		word = strings.ToUpper(f.Symbol[:min(1, len(f.Symbol))]) + f.Symbol[min(1, len(f.Symbol)):]
	}
	var b strings.Builder
	b.WriteString(word)
	b.WriteByte('_')
	if f.Kind == "preoperator" {
		b.WriteString("Pre")
	}
	for _, p := range f.Params {
		b.WriteString(operandName(p.Type, g))
	}
	return b.String()
}

func operandName(t uscript.Type, g *Generator) string {
	switch t.Name {
	case "string":
		return "Str" // execConcat_StrStr
	case "byte", "int", "bool", "float", "name":
		return strings.ToUpper(t.Name[:1]) + t.Name[1:]
	case "class":
		return "Object"
	}
	if g != nil {
		k := strings.ToLower(t.Name)
		if _, ok := g.enums[k]; ok {
			return "Byte"
		}
		if s, ok := g.structs[k]; ok {
			return s.name
		}
		return "Object" // any class
	}
	return t.Name
}

// funcName returns the name of a function as the name table spells it.
func (g *Generator) funcName(f uscript.Func) string {
	if isOperator(f.Kind) {
		return g.names.spell(operatorName(f, g))
	}
	return g.names.spell(f.Name)
}

// Declared reports whether package pkg declares the class whose C++ name
// is cpp (AActor) in its sources, where, and whether it is exported.
func (g *Generator) Declared(pkg, cpp string) (file string, line int, exported, ok bool) {
	c := g.declaredClass(pkg, cpp)
	if c == nil {
		return "", 0, false, false
	}
	return c.d.File, c.d.Line, c.exported, true
}

func (g *Generator) declaredClass(pkg, cpp string) *class {
	if len(cpp) < 2 {
		return nil
	}
	c := g.qualified[strings.ToLower(pkg+"."+cpp[1:])]
	if c == nil || !strings.EqualFold(c.pkg.name, pkg) || !strings.EqualFold(g.cppName(c), cpp) {
		return nil
	}
	return c
}

// lookup finds the class name as package pi sees it: Pkg.Name when
// qualified, else its own class of that name, else the first one added.
func (g *Generator) lookup(pi *pkgInfo, name, pkg string) *class {
	if pkg != "" {
		if c := g.qualified[strings.ToLower(pkg+"."+name)]; c != nil {
			return c
		}
	}
	if pi != nil {
		if c := g.qualified[strings.ToLower(pi.name+"."+name)]; c != nil {
			return c
		}
	}
	return g.classes[strings.ToLower(name)]
}
