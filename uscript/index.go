package uscript

import (
	"cmp"
	"slices"
	"strings"

	nat "github.com/upkdeps/upkdeps/native"
)

// Index maps class names to the packages that define them, to resolve the
// unqualified names a scan finds, and knows which names are packages, to
// tell Pkg.Name from Variable.Member. Names match case-insensitively.
//
// When several packages define a class name, a reference from one of them
// resolves to itself; otherwise it resolves to the package that was added to
// the index first, and the evidence lists every candidate so the ambiguity
// can be reported. Add packages in build order (the EditPackages order, then
// any other compiled packages) and "first added" is "built first", the one
// ucc make would already have loaded.
//
// Make an Index with NewIndex. It is not safe for concurrent writes; once
// built, its methods (which only read) may be called concurrently.
type Index struct {
	pkgs    map[string]*pkgInfo   // by lower-cased package name
	classes map[string][]*pkgInfo // by lower-cased class name, in the order added
	natives nativeTable           // lower-cased native class -> its package (AddNative)
	// names holds the lower-cased names packages declare (AddNames, and
	// the classes, structs, enums, functions and variables of the sources
	// AddSource adds); closed is set once AddNames was called, and then a
	// type name found nowhere is an unknown class.
	names  map[string]struct{}
	closed bool
	// typeNames are the lower-cased struct and enum names of the source
	// packages added.
	typeNames map[string]struct{}
	// sources are the classes of the source packages added, by lower-cased
	// name (the first added), for the subobjects a subclass may name.
	sources map[string]*Class
}

type pkgInfo struct {
	name string // spelling first added
	// complete is set when the package's classes are known (AddCompiled
	// with a class list, AddSource): Class'Pkg.X' must then name one.
	complete bool
}

// Dependency is one package a source package uses, with the lines that say
// so.
type Dependency struct {
	Package  string
	Evidence []Evidence
}

// Evidence is one source line that makes a package depend on another.
type Evidence struct {
	File string
	Line int
	Kind RefKind
	Name string // the reference as written: Engine.Actor, Texture'Pkg.Tex', Pawn
	Text string // the source line, trimmed
	// Candidates lists every package defining the name, sorted, when there
	// is more than one; the dependency is on the one chosen by the rule
	// documented on Index.
	Candidates []string
}

// NewIndex returns an index holding the classes of compiled packages
// (package name -> exported class names; nil for none), these in sorted
// package order; call AddCompiled and AddSource instead where the build
// order matters, and AddNative for the classes the game's binaries
// register.
func NewIndex(compiled map[string][]string) *Index {
	idx := &Index{pkgs: map[string]*pkgInfo{}, classes: map[string][]*pkgInfo{}, natives: nativeTable{}}
	names := make([]string, 0, len(compiled))
	for name := range compiled {
		names = append(names, name)
	}
	slices.SortFunc(names, compareNames)
	for _, name := range names {
		idx.AddCompiled(name, compiled[name])
	}
	return idx
}

func (idx *Index) pkg(name string) *pkgInfo {
	key := strings.ToLower(name)
	if p := idx.pkgs[key]; p != nil {
		return p
	}
	p := &pkgInfo{name: name}
	idx.pkgs[key] = p
	return p
}

func (idx *Index) addClass(p *pkgInfo, class string) {
	key := strings.ToLower(class)
	if slices.Contains(idx.classes[key], p) {
		return
	}
	idx.classes[key] = append(idx.classes[key], p)
}

// AddCompiled adds a compiled package and the classes it exports. A
// package added twice (compiled and from source) is one package.
func (idx *Index) AddCompiled(pkg string, classes []string) {
	p := idx.pkg(pkg)
	p.complete = p.complete || classes != nil
	for _, c := range classes {
		idx.addClass(p, c)
	}
}

// AddNative adds the native classes a package's binary registers (see
// package native). When ucc make starts, it loads the binaries of every
// package it builds, and their classes exist from then on: a class that
// only native code defines (Sound, Level, Canvas...) is there for every
// package, before and after its own package is built, so a reference to
// it makes no dependency. A native class that script also declares
// (Actor) still resolves to the package that declares it. The package
// itself becomes known, as a package name.
func (idx *Index) AddNative(pkg string, classes []string) {
	idx.pkg(pkg)
	for _, c := range classes {
		key := strings.ToLower(c)
		if _, ok := idx.natives[key]; !ok {
			idx.natives[key] = pkg
		}
	}
}

