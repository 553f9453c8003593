package native

import (
	"bufio"
	"embed"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/upkdeps/upkdeps/internal/fold"
)

// Table is a list of native classes per package for one game build, made
// from that build's binaries or C++ headers by native/gentables. It stands
// in for binaries an install lacks (a repository's System folder, a Linux
// server without the .dll files, UT2004 on Linux, whose modules are linked
// into the executable). Like a Binary it lists every class the modules
// register, including those that also have a script export.
type Table struct {
	Name       string              // e.g. "ut99-469"
	Game       string              // game profile name (ini.Game.Name): "ut99", "ut2004", ...
	Generation int                 // engine generation: 1 or 2
	Source     string              // where the facts come from: repository, commit, files
	From       []string            // one line per input file: "Core.dll: pe-exports, 36 classes"
	Packages   map[string][]string // package -> classes, sorted case-insensitively
}

// tableHeader is the first line of every table file.
const tableHeader = "# upkdeps native class table, made by native/gentables: do not edit"

// WriteTo writes t in the table file format: comment lines naming the
// table, game, generation, source and inputs, then one "Package Class"
// line per class, sorted by package and class (case-insensitively).
func (t *Table) WriteTo(w io.Writer) (int64, error) {
	var b strings.Builder
	b.WriteString(tableHeader + "\n")
	fmt.Fprintf(&b, "# name: %s\n# game: %s\n# generation: %d\n", t.Name, t.Game, t.Generation)
	for _, line := range strings.Split(t.Source, "\n") {
		fmt.Fprintf(&b, "# source: %s\n", line)
	}
	for _, line := range t.From {
		fmt.Fprintf(&b, "# from: %s\n", line)
	}
	for _, pkg := range sortedKeys(t.Packages) {
		for _, c := range sortClasses(slices.Clone(t.Packages[pkg])) {
			fmt.Fprintf(&b, "%s %s\n", pkg, c)
		}
	}
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}

// ParseTable reads a table in the format WriteTo writes; name names it in
// errors. Lines must be sorted and unique, names plain identifiers.
func ParseTable(r io.Reader, name string) (*Table, error) {
	t := &Table{Packages: map[string][]string{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	var prevPkg, prevClass string
	line := 0
	errf := func(format string, args ...any) error {
		return fmt.Errorf("native: %s:%d: %s", name, line, fmt.Sprintf(format, args...))
	}
	var sources []string
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), "\r")
		if text == "" {
			continue
		}
		if c, ok := strings.CutPrefix(text, "#"); ok {
			key, val, ok := strings.Cut(strings.TrimSpace(c), ":")
			if !ok {
				continue
			}
			val = strings.TrimSpace(val)
			switch key {
			case "name":
				t.Name = val
			case "game":
				t.Game = val
			case "generation":
				g, err := strconv.Atoi(val)
				if err != nil || g < 1 || g > 2 {
					return nil, errf("generation %q is not 1 or 2", val)
				}
				t.Generation = g
			case "source":
				sources = append(sources, val)
			case "from":
				t.From = append(t.From, val)
			}
			continue
		}
		f := strings.Fields(text)
		if len(f) != 2 {
			return nil, errf("want \"Package Class\", have %q", text)
		}
		pkg, class := f[0], f[1]
		if !isIdent(pkg) || !isIdent(class) {
			return nil, errf("%q is not a package and a class name", text)
		}
		if prevPkg != "" {
			c := fold.Compare(prevPkg, pkg)
			if c == 0 && pkg != prevPkg {
				return nil, errf("package %s spelled %s before", pkg, prevPkg)
			}
			if c > 0 || c == 0 && fold.Compare(prevClass, class) >= 0 {
				return nil, errf("%s %s is out of order or repeated (after %s %s)", pkg, class, prevPkg, prevClass)
			}
		}
		t.Packages[pkg] = append(t.Packages[pkg], class)
		prevPkg, prevClass = pkg, class
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("native: %s:%d: %w", name, line+1, err)
	}
	t.Source = strings.Join(sources, "\n")
	if t.Name == "" || t.Game == "" || t.Generation == 0 {
		return nil, fmt.Errorf("native: %s: header lacks name, game or generation", name)
	}
	return t, nil
}

func isIdent(s string) bool {
	if s == "" || len(s) > maxSymbolLen || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdentByte(s[i]) {
			return false
		}
	}
	return true
}

// Clone returns a deep copy of t.
func (t *Table) Clone() *Table {
	c := *t
	c.From = slices.Clone(t.From)
	c.Packages = make(map[string][]string, len(t.Packages))
	for k, v := range t.Packages {
		c.Packages[k] = slices.Clone(v)
	}
	return &c
}

func sortedKeys(m map[string][]string) []string {
	keys := slices.Collect(maps.Keys(m))
	slices.SortFunc(keys, compareFold)
	return keys
}

