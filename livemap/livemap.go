package livemap

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/ini"
)

// Where an entry comes from (Entry.From).
const (
	FromIni = "ini" // the game ini's ServerPackages
	// FromIniSection is no longer produced: a class's ini section cannot
	// set its switch (IgnoredSwitchLines).
	//
	// Deprecated: kept for code that compares with it.
	FromIniSection = "ini_section"
	FromVoteSys    = "votesys"  // VoteSys.ini / VoteSysPresets.ini
	FromMVES       = "mves"     // MVE_Config.ini
	FromDefaults   = "defaults" // a class's switch (SwitchProperty) True in its or a parent's default properties
	FromXVoting    = "xvoting"  // the game ini's [xVoting.xVotingHandler] (UT2004)
)

// The mapvotes read (Map.Manager).
const (
	VoteSys = "votesys"
	MVES    = "mves"
	XVoting = "xvoting" // UT2004's own; it never manages ServerPackages
)

// Source is the line an entry comes from.
type Source struct {
	File string `json:"file"` // the file, as opened
	Line int    `json:"line"` // 1-based
	Text string `json:"text"` // Key=Value as written
}

// String is "File.ini:LINE Key=Value", the base name of the file (without
// ":LINE" for a package's default properties, Line 0).
func (s Source) String() string {
	if s.Line == 0 {
		return fmt.Sprintf("%s %s", filepath.Base(s.File), s.Text)
	}
	return fmt.Sprintf("%s:%d %s", filepath.Base(s.File), s.Line, s.Text)
}

// Entry is one package of the live map and the line that puts it there.
type Entry struct {
	Package string `json:"package"`
	From    string `json:"from"` // FromIni, FromVoteSys, FromMVES, FromXVoting or FromDefaults
	Source  Source `json:"source"`
}

// Preset is a mapvote preset (VoteSys) or game type (MVES): the packages
// it adds to the map's Base while it runs.
type Preset struct {
	Name     string  `json:"name"` // "Category/PresetName" or "GameName/RuleName"
	Manager  string  `json:"manager"`
	Source   Source  `json:"source"` // the line or section header defining it
	Disabled bool    `json:"disabled"`
	Packages []Entry `json:"packages"` // in the order read; [] when none
	// Loads are the packages of the classes the server loads while the
	// preset runs, sent or not: its game class, mutators and actors.
	// [] when none.
	Loads []Entry `json:"loads"`
	// classes are the mutator and actor classes the preset runs, whose
	// switches Read follows into Packages.
	classes []classRef
}

// classRef is a class a config line names.
type classRef struct {
	spec string // Pkg.Class
	src  Source
}

// classRefs returns the classes of the comma-separated list v (src its
// line): each item's class path (classSpec), those with a package.
func classRefs(items []string, src Source) []classRef {
	var out []classRef
	for _, c := range items {
		if spec := classSpec(c); classPackage(spec) != "" {
			out = append(out, classRef{spec, src})
		}
	}
	return out
}

// classEntries are the packages of cs, as entries from the mapvote from.
func classEntries(cs []classRef, from string) []Entry {
	out := make([]Entry, 0, len(cs))
	for _, c := range cs {
		out = append(out, Entry{classPackage(c.spec), from, c.src})
	}
	return out
}

// classSpec is the class path of a list item: trimmed, a server
// actor's parameters after a space dropped.
func classSpec(c string) string {
	c, _, _ = strings.Cut(strings.TrimSpace(c), " ")
	return c
}

// classPackage is the package of a class path "Pkg.Class" (parameters
// after a space dropped), or "".
func classPackage(c string) string {
	pkg, _, ok := strings.Cut(classSpec(c), ".")
	if !ok {
		return ""
	}
	return strings.TrimSpace(pkg)
}

// SchemaVersion is the schema_version of Map's JSON form.
const SchemaVersion = 1

