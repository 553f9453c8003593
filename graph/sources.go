package graph

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/native"
	"github.com/upkdeps/upkdeps/uscript"
)

// Sources is what the UnrealScript sources of EditPackages say: the
// scanned packages, their dependencies and unknown classes, for
// CheckEditPackages and Check.
type Sources struct {
	Root     string                // the game root the packages were found under
	Packages []*uscript.Package    // one per EditPackages entry, in list order
	deps     map[string][]OrderDep // by lower-cased package name, only for packages with sources
	unknown  []Finding             // unknown_class findings, one per package and class name
	// unchecked says which names the check abstained on (nil: none).
	unchecked *UncheckedNames
}

// UncheckedNames is the one note of a tree whose sources use names the
// check could not look up: a package that could declare them was not
// read (an earlier EditPackages entry with neither sources nor a .u, or
// the native classes of a package with C++ code that no binary or table
// of this game lists). Those names are no unknown_class finding: ucc make
// may well find them.
type UncheckedNames struct {
	// NoSources are the entries with neither sources nor a compiled .u
	// before (or at) a package whose names went unchecked, in list order.
	NoSources []string `json:"no_sources"`
	// NoNatives are the entries with native code whose native classes
	// were not read, in list order.
	NoNatives []string `json:"no_natives"`
	// Names counts the distinct names (per package) not checked.
	Names   int    `json:"names"`
	Message string `json:"message"`
}

// ScanSources reads <gameRoot>/<Pkg>/Classes/*.uc (and the .upkg) of every
// EditPackages entry and resolves their cross-package references through a
// class index of the compiled packages in the graph and the sources, built
// in EditPackages order, and of the native classes of nat (nil: the
// built-in tables): a class only native code defines exists before any
// package is built and makes no dependency. Entries without sources get no
// source dependencies: their compiled imports stand in. A class name no
// package, source or native code defines (checked against the names the
// compiled code packages' name tables declare when it is not plainly a
// class) becomes an unknown_class finding (Findings). It stops with ctx's error
// when ctx is done, between packages.
func (gr *Graph) ScanSources(ctx context.Context, gameRoot string, edit []string, nat *native.Set) (*Sources, error) {
	src := &Sources{Root: gameRoot, deps: map[string][]OrderDep{}}
	for _, n := range edit {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		sp, err := uscript.ScanPackage(gameRoot, n)
		if err != nil {
			return nil, err
		}
		src.Packages = append(src.Packages, sp)
	}
	if !slices.ContainsFunc(src.Packages, func(sp *uscript.Package) bool { return sp.HasSources }) {
		// No sources (a server's install): the index of every class
		// would resolve nothing.
		return src, nil
	}
	if nat == nil {
		nat = BuiltinNatives()
	}
	idx := gr.sourceIndex(edit, src.Packages, nat)
	gr.addNames(idx, src.Packages)
	blockers := gr.unreadBefore(edit, src.Packages, nat)
	for i, sp := range src.Packages {
		if !sp.HasSources {
			continue
		}
		var deps []OrderDep
		for _, d := range idx.Dependencies(sp) {
			if src.execFileThere(gr, d) {
				continue
			}
			dep := OrderDep{Package: sp.Name, On: d.Package, Source: "source", Evidence: src.line(d.Evidence[0])}
			for _, ev := range d.Evidence {
				dep.lines = append(dep.lines, src.line(ev))
				dep.code = dep.code || needsCode(ev)
			}
			deps = append(deps, dep)
		}
		src.deps[lower(sp.Name)] = deps
		for _, f := range src.unknownClasses(sp, idx) {
			if b := blockers[i].of(sp.Name, f.Objects[0].Path); b != nil {
				src.abstain(*b, 1)
				continue
			}
			src.unknown = append(src.unknown, f)
		}
	}
	if u := src.unchecked; u != nil {
		var parts []string
		if len(u.NoSources) > 0 {
			parts = append(parts, fmt.Sprintf("%s %s neither sources nor a .u", strings.Join(u.NoSources, ", "), have(len(u.NoSources))))
		}
		if len(u.NoNatives) > 0 {
			parts = append(parts, fmt.Sprintf("the native classes of %s were read from no binary or table of this game", strings.Join(u.NoNatives, ", ")))
		}
		u.Message = fmt.Sprintf("%s: %d name(s) not checked (they may be declared there; no unknown_class is claimed for them)", strings.Join(parts, "; "), u.Names)
	}
	return src, nil
}

