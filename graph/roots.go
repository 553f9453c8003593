package graph

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/upkdeps/upkdeps/ini"
)

// Root is an ini line that makes the engine load a package, or a class of
// a package, by name (ini.File.References lists them): a root of the graph
// like the maps, with the line as evidence.
type Root struct {
	ini.Reference
	Ini string // the ini file the line is in; its base name is shown
}

// RootsOf returns the references of f for an engine generation, as roots.
func RootsOf(f *ini.File, generation int) []Root {
	var out []Root
	for _, r := range f.References(generation) {
		out = append(out, Root{Reference: r, Ini: f.Path})
	}
	return out
}

// CommandLine is the Ini of a root the server's command line gives
// (MutatorRoot, GameRoot, MapRoot): it has no file and no line.
const CommandLine = "command line"

// The keys of the command line's roots: the URL options naming the
// mutators (UT99 and UT2004 GameInfo.InitGame read ?Mutator=Pkg.Class,
// Pkg.Class) and the game class (?Game=Pkg.Class), and the map, the URL
// before its first "?".
const (
	MutatorKey = "?Mutator"
	GameKey    = "?Game"
	MapKey     = "map"
)

// MutatorRoot returns the root of a mutator class (Pkg.Class) the server
// runs from its command line: loaded by the server, like a ServerActors
// line. A spec that is not Pkg.Class (one dot, both sides non-empty, no
// space) is an error.
func MutatorRoot(spec string) (Root, error) { return classRoot(MutatorKey, "a mutator class", spec) }

// GameRoot returns the root of the game class (Pkg.Class) the server's
// command line names (?Game=): loaded by the server, like
// DefaultServerGame.
func GameRoot(spec string) (Root, error) { return classRoot(GameKey, "a game class", spec) }

func classRoot(key, what, spec string) (Root, error) {
	pkg, class, ok := strings.Cut(spec, ".")
	if !ok || pkg == "" || class == "" || strings.ContainsAny(spec, " \t,?=") || strings.Contains(class, ".") {
		return Root{}, fmt.Errorf("%q is not %s Pkg.Class", spec, what)
	}
	return Root{Reference: ini.Reference{Key: key, Value: spec, Package: pkg, Object: class, Load: ini.LoadServer}, Ini: CommandLine}, nil
}

// MapRoot returns the root of the map the server's command line starts
// (name as given, with or without one of exts, the game's map extensions
// with their dot): loaded by the server and sent to every client.
func MapRoot(name string, exts []string) (Root, error) {
	pkg := name
	for _, e := range exts {
		if len(pkg) > len(e) && strings.EqualFold(pkg[len(pkg)-len(e):], e) {
			pkg = pkg[:len(pkg)-len(e)]
			break
		}
	}
	if pkg == "" || strings.ContainsAny(pkg, "?=,\\/") {
		return Root{}, fmt.Errorf("%q is not a map name", name)
	}
	return Root{Reference: ini.Reference{Key: MapKey, Value: name, Package: pkg, Load: ini.LoadBoth}, Ini: CommandLine}, nil
}

// rootLines says what names something: "2 ini line(s)", "the command
// line", "1 ini line(s) and the command line" (roots whose Ini is
// CommandLine).
func rootLines(roots []RootRef) string {
	cmd := 0
	for _, r := range roots {
		if r.Ini == CommandLine {
			cmd++
		}
	}
	switch {
	case cmd == 0:
		return fmt.Sprintf("%d ini line(s)", len(roots))
	case cmd == len(roots):
		return "the command line"
	}
	return fmt.Sprintf("%d ini line(s) and the command line", len(roots)-cmd)
}

// Evidence names the line: "UnrealTournament.ini:123 ServerPackages=Foo";
// a command line's root, which has no line, is "command line
// ?Mutator=Pkg.Class".
func (r Root) Evidence() string {
	if r.Ini == CommandLine {
		return fmt.Sprintf("%s %s=%s", r.Ini, r.Key, r.Value)
	}
	return fmt.Sprintf("%s:%d %s=%s", filepath.Base(r.Ini), r.Line, r.Key, r.Value)
}

