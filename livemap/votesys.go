package livemap

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/upkdeps/upkdeps/ini"
)

// VoteSys's files and sections (README.md of github.com/Deaod/VoteSys).
const (
	voteSysIni        = "VoteSys.ini"
	voteSysPresetsIni = "VoteSysPresets.ini"
	voteSysSettings   = "ServerSettings"
	voteSysPrefix     = "VS_PresetConfig"
)

// readVoteSys reads VoteSys.ini and VoteSysPresets.ini in dir (nil when
// VoteSys.ini is not there), as VoteSys's MutVoteSys.uc
// (github.com/Deaod/VoteSys at 6100075) loads its presets; compat is
// bUseServerPackagesCompatibilityMode, with which VoteSys writes
// ServerPackages on any engine (Read decides what the base is).
func readVoteSys(dir string) (m *Map, compat bool, err error) {
	path := findFile(dir, voteSysIni)
	if path == "" {
		return nil, false, nil
	}
	f, err := ini.Load(path)
	if err != nil {
		return nil, false, fmt.Errorf("livemap: %w", err)
	}
	if v, ok := f.Last(voteSysSettings, "bUseServerPackagesCompatibilityMode"); ok {
		compat = parseBool(v)
	}
	m = &Map{Manager: VoteSys, Base: []Entry{}, Presets: []Preset{}, Notes: []string{}}
	if es := f.Entries(voteSysSettings, "bManageServerPackages"); len(es) > 0 {
		e := es[len(es)-1]
		m.Switch = &Source{path, e.Line, e.Key + "=" + e.Value}
		m.Managed = parseBool(e.Value)
	}
	for _, e := range f.Entries(voteSysSettings, "DefaultPackages") {
		if v := strings.TrimSpace(e.Value); v != "" {
			m.Base = append(m.Base, Entry{v, FromVoteSys, Source{path, e.Line, e.Key + "=" + e.Value}})
		}
	}
	depth := 1
	if v, ok := f.Last(voteSysSettings, "PresetProbeDepth"); ok {
		if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n > 1 {
			depth = min(n, 1000)
		}
	}
	ppath := findFile(dir, voteSysPresetsIni)
	if ppath == "" {
		m.Notes = append(m.Notes, "VoteSys.ini is there but VoteSysPresets.ini is not: no preset read")
		return m, compat, nil
	}
	pf, err := ini.Load(ppath)
	if err != nil {
		return nil, false, fmt.Errorf("livemap: %w", err)
	}
	secs := presetSections(pf)
	byNum := map[int]string{}
	for _, s := range secs {
		byNum[s.n] = s.name
	}
	// VoteSys probes VS_PresetConfig0, 1, ... and stops after
	// PresetProbeDepth consecutive presets without a PresetName.
	gap := 0
	var raws []*rawPreset
	for n := 0; gap < depth && len(byNum) > 0; n++ {
		sec, ok := byNum[n]
		name, _ := pf.Last(sec, "PresetName")
		if !ok || strings.TrimSpace(name) == "" {
			gap++
			continue
		}
		gap = 0
		delete(byNum, n)
		raws = append(raws, readPreset(pf, ppath, sec, name))
	}
	for _, r := range raws {
		m.Presets = append(m.Presets, r.resolve(raws, m))
	}
	for _, s := range secs {
		if _, left := byNum[s.n]; left && s.n >= 0 {
			if name, _ := pf.Last(s.name, "PresetName"); strings.TrimSpace(name) != "" {
				m.Notes = append(m.Notes, fmt.Sprintf("%s:%d [%s] is after a gap of %d or more presets (PresetProbeDepth): VoteSys never reads it", ppath, pf.SectionLine(s.name), s.name, depth))
			}
		}
	}
	if m.Managed {
		m.Notes = append(m.Notes, "VoteSys adds only the preset packages without the ServerSideOnly flag: such packages are listed here all the same")
	}
	return m, compat, nil
}

// numbered is a VS_PresetConfig section and its number.
type numbered struct {
	n    int
	name string
}

// presetSections returns the VS_PresetConfig sections of pf by number.
func presetSections(pf *ini.File) []numbered {
	var secs []numbered
	for _, s := range pf.Sections() {
		if len(s) > len(voteSysPrefix) && strings.EqualFold(s[:len(voteSysPrefix)], voteSysPrefix) {
			if n, err := strconv.Atoi(s[len(voteSysPrefix):]); err == nil && n >= 0 {
				secs = append(secs, numbered{n, s})
			}
		}
	}
	slices.SortFunc(secs, func(a, b numbered) int { return cmp.Compare(a.n, b.n) })
	return secs
}

// voteSysClass is the class of VoteSys's mutator (USrc/MutVoteSys.uc).
const voteSysClass = "MutVoteSys"