// sourceIndex returns the index of every class the sources of the edit
// packages (sps, in edit's order), the compiled code packages and nat
// declare; a missing package is in it without classes.
func (gr *Graph) sourceIndex(edit []string, sps []*uscript.Package, nat *native.Set) *uscript.Index {
	idx := uscript.NewIndex(nil)
	for _, pkg := range nat.Packages() {
		classes, _, _ := nat.Classes(pkg)
		idx.AddNative(pkg, classes)
	}
	for i, n := range edit {
		sp := sps[i]
		if p := gr.Package(n); p != nil && p.scan != nil {
			idx.AddCompiled(n, p.scan.classes)
		}
		if sp.HasSources {
			idx.AddSource(sp)
		}
	}
	for _, p := range gr.pkgs {
		switch {
		case p.Kind == KindCode && p.scan != nil:
			idx.AddCompiled(p.Name, p.scan.classes)
		case p.Missing():
			// A package some file imports: Gone.Thing names it.
			idx.AddCompiled(p.Name, nil)
		}
	}
	return idx
}

func have(n int) string {
	if n == 1 {
		return "has"
	}
	return "have"
}

// unread is what was not read among the entries up to one package:
// those with neither sources nor a readable compiled package before it,
// and those up to it (itself included) whose script declares native
// classes while nat lists their native classes from no binary or table
// of this game (nat.Exact).
type unread struct{ noSources, noNatives []string }

// of returns what could declare a name that package pkg uses and no
// package read declares, or nil when nothing could: any entry without
// sources or .u before pkg; pkg's own native code; and for a name
// Pkg.X, Pkg's native code. A class only C++ registers (UT99's
// Editor.TransBuffer, a class no script declares) is used by its own
// package or named with it; a later package's unqualified use of one
// of an unread binary is the case this misses.
func (u unread) of(pkg, name string) *unread {
	if len(u.noSources) > 0 {
		return &unread{noSources: u.noSources}
	}
	qual, _, ok := strings.Cut(name, ".")
	for _, n := range u.noNatives {
		if strings.EqualFold(n, pkg) || ok && strings.EqualFold(n, qual) {
			return &unread{noNatives: []string{n}}
		}
	}
	return nil
}

// unreadBefore returns, per entry, what was not read up to it.
func (gr *Graph) unreadBefore(edit []string, pkgs []*uscript.Package, nat *native.Set) []unread {
	out := make([]unread, len(pkgs))
	var cur unread
	for i, sp := range pkgs {
		p := gr.Package(edit[i])
		compiled := p != nil && p.scan != nil
		if sp.HasSources && !nat.Exact(sp.Name) && slices.ContainsFunc(sp.Classes, func(c *uscript.Class) bool { return c.Native }) {
			cur.noNatives = append(slices.Clip(cur.noNatives), sp.Name)
		}
		out[i] = cur
		if !sp.HasSources && !compiled {
			cur.noSources = append(slices.Clip(cur.noSources), sp.Name)
		}
	}
	return out
}

// abstain records that n names of a package went unchecked because of b.
func (s *Sources) abstain(b unread, n int) {
	if s.unchecked == nil {
		s.unchecked = &UncheckedNames{NoSources: []string{}, NoNatives: []string{}}
	}
	u := s.unchecked
	for _, x := range b.noSources {
		if !slices.Contains(u.NoSources, x) {
			u.NoSources = append(u.NoSources, x)
		}
	}
	for _, x := range b.noNatives {
		if !slices.Contains(u.NoNatives, x) {
			u.NoNatives = append(u.NoNatives, x)
		}
	}
	u.Names += n
}

// Unchecked returns the note on the names the check abstained on, nil
// when it checked every name (nil-safe).
func (s *Sources) Unchecked() *UncheckedNames {
	if s == nil || s.unchecked == nil {
		return nil
	}
	u := *s.unchecked
	return &u
}