// clientOnly reports whether only the game client loads what r names.
func (r Root) clientOnly() bool { return r.Load == ini.LoadClient }

// RootRef is a root with the node its package resolved to.
type RootRef struct {
	Root
	Package *Package
}

// Roots returns the ini roots given to Build, in their order, each with its
// package's node. The caller must not modify the slice.
func (gr *Graph) Roots() []RootRef { return gr.iniRoots }

// rootsOf returns the roots whose package is p, in order.
func (gr *Graph) rootsOf(p *Package) []RootRef {
	var out []RootRef
	for _, r := range gr.iniRoots {
		if r.Package == p {
			out = append(out, r)
		}
	}
	return out
}

// Natives says which classes packages register in native code (a DLL or
// .so beside the packages, or a built-in table of the game's binaries).
type Natives interface {
	// Has reports whether pkg's native code registers class (any case).
	Has(pkg, class string) bool
	// HasPackage reports whether pkg is known to have native code.
	HasPackage(pkg string) bool
	// FromBinary reports whether pkg's own binary was read, so that its
	// list of classes is exact.
	FromBinary(pkg string) bool
}

// IniFindings reports the ServerPackages and ServerActors lines that repeat
// an earlier one (ini_repeat) and the lines of these keys and EditPackages
// in a section the engine does not read them from (ini_section), each
// naming the lines involved in Roots.
func IniFindings(f *ini.File) []Finding {
	var out []Finding
	line := func(n int, key, value string) string {
		return fmt.Sprintf("%s:%d %s=%s", filepath.Base(f.Path), n, key, value)
	}
	for _, p := range f.ListProblems() {
		v := p.Value
		if !p.Misplaced() {
			v = p.FirstValue // the first spelling
		}
		pkg, _, _ := strings.Cut(strings.Fields(v + " ")[0], ".")
		at := line(p.Line, p.Key, p.Value)
		// The key without an index or append mark: ServerActors[2],
		// ServerActors+ (SWRC).
		key, _, _ := strings.Cut(strings.TrimSuffix(p.Key, "+"), "[")
		if p.Overridden() {
			win := line(p.Winner.Line, p.Winner.Key, p.Winner.Value)
			out = append(out, Finding{Kind: IniSection, Severity: Warning, Package: pkg, Roots: []string{at, win},
				Message: fmt.Sprintf("%s is in [%s], which [%s] overrides: the engine reads %s from [%s] (%s)",
					at, p.Section, p.ReadFrom, key, p.ReadFrom, win)})
			continue
		}
		if p.Misplaced() {
			out = append(out, Finding{Kind: IniSection, Severity: Warning, Package: pkg, Roots: []string{at},
				Message: fmt.Sprintf("%s is in [%s], which the engine never reads %s from: it reads [%s]",
					at, p.Section, key, p.ReadFrom)})
			continue
		}
		first := line(p.First, p.Key, p.FirstValue)
		how := "repeats"
		if p.Value != p.FirstValue {
			how = "repeats, in another case,"
		}
		msg := fmt.Sprintf("%s %s %s: one line is enough", at, how, first)
		if strings.EqualFold(key, "ServerActors") {
			msg = fmt.Sprintf("%s %s %s: the server spawns the actor once per line", at, how, first)
		}
		out = append(out, Finding{Kind: IniRepeat, Severity: Warning, Package: pkg, Roots: []string{first, at}, Message: msg})
	}
	return out
}

// AddEditLines gives each finding of an EditPackages entry listed twice
// (edit_order with the one package) the ini lines that list it, in Roots,
// so that the report names both lines.
func AddEditLines(fs []Finding, f *ini.File) {
	entries := f.Entries(ini.SectionEditor, "EditPackages")
	for i := range fs {
		if fs[i].Kind != EditOrder || len(fs[i].Packages) != 1 || len(fs[i].Roots) > 0 {
			continue
		}
		for _, e := range entries {
			if strings.EqualFold(e.Value, fs[i].Packages[0]) {
				fs[i].Roots = append(fs[i].Roots, fmt.Sprintf("%s:%d %s=%s", filepath.Base(f.Path), e.Line, e.Key, e.Value))
			}
		}
	}
}