// AddSource adds a scanned source package and its classes, with every
// name its sources declare (see AddNames).
func (idx *Index) AddSource(sp *Package) {
	p := idx.pkg(sp.Name)
	p.complete = true
	if idx.sources == nil {
		idx.sources = map[string]*Class{}
	}
	for _, c := range sp.Classes {
		if _, ok := idx.sources[strings.ToLower(c.Name)]; !ok {
			idx.sources[strings.ToLower(c.Name)] = c
		}
		idx.addClass(p, c.Name)
		idx.addNames(c.funcs)
		idx.addNames(c.vars)
		idx.addNames(c.types)
		if idx.typeNames == nil {
			idx.typeNames = map[string]struct{}{}
		}
		for k := range c.types {
			idx.typeNames[k] = struct{}{}
		}
	}
}

func (idx *Index) addNames(m map[string]struct{}) {
	if idx.names == nil {
		idx.names = map[string]struct{}{}
	}
	for k := range m {
		idx.names[k] = struct{}{}
	}
}

// AddNames adds names a compiled package declares (its name table: the
// names of its structs, enums, functions and variables among others). Once
// it was called the index holds every name the install declares, and a
// name used as a type, a cast, X.default or new X that is no class and no
// name of any package is reported by Unresolved; without it only the
// references that can name nothing but a class are.
func (idx *Index) AddNames(names []string) {
	if idx.names == nil {
		idx.names = map[string]struct{}{}
	}
	idx.closed = true
	for _, n := range names {
		idx.names[strings.ToLower(n)] = struct{}{}
	}
}

// IsPackage reports whether name is a package in the index.
func (idx *Index) IsPackage(name string) bool {
	_, ok := idx.pkgs[strings.ToLower(name)]
	return ok
}

// Packages returns the packages defining class, in the order they were
// added (the first is the one an ambiguous reference resolves to), or nil.
// The caller owns the slice.
func (idx *Index) Packages(class string) []string {
	var out []string
	for _, p := range idx.classes[strings.ToLower(class)] {
		out = append(out, p.name)
	}
	return out
}

// outcome of resolving one reference.
type outcome int

const (
	dropped    outcome = iota // not a reference to a package (a struct, a variable, a call)
	self                      // resolves to the package being resolved
	resolved                  // resolves to another package
	unresolved                // must name a class or package, but names none the index knows
	native                    // a class only native code defines: there before any package is built
)

type resolver struct {
	idx    *Index
	self   string
	own    map[string]bool     // lower-cased classes of the package itself
	funcs  map[string]struct{} // lower-cased functions the package declares
	groups map[string]bool     // lower-cased groups #exec lines put into the package
	names  map[string]struct{} // lower-cased names the package's sources declare
	byName map[string]*Class   // the package's classes by lower-cased name
	types  map[string]struct{} // lower-cased structs and enums the package declares
	buf    []byte              // see lower
}

func (idx *Index) resolver(p *Package) *resolver {
	r := &resolver{idx: idx, self: p.Name, own: map[string]bool{}, funcs: map[string]struct{}{}, groups: map[string]bool{},
		names: map[string]struct{}{}, byName: map[string]*Class{}, types: map[string]struct{}{}}
	for _, c := range p.Classes {
		r.own[strings.ToLower(c.Name)] = true
		r.byName[strings.ToLower(c.Name)] = c
		for f := range c.funcs {
			r.funcs[f] = struct{}{}
		}
		for k := range c.types {
			r.types[k] = struct{}{}
		}
		for _, m := range []map[string]struct{}{c.vars, c.types} {
			for n := range m {
				r.names[n] = struct{}{}
			}
		}
		for _, g := range c.groups {
			if g.pkg == "" || strings.EqualFold(g.pkg, p.Name) {
				r.groups[strings.ToLower(g.name)] = true
			}
		}
	}
	return r
}