// Map is the live package map of a server, what `upkdeps livemap --json`
// prints (docs/json.md).
type Map struct {
	SchemaVersion int    `json:"schema_version"`
	Ini           string `json:"ini"` // the game ini's path, as opened
	// Manager is the mapvote whose config was found ("" none, VoteSys,
	// MVES); Managed is whether its switch (Switch) makes it set
	// ServerPackages.
	Manager string  `json:"manager"`
	Managed bool    `json:"managed"`
	Switch  *Source `json:"switch,omitempty"`
	// Base is what the server sends whatever preset runs.
	Base    []Entry  `json:"base"`
	Presets []Preset `json:"presets"`
	// Unsent are packages the mapvote needs every client to have that
	// the map does not send, while it does not manage ServerPackages and
	// the ini's lack them: MVES's client package (its ClientPackage; MVES
	// logs that nobody will be able to vote) or VoteSys's own package.
	Unsent []Entry `json:"unsent"`
	// Loads are the packages of the classes the mapvote makes the server
	// load whatever preset runs (MVES's MainMutatorList and
	// MainServerActors), sent or not. [] when none.
	Loads []Entry  `json:"loads"`
	Notes []string `json:"notes"`
}

// Used returns every package the map names: the base, Unsent, Loads and
// each preset's packages and loads (disabled presets too), any case once,
// in that order: what the server may load by name through the ini and
// its mapvote.
func (m *Map) Used() []string {
	var out []string
	seen := map[string]bool{}
	add := func(es []Entry) {
		for _, e := range es {
			if k := strings.ToLower(e.Package); !seen[k] {
				seen[k] = true
				out = append(out, e.Package)
			}
		}
	}
	add(m.Base)
	add(m.Unsent)
	add(m.Loads)
	for _, p := range m.Presets {
		add(p.Packages)
		add(p.Loads)
	}
	return out
}

// Options say how Read reads.
type Options struct {
	// Generation is the engine generation (1 or 2; 0 unknown): it names
	// the switch read from the defaults of the classes the server runs
	// (SwitchProperty).
	Generation int
	// Find returns the file a package name resolves to ("" none): the
	// default properties of the classes the server runs are read through
	// it (UE2). nil: not read.
	Find func(pkg string) string
	// Mutators are classes (Pkg.Class) the server runs besides its
	// ServerActors: the mutators of its command line, which no file shows.
	Mutators []string
	// Game is the game profile's name (ini.Game.Name; "" unknown). In
	// generation 1 only UT99 has a mutator switch (469c's
	// bAddToPackageMap): it is read for "ut99" and "", not for Unreal,
	// Deus Ex or Rune, and for an unnamed UE1 game ("ue1") a note says it
	// went unread.
	Game string
}

// switchProperty is the mutator switch Read reads ("" none) and, when
// one may exist but is not read, a note saying so.
func (opt Options) switchProperty() (prop, unread string) {
	prop = SwitchProperty(opt.Generation)
	if opt.Generation != 1 || opt.Game == "" || opt.Game == "ut99" {
		return prop, ""
	}
	if opt.Game == "ue1" {
		return "", "bAddToPackageMap, the mutator switch UT99's patch 469c added, is read only for UT99: if this is a UT99 server, give its game (ut99) to read it"
	}
	return "", ""
}

// runsClasses reports whether the server runs classes whose switch Read
// would read: ServerActors lines, opt.Mutators or preset classes.
func runsClasses(f *ini.File, opt Options, m *Map) bool {
	if len(opt.Mutators) > 0 {
		return true
	}
	for _, r := range f.References(opt.Generation) {
		if r.Is("ServerActors") {
			return true
		}
	}
	for _, p := range m.Presets {
		if len(p.classes) > 0 {
			return true
		}
	}
	return false
}