// execFileThere reports whether a dependency that only #exec OBJ LOAD
// lines make, on a package no Paths entry finds, is met by the file the
// lines name: ucc make runs in <GameRoot>/System and opens FILE= as given
// (..\Textures\Foo.utx) before it searches the Paths.
func (s *Sources) execFileThere(gr *Graph, d uscript.Dependency) bool {
	if p := gr.Package(d.Package); p != nil && !p.Missing() {
		return false
	}
	for _, ev := range d.Evidence {
		if ev.Kind != uscript.KindExec {
			return false
		}
		name := filepath.FromSlash(strings.ReplaceAll(ev.Name, `\`, "/"))
		if !filepath.IsAbs(name) {
			name = filepath.Join(s.Root, "System", name)
		}
		if st, err := os.Stat(name); err != nil || !st.Mode().IsRegular() {
			return false
		}
	}
	return true
}

func (s *Sources) line(ev uscript.Evidence) string {
	return fmt.Sprintf("%s:%d: %s", s.rel(ev.File), ev.Line, ev.Text)
}

// needsCode reports whether a source reference needs a code package: all
// but a texture, sound or other resource literal and an #exec of a
// resource file.
func needsCode(ev uscript.Evidence) bool {
	switch ev.Kind {
	case uscript.KindLiteral:
		typ, _, _ := strings.Cut(ev.Name, "'")
		return strings.EqualFold(typ, "class")
	case uscript.KindExec:
		return strings.EqualFold(filepath.Ext(strings.ReplaceAll(ev.Name, `\`, "/")), ".u")
	}
	return true
}

// addNames gives the index the names the compiled code packages declare,
// so that a type name found in no package can be told from a struct, an
// enum or a function of one: only the names some source uses and no
// source declares are looked up, in the name tables of the code
// packages. A code package that cannot be read leaves the index open (no
// such name is reported unknown).
func (gr *Graph) addNames(idx *uscript.Index, pkgs []*uscript.Package) {
	idx.AddNames(nil)
	wanted := map[string]bool{}
	for _, sp := range pkgs {
		if !sp.HasSources {
			continue
		}
		for _, ev := range idx.Unresolved(sp) {
			if ev.Kind == uscript.KindType && !strings.Contains(ev.Name, ".") {
				wanted[lower(ev.Name)] = true
			}
		}
	}
	if len(wanted) == 0 {
		return
	}
	var found []string
	for _, p := range gr.pkgs {
		if p.Kind != KindCode || p.Missing() {
			continue
		}
		f, err := format.Open(p.File)
		if err != nil {
			idx.AddNames(slices.Collect(maps.Keys(wanted))) // unknowable: assume declared
			return
		}
		for _, n := range f.Names {
			if wanted[lower(n.Name)] {
				found = append(found, n.Name)
			}
		}
		f.Close()
	}
	idx.AddNames(found)
}

// unknownClasses turns the references of sp that name no class into
// unknown_class findings, one per name with every line that uses it.
func (s *Sources) unknownClasses(sp *uscript.Package, idx *uscript.Index) []Finding {
	var out []Finding
	byName := map[string]int{}
	for _, ev := range idx.Unresolved(sp) {
		if ev.Kind == uscript.KindLiteral && !strings.HasPrefix(strings.ToLower(ev.Name), "class'") {
			continue
		}
		name := ev.Name
		if ev.Kind == uscript.KindLiteral {
			name = strings.TrimSuffix(name[len("class'"):], "'")
		}
		k, ok := byName[lower(name)]
		if !ok {
			k = len(out)
			byName[lower(name)] = k
			msg := fmt.Sprintf("%s uses a class %s that no package listed before it (compiled or from sources) and no native code defines",
				sp.Name, name)
			if left, right, ok := strings.Cut(name, "."); ok {
				msg = fmt.Sprintf("%s uses %s, but no package %s and no class %s (with a type %s) is known",
					sp.Name, name, left, left, right)
				if idx.IsPackage(left) || strings.EqualFold(left, sp.Name) {
					msg = fmt.Sprintf("%s uses the class %s, which package %s does not define", sp.Name, name, left)
				}
			}
			out = append(out, Finding{Kind: UnknownClass, Severity: Warning, Package: sp.Name,
				Packages: []string{sp.Name}, Objects: []Object{{Path: name}}, Message: msg})
		}
		out[k].Chain = append(out[k].Chain, s.line(ev))
	}
	return out
}

// unknownFindings returns the unknown_class findings of the sources
// (nil-safe): an error for an entry ucc make rebuilds (it fails there), a
// warning otherwise (a clean rebuild fails there).
func (s *Sources) unknownFindings(rebuilt map[string]bool) []Finding {
	if s == nil {
		return nil
	}
	out := slices.Clone(s.unknown)
	for i := range out {
		f := &out[i]
		if rebuilt[lower(f.Package)] {
			f.Severity, f.Message = Error, f.Message+": ucc make fails on it"
		} else {
			f.Severity, f.Message = Warning, f.Message+fmt.Sprintf(": a clean rebuild fails on it (ucc make rebuilds %s only when its .u is missing)", f.Package)
		}
	}
	return out
}

func (s *Sources) rel(file string) string {
	if r, err := filepath.Rel(s.Root, file); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(file)
}

// Deps is the SourceDeps function of s (nil-safe).
func (s *Sources) Deps() SourceDeps {
	if s == nil {
		return nil
	}
	return func(pkg string) ([]OrderDep, bool) {
		deps, ok := s.deps[lower(pkg)]
		return deps, ok
	}
}

// noteUnbuilt rewrites the message of each missing_package and
// missing_object about a package with no file but with UnrealScript
// sources among the EditPackages (a package not compiled yet): what to do
// comes first, the finding's own details after.
func (gr *Graph) noteUnbuilt(fs []Finding, s *Sources) {
	if s == nil {
		return
	}
	unbuilt := map[string]*uscript.Package{}
	for _, sp := range s.Packages {
		if p := gr.Package(sp.Name); sp.HasSources && (p == nil || p.Missing()) {
			unbuilt[lower(sp.Name)] = sp
		}
	}
	for i := range fs {
		f := &fs[i]
		sp := unbuilt[lower(f.Package)]
		if sp == nil || (f.Kind != MissingPackage && f.Kind != MissingObject) {
			continue
		}
		f.Message = fmt.Sprintf("%s has sources (%s, %d class(es)) but no compiled package: run ucc make; until then %s",
			f.Package, s.rel(sp.ClassesDir), len(sp.Classes), f.Message)
	}
}

// HasAny reports whether any EditPackages entry has sources.
func (s *Sources) HasAny() bool { return s != nil && len(s.deps) > 0 }

// upkgFindings warns about packages that ucc make will build
// ServerSideOnly (their .upkg says so) although clients load them.
func (gr *Graph) upkgFindings(s *Sources, serverPackages []string, stock *ini.Stock) []Finding {
	built := func(sp *uscript.Package) bool {
		return sp.HasUpkg && sp.Flags.ServerSideOnly && !isRetail(stock, sp.Name)
	}
	if s == nil || !slices.ContainsFunc(s.Packages, built) {
		return nil // no need to walk what clients load
	}
	client := map[string]bool{}
	for _, p := range gr.ClientPackages(serverPackages) {
		client[lower(p.Name)] = true
	}
	for _, n := range serverPackages {
		client[lower(n)] = true
	}
	var out []Finding
	for _, sp := range s.Packages {
		if !built(sp) || !client[lower(sp.Name)] {
			continue
		}
		out = append(out, Finding{Kind: ServerSideOnly, Severity: Warning, Package: sp.Name,
			Packages: []string{sp.Name},
			Message: fmt.Sprintf("%s will be built ServerSideOnly (its %s.upkg says so), but clients load it: they will never be sent it",
				sp.Name, sp.Name)})
	}
	return out
}

// pkg returns the scanned entry named n (nil-safe; nil when there is none).
func (s *Sources) pkg(n string) *uscript.Package {
	if s == nil {
		return nil
	}
	for _, sp := range s.Packages {
		if strings.EqualFold(sp.Name, n) {
			return sp
		}
	}
	return nil
}