// lower returns name lower-cased in a buffer reused by the next call, for
// map lookups that then do not allocate (m[string(b)]).
func (r *resolver) lower(name string) []byte {
	r.buf = r.buf[:0]
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		r.buf = append(r.buf, c)
	}
	return r.buf
}

// class resolves a class name.
func (r *resolver) class(name string) (string, []string, outcome) {
	key := r.lower(name)
	if r.own[string(key)] {
		return r.self, nil, self
	}
	defs := r.idx.classes[string(key)]
	if len(defs) == 0 {
		if pkg, ok := r.idx.natives[string(key)]; ok {
			return pkg, nil, native
		}
		return "", nil, unresolved
	}
	for _, d := range defs {
		if strings.EqualFold(d.name, r.self) {
			return r.self, nil, self
		}
	}
	if len(defs) == 1 {
		return defs[0].name, nil, resolved
	}
	cands := make([]string, len(defs))
	for i, d := range defs {
		cands[i] = d.name
	}
	slices.SortFunc(cands, compareNames)
	return defs[0].name, cands, resolved
}

// definedIn reports whether the index has class in package pkg.
func (r *resolver) definedIn(class, pkg string) bool {
	if strings.EqualFold(pkg, r.self) {
		return r.own[string(r.lower(class))]
	}
	for _, d := range r.idx.classes[string(r.lower(class))] {
		if strings.EqualFold(d.name, pkg) {
			return true
		}
	}
	return false
}

// ownObject reports whether the literal Type'A.B' of class c names an
// object of c rather than a package A: A is c or a class it extends
// (GUIImage'MyPage.BkChar' in class MyPage), or A is no package and B a
// subobject (Begin Object ... Name=B) of c or of a class it extends (in
// this package or a source package of the index).
func (r *resolver) ownObject(c *Class, ref Ref) bool {
	if ref.Kind != KindLiteral || ref.Package == "" {
		return false
	}
	first, _, _ := strings.Cut(ref.Name, ".")
	pkgKnown := r.isPackage(ref.Package)
	for k := 0; c != nil && k < 64; k++ {
		if strings.EqualFold(c.Name, ref.Package) {
			return true
		}
		if _, ok := c.subobjects[string(r.lower(first))]; ok && !pkgKnown {
			return true
		}
		super := strings.ToLower(c.Super)
		if next := r.byName[super]; next != nil {
			c = next
		} else {
			c = r.idx.sources[super]
		}
	}
	return false
}

// notInPackage reports whether a reference that can only name a class
// (extends Pkg.X, within Pkg.X, Class'Pkg.X') names a package whose
// classes are all known, none of them X, and no native class X of it.
func (r *resolver) notInPackage(ref Ref) bool {
	switch {
	case ref.Package == "":
		return false
	case ref.Kind == KindLiteral && !strings.EqualFold(ref.Type, "class"):
		return false
	case ref.Kind != KindLiteral && ref.Kind != KindExtends && ref.Kind != KindWithin:
		return false
	}
	name := ref.Name
	if ref.Kind == KindLiteral && strings.Contains(name, ".") {
		return false // Class'Pkg.Group.X': not a plain class path
	}
	if strings.EqualFold(ref.Package, r.self) {
		return !r.own[string(r.lower(name))]
	}
	p := r.idx.pkgs[string(r.lower(ref.Package))]
	if p == nil || !p.complete {
		return false
	}
	if n, ok := r.idx.natives[string(r.lower(name))]; ok && strings.EqualFold(n, ref.Package) {
		return false
	}
	return !r.definedIn(name, ref.Package)
}

// movedClass reports whether ref is a defaultproperties value
// Class'Pkg.X' that Pkg does not define while another package defines a
// class X: a value the compiler cannot import is a warning ("Invalid
// property value in defaults"), not a failure, and 227's sources name
// classes it moved from UnrealI to UnrealShare by their old package.
func (r *resolver) movedClass(ref Ref) bool {
	return ref.Kind == KindLiteral && ref.value && ref.Package != "" && strings.EqualFold(ref.Type, "class") &&
		!strings.Contains(ref.Name, ".") && len(r.idx.classes[string(r.lower(ref.Name))]) > 0
}