// Read works out the live map of the server whose game ini is f, reading
// the mapvote configs in f's folder (VoteSys, MVES), or xVoting's in f
// (UT2004), and, through opt.Find, the defaults of the classes the server
// and its presets run. A mapvote config that cannot be read is an error
// naming it.
func Read(f *ini.File, opt Options) (*Map, error) {
	m := &Map{Base: []Entry{}, Presets: []Preset{}, Unsent: []Entry{}, Loads: []Entry{}, Notes: []string{}}
	var iniBase []Entry
	for _, r := range f.References(opt.Generation) {
		if r.Is("ServerPackages") {
			iniBase = append(iniBase, Entry{r.Package, FromIni, Source{f.Path, r.Line, r.Key + "=" + r.Value}})
		}
	}
	dir := filepath.Dir(f.Path)
	vs, vsCompat, err := readVoteSys(dir)
	if err != nil {
		return nil, err
	}
	mv, mvResets, err := readMVES(dir)
	if err != nil {
		return nil, err
	}
	switch {
	case vs != nil && mv != nil:
		return nil, fmt.Errorf("livemap: %s has both VoteSys.ini and MVE_Config.ini: only one mapvote can own ServerPackages; remove the other's config", dir)
	case vs != nil:
		*m = *vs
		m.Base, m.Notes = voteSysBase(m, iniBase, vsCompat, opt.Find)
	case mv != nil:
		*m = *mv
		switch {
		case !m.Managed:
			m.Base = iniBase
		case mvResets:
			m.Base = append(m.Base, iniBase...)
		}
		if !m.Managed {
			m.Unsent, m.Notes = mvesUnsent(f, mv, iniBase, m.Notes)
		}
		if m.Managed {
			m.Notes = append(m.Notes, "MVES's bOverrideServerPackages=True: it writes the ini's ServerPackages from its client packages, the voted game type's Packages and MainServerPackages; the packages of map overrides (a map's song) are not read here")
		}
	default:
		m.Base = iniBase
		if opt.Generation == 2 {
			if xv := readXVoting(f); xv != nil {
				*m = *xv
				m.Base = iniBase
			}
		}
	}
	if m.Manager != "" && m.Manager != XVoting && !m.Managed {
		m.Notes = append(m.Notes, fmt.Sprintf("%s's switch is off (%s): the presets' packages reach clients only where the ini lists them", m.Manager, m.SwitchText()))
	}
	if m.Manager == VoteSys {
		voteSysOwn(f, opt, m, iniBase)
	}
	prop, unread := opt.switchProperty()
	if unread != "" && runsClasses(f, opt, m) {
		m.Notes = append(m.Notes, unread)
	}
	if prop != "" {
		for _, s := range IgnoredSwitchLines(f, opt.Generation) {
			m.Notes = append(m.Notes, fmt.Sprintf("%s is not counted: %s", s, IgnoredWhy(opt.Generation)))
		}
		if opt.Find != nil {
			d := &defaults{find: opt.Find, prop: prop, files: map[string]*pkgView{}}
			es, notes := defaultsEntries(f, opt, d)
			m.Base = append(m.Base, es...)
			m.Notes = append(m.Notes, notes...)
			presetSwitches(m, d)
			d.close()
		}
	}
	m.SchemaVersion, m.Ini = SchemaVersion, f.Path
	m.Base = dedupe(m.Base)
	m.Unsent, m.Loads = dedupe(m.Unsent), dedupe(m.Loads)
	for i := range m.Presets {
		m.Presets[i].Packages = dedupe(m.Presets[i].Packages)
		m.Presets[i].Loads = dedupe(m.Presets[i].Loads)
	}
	return m, nil
}

// voteSysBase returns the base of a VoteSys map m read from its files
// (m.Base its DefaultPackages) and m's notes with what decided it.
// VoteSys (MutVoteSys.uc) writes DefaultPackages plus the preset's
// packages to ServerPackages only with bUseServerPackagesCompatibilityMode
// or on an engine before UT 469c (filling DefaultPackages from the ini's
// ServerPackages when empty); from 469c on it leaves ServerPackages alone
// and adds the preset's packages to the package map. Whether the server
// is 469c or later is read from its Engine.u (find, when given): 469c's
// Engine.Mutator added bAddToPackageMap.
func voteSysBase(m *Map, iniBase []Entry, compat bool, find func(string) string) ([]Entry, []string) {
	notes := m.Notes
	if !m.Managed {
		return iniBase, notes
	}
	if !compat {
		switch is469c, known := engineIs469c(find); {
		case known && is469c:
			n := "the engine is UT 469c or later (its Engine.u has bAddToPackageMap): VoteSys leaves ServerPackages alone and adds each preset's packages to the package map, so the ini's ServerPackages are the base"
			if len(m.Base) > 0 {
				n += "; DefaultPackages are not used"
			}
			return iniBase, append(notes, n)
		case !known && len(m.Base) > 0:
			notes = append(notes, "whether the engine is UT 469c or later was not read (no Engine.u found): before 469c VoteSys writes DefaultPackages and the preset's packages to ServerPackages, as counted here; from 469c on the ini's ServerPackages are the base")
		}
	}
	if len(m.Base) == 0 {
		return iniBase, append(notes, "VoteSys.ini lists no DefaultPackages: VoteSys fills them from the ini's ServerPackages, the base of every preset")
	}
	return m.Base, notes
}