// voteSysOwn accounts for VoteSys's own package, found through its
// mutator class (Pkg.MutVoteSys) among opt.Mutators (the command line,
// where its README runs it) and the ServerActors lines. Managing
// ServerPackages, VoteSys adds it itself (TravelTo puts its own class
// first among the mutators whose packages it adds): a base entry. Not
// managing them, its README has the admin list it in ServerPackages,
// without which clients cannot open its windows: Unsent when the ini's
// ServerPackages lack it. Not found: a note.
func voteSysOwn(f *ini.File, opt Options, m *Map, iniBase []Entry) {
	var own *Entry
	for _, c := range opt.Mutators {
		if pkg, class, ok := strings.Cut(c, "."); ok && strings.EqualFold(class, voteSysClass) {
			own = &Entry{pkg, FromVoteSys, Source{"command line", 0, "?Mutator=" + c}}
			break
		}
	}
	if own == nil {
		for _, r := range f.References(opt.Generation) {
			if r.Is("ServerActors") && strings.EqualFold(r.Object, voteSysClass) {
				own = &Entry{r.Package, FromVoteSys, Source{f.Path, r.Line, r.Key + "=" + r.Value}}
				break
			}
		}
	}
	if own == nil {
		m.Notes = append(m.Notes, "VoteSys's own package is counted only when its mutator class (Pkg.MutVoteSys) is named: on the server's command line (give it with --url or --mutators) or in ServerActors")
		return
	}
	if m.Managed {
		m.Base = append(m.Base, *own)
		return
	}
	for _, b := range iniBase {
		if strings.EqualFold(b.Package, own.Package) {
			return
		}
	}
	m.Unsent = append(m.Unsent, *own)
}

// rawPreset is a preset section as written: its own mutators' packages
// and Packages, and the presets it inherits from (InheritFrom).
type rawPreset struct {
	p        Preset
	full     string // VoteSys's full name, Category + "/" + PresetName
	inherits []ini.Entry
	pkgs     []Entry    // its Packages= entries
	game     []Entry    // the package of its Game= class (one at most)
	cls      []classRef // its Mutators= classes
	// done and loading are resolve's memo and cycle guard.
	done, loading bool
	allPkgs       []Entry
	allGame       []Entry
	allCls        []classRef
}

// readPreset reads the preset of section sec of pf (ppath), named name.
func readPreset(pf *ini.File, ppath, sec, name string) *rawPreset {
	cat, _ := pf.Last(sec, "Category")
	full := strings.TrimSpace(name)
	if c := strings.TrimSpace(cat); c != "" {
		full = c + "/" + full
	}
	dis, _ := pf.Last(sec, "bDisabled")
	r := &rawPreset{p: Preset{Name: full, Manager: VoteSys, Source: Source{ppath, pf.SectionLine(sec), "[" + sec + "]"}, Disabled: parseBool(dis), Packages: []Entry{}},
		full: strings.TrimSpace(cat) + "/" + strings.TrimSpace(name), inherits: pf.Entries(sec, "InheritFrom")}
	for _, e := range pf.Entries(sec, "Mutators") {
		r.cls = append(r.cls, classRefs(strings.Split(e.Value, ","), Source{ppath, e.Line, e.Key + "=" + e.Value})...)
	}
	if es := pf.Entries(sec, "Game"); len(es) > 0 {
		e := es[len(es)-1]
		if pkg := classPackage(e.Value); pkg != "" {
			r.game = []Entry{{pkg, FromVoteSys, Source{ppath, e.Line, e.Key + "=" + e.Value}}}
		}
	}
	for _, e := range pf.Entries(sec, "Packages") {
		for _, pkg := range strings.Split(e.Value, ",") {
			if pkg = strings.TrimSpace(pkg); pkg != "" {
				r.pkgs = append(r.pkgs, Entry{pkg, FromVoteSys, Source{ppath, e.Line, e.Key + "=" + e.Value}})
			}
		}
	}
	return r
}

// resolve returns r's preset with what it inherits, as VoteSys's
// LoadPresetPassTwo builds it: each InheritFrom base (any preset, found by
// its exact full name "Category/PresetName", as UnrealScript's == compares)
// loaded first and its mutators and packages appended before r's own; the
// preset's packages are then those of all its mutators, then all its
// Packages (TravelTo). A base that is not there, or a loop, is a note of
// m's and adds nothing.
func (r *rawPreset) resolve(all []*rawPreset, m *Map) Preset {
	r.load(all, m)
	p := r.p
	muts := classEntries(r.allCls, FromVoteSys)
	p.Packages = append(append([]Entry{}, muts...), r.allPkgs...)
	// The server loads the game class and every mutator (and actor) of
	// the preset, whichever it sends.
	p.Loads = append(append([]Entry{}, r.allGame...), muts...)
	p.classes = r.allCls
	return p
}

func (r *rawPreset) load(all []*rawPreset, m *Map) {
	if r.done {
		return
	}
	if r.loading {
		m.Notes = append(m.Notes, fmt.Sprintf("%s: preset %s inherits from itself through InheritFrom: VoteSys stops the loop there", r.p.Source, r.full))
		return
	}
	r.loading = true
	for _, e := range r.inherits {
		for _, base := range strings.Split(e.Value, ",") {
			base = strings.TrimSpace(base)
			if base == "" {
				continue
			}
			var b *rawPreset
			for _, q := range all {
				if q.full == base {
					b = q
					break
				}
			}
			if b == nil {
				m.Notes = append(m.Notes, fmt.Sprintf("%s:%d %s=%s: no preset's full name is %q (Category/PresetName, case as written): nothing inherited", r.p.Source.File, e.Line, e.Key, e.Value, base))
				continue
			}
			b.load(all, m)
			r.allPkgs = append(r.allPkgs, b.allPkgs...)
			r.allCls = append(r.allCls, b.allCls...)
			if r.allGame == nil {
				r.allGame = b.allGame // the first base with a game
			}
		}
	}
	r.allPkgs = append(r.allPkgs, r.pkgs...)
	r.allCls = append(r.allCls, r.cls...)
	if r.game != nil {
		r.allGame = r.game // its own Game= wins
	}
	r.loading, r.done = false, true
}