// known reports whether a package declares name as anything at all.
func (r *resolver) known(name string) bool {
	key := r.lower(name)
	_, mine := r.names[string(key)]
	_, fn := r.funcs[string(key)]
	_, any := r.idx.names[string(key)]
	return mine || fn || any
}

func (r *resolver) isPackage(name string) bool {
	_, ok := r.idx.pkgs[string(r.lower(name))]
	return ok
}

// nativeTable maps a lower-cased native class to the package whose binary
// registers it (the first added): a native.Registry (package native,
// imported as nat: native is an outcome here).
type nativeTable map[string]string

// Has reports whether pkg's native code registers class.
func (t nativeTable) Has(pkg, class string) bool {
	n, ok := t[strings.ToLower(class)]
	return ok && strings.EqualFold(n, pkg)
}

// nativeOnly reports whether pkg.class names a native-only class: pkg's
// binary registers it and pkg's sources (or compiled classes) do not
// declare it. native.Only is the rule, shared with the compiled imports.
func (r *resolver) nativeOnly(pkg, class string) bool {
	return nat.Only(r.idx.natives, pkg, class, func(c string) bool { return r.definedIn(c, pkg) })
}

// pkg resolves a name written as a package.
func (r *resolver) pkg(name string) (string, []string, outcome) {
	if strings.EqualFold(name, r.self) {
		return r.self, nil, self
	}
	if p := r.idx.pkgs[string(r.lower(name))]; p != nil {
		return p.name, nil, resolved
	}
	return name, nil, resolved
}

// scoped reports whether key (a name lower-cased) is a struct or enum that class c or a class
// it extends declares: a type name binds to it before any class of that
// name (a subclass of Fire.FireTexture that writes array<Spark> means the
// struct Spark it inherits, not the class UnrealShare.Spark).
func (r *resolver) scoped(c *Class, key []byte) bool {
	if len(r.idx.typeNames) == 0 && len(r.types) == 0 {
		return false
	}
	_, any := r.idx.typeNames[string(key)]
	_, mine := r.types[string(key)]
	if !any && !mine {
		return false // no source declares a struct or enum of that name
	}
	for k := 0; c != nil && k < 64; k++ {
		if _, ok := c.types[string(key)]; ok {
			return true
		}
		if c.superKey == "" {
			return false
		}
		if next := r.byName[c.superKey]; next != nil && next != c {
			c = next
		} else {
			c = r.idx.sources[c.superKey]
		}
	}
	return false
}

func (r *resolver) resolve(c *Class, ref Ref) (string, []string, outcome) {
	switch ref.Kind {
	case KindExec:
		return r.pkg(ref.Package)
	case KindLiteral:
		if ref.Package != "" {
			// The engine finds Texture'Skins.Tex' in any package with a
			// group Skins, its own included.
			if r.groups[string(r.lower(ref.Package))] && !r.isPackage(ref.Package) {
				return r.self, nil, self
			}
			return r.pkg(ref.Package)
		}
		if strings.EqualFold(ref.Type, "class") {
			return r.class(ref.Name)
		}
		return "", nil, dropped
	case KindExtends, KindWithin, KindDependsOn:
		if ref.Package != "" {
			return r.pkg(ref.Package)
		}
		// A subclass needs its parent's script compiled, not only its
		// native registration: the parent's package is a dependency.
		pkg, cands, out := r.class(ref.Name)
		if out == native {
			out = resolved
		}
		return pkg, cands, out
	case KindType:
		if ref.Package != "" {
			// Pkg.Class, or Class.Struct / Class.Enum.
			if r.nativeOnly(ref.Package, ref.Name) {
				return ref.Package, nil, native
			}
			if r.isPackage(ref.Package) || strings.EqualFold(ref.Package, r.self) {
				return r.pkg(ref.Package)
			}
			return r.class(ref.Package)
		}
		if _, isFunc := r.funcs[string(r.lower(ref.Name))]; ref.call && isFunc {
			return "", nil, dropped
		}
		if pkg, cands, out := r.class(ref.Name); out != unresolved {
			if !ref.class && r.scoped(c, r.buf) { // r.buf: class lower-cased the name
				return "", nil, dropped // a struct or enum of the class or a parent
			}
			return pkg, cands, out
		}
		if ref.class {
			return "", nil, unresolved // class<X>, Super(X): nothing but a class
		}
		if ref.call {
			// Name(expr) is a cast only when Name is a class; a call
			// of a function inherited from a parent (Abs, Spawn, log)
			// otherwise.
			return "", nil, dropped
		}
		if r.known(ref.Name) || !r.idx.closed {
			return "", nil, dropped // a struct, an enum, a variable, a function
		}
		return "", nil, unresolved
	case KindQualified:
		if !r.isPackage(ref.Package) && !strings.EqualFold(ref.Package, r.self) {
			return "", nil, dropped // Variable.Member
		}
		// In code Pkg.Name can only be a class (Engine.Actor(Other),
		// Engine.Actor.default.X); a package-named variable (a local
		// called Core) is not. A defaultproperties value may name any
		// object (Mesh=Pkg.Mesh).
		if r.nativeOnly(ref.Package, ref.Name) {
			return ref.Package, nil, native
		}
		if ref.value || r.definedIn(ref.Name, ref.Package) {
			return r.pkg(ref.Package)
		}
	}
	return "", nil, dropped
}