// engineIs469c reports whether the install's Engine.u (through find) is
// UT 469c or later, whose Engine.Mutator declares bAddToPackageMap (the
// OldUnreal 469 script tree: "Added in UT 469c"); known is false when no
// Engine.u is found or read.
func engineIs469c(find func(string) string) (is469c, known bool) {
	if find == nil {
		return false, false
	}
	file := find("Engine")
	if file == "" {
		return false, false
	}
	var rd format.Reader
	v, err := rd.View(file)
	if err != nil {
		return false, false
	}
	for i := range v.NameCount() {
		if strings.EqualFold(v.NameAt(int32(i)), "bAddToPackageMap") {
			return true, true
		}
	}
	return false, true
}

// SwitchText is the line of the mapvote's switch ("file:line Key=Value"),
// or "not set".
func (m *Map) SwitchText() string {
	if m.Switch == nil {
		return "not set"
	}
	return m.Switch.String()
}

// IgnoredSwitchLines returns the game ini's lines that set a class's
// switch (SwitchProperty) in its section ([Pkg.Class]
// bAddToServerPackages=True), which the engine never reads: Engine.Mutator
// declares the switch without config (UT2004's and Red Orchestra's
// Mutator.uc: "var bool bAddToServerPackages;", UT99 469's "var bool
// bAddToPackageMap;"), and an ini line sets only a config variable (the
// Beyond Unreal wiki's "Config Vars And .Ini Files"). Only the lines
// setting it True are returned; nil for a generation without a switch.
func IgnoredSwitchLines(f *ini.File, generation int) []Source {
	prop := SwitchProperty(generation)
	if prop == "" {
		return nil
	}
	var out []Source
	for _, sec := range f.Sections() {
		pkg, class, ok := strings.Cut(sec, ".")
		if !ok || pkg == "" || class == "" {
			continue
		}
		for _, e := range f.Entries(sec, prop) {
			if parseBool(e.Value) {
				out = append(out, Source{f.Path, e.Line, fmt.Sprintf("[%s] %s=%s", sec, e.Key, e.Value)})
			}
		}
	}
	return out
}

// IgnoredWhy says why a line of IgnoredSwitchLines does nothing.
func IgnoredWhy(generation int) string {
	return fmt.Sprintf("Engine.Mutator declares %s without config, so the engine never reads it from an ini; a class's defaultproperties set it", SwitchProperty(generation))
}

func parseBool(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "1", "yes", "on":
		return true
	}
	return false
}

// dedupe drops later entries of a package already listed (any case).
func dedupe(es []Entry) []Entry {
	seen := map[string]bool{}
	out := []Entry{}
	for _, e := range es {
		k := strings.ToLower(e.Package)
		if !seen[k] {
			seen[k] = true
			out = append(out, e)
		}
	}
	return out
}

// findFile returns the file of dir named name in any case, or "".
func findFile(dir, name string) string {
	des, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	for _, d := range des {
		if strings.EqualFold(d.Name(), name) && d.Type().IsRegular() {
			return filepath.Join(dir, d.Name())
		}
	}
	return ""
}

// ErrNoPreset is matched by the error of Packages for an unknown preset.
var ErrNoPreset = errors.New("livemap: no such preset")