//go:embed tables/*.txt
var tableFiles embed.FS

// builtins holds the built-in tables read so far, by name: a command
// reads the one or two tables of its game, not all of them.
var builtins struct {
	mu     sync.Mutex
	tables map[string]*Table // nil value: no table of that name
}

// builtin returns the built-in table of that name, read on first use, or
// nil. It panics only if the embedded table is corrupt, which the
// package's tests rule out.
func builtin(name string) *Table {
	builtins.mu.Lock()
	defer builtins.mu.Unlock()
	if t, ok := builtins.tables[name]; ok {
		return t
	}
	var t *Table
	p := "tables/" + name + ".txt"
	if f, err := tableFiles.Open(p); err == nil {
		t, err = ParseTable(f, p)
		f.Close()
		if err != nil {
			panic(err) // the tests parse every embedded table
		}
		if t.Name != name {
			panic(fmt.Sprintf("native: %s: table is named %q", p, t.Name))
		}
	}
	if builtins.tables == nil {
		builtins.tables = map[string]*Table{}
	}
	builtins.tables[name] = t
	return t
}

// builtinNames lists the built-in tables' names, sorted.
func builtinNames() []string {
	entries, err := tableFiles.ReadDir("tables")
	if err != nil {
		panic(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".txt"))
	}
	slices.Sort(names)
	return names
}

// Builtin returns a copy of the built-in table of that name, or nil. It
// panics only if an embedded table is corrupt, which the package's tests
// rule out.
func Builtin(name string) *Table {
	if t := builtin(name); t != nil {
		return t.Clone()
	}
	return nil
}

// BuiltinTables returns copies of all built-in tables, sorted by name.
func BuiltinTables() []*Table {
	var out []*Table
	for _, name := range builtinNames() {
		out = append(out, builtin(name).Clone())
	}
	return out
}

// fallbackTables names the tables TablesFor gives a game profile, first
// first: a package's list comes from the first table that has it. A game
// not listed gets its generation's tables.
var fallbackTables = map[string][]string{
	"ut99": {"ut99-469"}, "unreal": {"ut99-469"}, "deusex": {"ut99-469"}, "rune": {"ut99-469"}, "ue1": {"ut99-469"},
	"undying": {"undying"},
	"ut2004":  {"ut2004", "ut2004-3369"}, "ut2003": {"ut2004", "ut2004-3369"}, "kf": {"ut2004", "ut2004-3369"},
	"swat4": {"ut2004", "ut2004-3369"}, "ue2": {"ut2004", "ut2004-3369"},
}

var generationTables = map[int][]string{1: {"ut99-469"}, 2: {"ut2004", "ut2004-3369"}}

// TablesFor returns copies of the built-in tables to fall back on for a
// game profile (ini.Game's Name and Generation) and build (the game's
// version, as its Manifest.ini says: 436, 451, 469; 0 when unknown), in
// order of precedence, or nil when there is none. A table name is
// accepted as game too ("ut99-436"). UE1 games other than UT get the UT99
// v469 table and UE2 games the UT2004 ones (Core and Engine from the SDK's
// import libraries, every other module from the 3369 server's DLLs):
// their licensee classes are missing, but the engine's own are there,
// which is what most of their packages import. A UT99 build before 469
// (or an unnamed UE1 game whose build is UT's 400-468) gets the
// v436/451-era table, never 469-only classes (udemo's).
func TablesFor(game string, generation, build int) []*Table {
	game = strings.ToLower(strings.TrimSpace(game))
	names, ok := fallbackTables[game]
	switch {
	case ok:
	case Builtin(game) != nil:
		names = []string{game}
	default:
		names = generationTables[generation]
	}
	if (game == "ut99" && build > 0 || (game == "ue1" || game == "") && build >= 400) && build < 469 {
		// A UT99 build before 469 (an unnamed UE1 game with a UT build
		// number, 400-468, in its Manifest.ini is a UT99 install).
		names = []string{"ut99-436"}
	}
	var out []*Table
	for _, n := range names {
		if t := Builtin(n); t != nil {
			out = append(out, t)
		}
	}
	return out
}

// ownTables names the built-in table made from each game's own binaries.
var ownTables = map[string]string{"ut99": "ut99-469", "undying": "undying", "ut2004": "ut2004"}

// OwnTable returns a copy of the built-in table made from the game's own
// binaries (a table name is accepted as game too, "ut99-436"), or nil.
// Unlike TablesFor it never gives another game's or generation's table:
// for what a header must export, UT99's Pickup is not Unreal's, nor
// UT2004's classes another UE2 game's.
func OwnTable(game string) *Table {
	game = strings.ToLower(strings.TrimSpace(game))
	if t := Builtin(game); t != nil {
		return t
	}
	if name, ok := ownTables[game]; ok {
		return Builtin(name)
	}
	return nil
}