func evidence(c *Class, ref Ref, cands []string) Evidence {
	return Evidence{File: c.File, Line: ref.Line, Kind: ref.Kind, Name: ref.String(), Text: ref.Text, Candidates: cands}
}

// Dependencies returns the packages other than p that p's sources use,
// sorted by name, each with its evidence sorted by file and line. The
// package's own classes always resolve to itself, whether or not p was
// added to the index. A package named explicitly (extends Pkg.Class,
// Texture'Pkg.Tex', #exec OBJ LOAD) is a dependency even when the index
// does not know it: it is then a missing one.
func (idx *Index) Dependencies(p *Package) []Dependency {
	r := idx.resolver(p)
	byPkg := map[string]*Dependency{}
	for _, c := range p.Classes {
		if c.Subfolder {
			continue
		}
		for _, ref := range c.Refs {
			pkg, cands, out := r.resolve(c, ref)
			if out != resolved || r.ownObject(c, ref) {
				continue
			}
			d := byPkg[string(r.lower(pkg))]
			if d == nil {
				d = &Dependency{Package: pkg}
				byPkg[strings.ToLower(pkg)] = d
			}
			d.Evidence = append(d.Evidence, evidence(c, ref, cands))
		}
	}
	deps := make([]Dependency, 0, len(byPkg))
	for _, d := range byPkg {
		sortEvidence(d.Evidence)
		// A reference written twice on one line is one piece of evidence.
		d.Evidence = slices.CompactFunc(d.Evidence, func(a, b Evidence) bool {
			return a.File == b.File && a.Line == b.Line && a.Kind == b.Kind && a.Name == b.Name
		})
		deps = append(deps, *d)
	}
	slices.SortFunc(deps, func(a, b Dependency) int { return compareNames(a.Package, b.Package) })
	return deps
}

// Unresolved returns the references of p that must name a class or a
// package but name none the index knows (extends Foo, within Foo,
// dependson(Foo), Class'Foo', class<Foo>, var Foo.Bar, and once AddNames
// was called var Foo, Foo(expr), new Foo and Foo.default where no package
// declares the name Foo at all), sorted by file and line: each is a class
// ucc make will not find, unless another package not yet in the index
// defines it.
func (idx *Index) Unresolved(p *Package) []Evidence {
	r := idx.resolver(p)
	var out []Evidence
	for _, c := range p.Classes {
		if c.Subfolder {
			continue
		}
		for _, ref := range c.Refs {
			if ref.Inactive {
				continue // in a #if branch that may not be compiled
			}
			if _, _, o := r.resolve(c, ref); (o == unresolved || (o == resolved || o == self) && r.notInPackage(ref)) && !r.ownObject(c, ref) && !r.movedClass(ref) {
				out = append(out, evidence(c, ref, nil))
			}
		}
	}
	sortEvidence(out)
	return out
}

func sortEvidence(ev []Evidence) {
	slices.SortFunc(ev, func(a, b Evidence) int {
		return cmp.Or(
			strings.Compare(a.File, b.File),
			cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Kind, b.Kind),
			strings.Compare(a.Name, b.Name),
		)
	})
}