// Preset returns the preset named name (its full name, any case; or the
// part after "/" when only one preset has it).
func (m *Map) Preset(name string) (*Preset, error) {
	var short []*Preset
	for i := range m.Presets {
		p := &m.Presets[i]
		if strings.EqualFold(p.Name, name) {
			return p, nil
		}
		if _, n, ok := strings.Cut(p.Name, "/"); ok && strings.EqualFold(n, name) {
			short = append(short, p)
		}
	}
	if len(short) == 1 {
		return short[0], nil
	}
	var names []string
	for _, p := range m.Presets {
		names = append(names, strconv.Quote(p.Name))
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%w %q: no mapvote config (VoteSys.ini, MVE_Config.ini beside the ini, xVoting's GameConfig lines in it)", ErrNoPreset, name)
	}
	if len(short) > 1 {
		return nil, fmt.Errorf("%w %q: several presets have that name; give Category/Name: %s", ErrNoPreset, name, strings.Join(names, ", "))
	}
	return nil, fmt.Errorf("%w %q; presets: %s", ErrNoPreset, name, strings.Join(names, ", "))
}

// AllPresets names every preset at once for Packages.
const AllPresets = "*"

// Packages returns what the server sends while preset runs: the Base and,
// when the mapvote manages ServerPackages, the preset's packages, without
// repeats. preset "" is the Base alone; AllPresets adds every enabled
// preset's packages (what a redirect must hold for any preset).
func (m *Map) Packages(preset string) ([]Entry, error) {
	out := append([]Entry{}, m.Base...)
	if preset == "" {
		return out, nil
	}
	if preset == AllPresets {
		if len(m.Presets) == 0 {
			return nil, fmt.Errorf("%w %q: no mapvote config (VoteSys.ini, MVE_Config.ini beside the ini, xVoting's GameConfig lines in it)", ErrNoPreset, preset)
		}
		for _, p := range m.Presets {
			if !p.Disabled {
				out = append(out, p.sent(m.Managed)...)
			}
		}
		return dedupe(out), nil
	}
	p, err := m.Preset(preset)
	if err != nil {
		return nil, err
	}
	out = append(out, p.sent(m.Managed)...)
	return dedupe(out), nil
}

// sent returns the preset's packages the server sends: all of them when
// its mapvote manages ServerPackages, else only those its classes'
// switches add (FromDefaults), which the engine adds itself.
func (p *Preset) sent(managed bool) []Entry {
	if managed {
		return p.Packages
	}
	var out []Entry
	for _, e := range p.Packages {
		if e.From == FromDefaults {
			out = append(out, e)
		}
	}
	return out
}

// Names returns the package names of Packages(preset).
func (m *Map) Names(preset string) ([]string, error) {
	es, err := m.Packages(preset)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Package
	}
	return out, nil
}

// Problem is an entry of the live map whose package does not resolve.
type Problem struct {
	Entry
	Preset string // "" for the Base
	// Loaded is set for an entry of Loads that is not also sent: the
	// server loads the package (a game class, mutator or actor) but does
	// not send it.
	Loaded bool
}

// Missing returns the entries (Base, Loads, and every preset's Packages
// and Loads) whose package found does not resolve, a package once per
// preset (sent over loaded), sorted by file and line.
func (m *Map) Missing(found func(pkg string) bool) []Problem {
	var out []Problem
	add := func(sent, loads []Entry, preset string) {
		seen := map[string]bool{}
		for _, e := range sent {
			seen[strings.ToLower(e.Package)] = true
			if !found(e.Package) {
				out = append(out, Problem{Entry: e, Preset: preset})
			}
		}
		for _, e := range loads {
			if k := strings.ToLower(e.Package); !seen[k] {
				seen[k] = true
				if !found(e.Package) {
					out = append(out, Problem{Entry: e, Preset: preset, Loaded: true})
				}
			}
		}
	}
	add(m.Base, m.Loads, "")
	for _, p := range m.Presets {
		add(p.Packages, p.Loads, p.Name)
	}
	slices.SortStableFunc(out, func(a, b Problem) int {
		return cmp.Or(strings.Compare(a.Source.File, b.Source.File), cmp.Compare(a.Source.Line, b.Source.Line))
	})
	return out
}
