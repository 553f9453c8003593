package livemap

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/internal/structval"
)

// MVES's file and section (github.com/peterekepeter/ut99-mves).
const (
	mvesIni     = "MVE_Config.ini"
	mvesSection = "MVES.MapVote"
)

// readMVES reads MVE_Config.ini in dir (nil when it is not there), as
// MVES's MapVote.uc (github.com/peterekepeter/ut99-mves at 1a84379, MVE2i)
// builds ServerPackages when bOverrideServerPackages is True: its client
// package (ClientPackage, which MVES sets to its own package's name),
// ClientScreenshotPackage, the package of ClientLogoTexture (the text
// before its first dot), the voted game type's Packages, then
// MainServerPackages; every list's aliases (Aliases[n]) expanded first
// (MV_Result.AddPackages). MainServerPackages is the game ini's
// ServerPackages when bResetServerPackages is True (its default) or it is
// empty: resetsBase says so, and Read puts the ini's entries there.
func readMVES(dir string) (m *Map, resetsBase bool, err error) {
	path := findFile(dir, mvesIni)
	if path == "" {
		return nil, false, nil
	}
	f, err := ini.Load(path)
	if err != nil {
		return nil, false, fmt.Errorf("livemap: %w", err)
	}
	m = &Map{Manager: MVES, Base: []Entry{}, Presets: []Preset{}, Notes: []string{}}
	if es := f.Entries(mvesSection, "bOverrideServerPackages"); len(es) > 0 {
		e := es[len(es)-1]
		m.Switch = &Source{path, e.Line, e.Key + "=" + e.Value}
		m.Managed = parseBool(e.Value)
	}
	al := mvesAliases(f)
	last := func(key string) (ini.Entry, bool) {
		es := f.Entries(mvesSection, key)
		if len(es) == 0 {
			return ini.Entry{}, false
		}
		return es[len(es)-1], true
	}
	src := func(e ini.Entry) Source { return Source{path, e.Line, e.Key + "=" + e.Value} }
	if e, ok := last("ClientPackage"); ok && strings.TrimSpace(e.Value) != "" {
		m.Base = append(m.Base, Entry{strings.TrimSpace(e.Value), FromMVES, src(e)})
	} else if m.Managed {
		m.Notes = append(m.Notes, fmt.Sprintf("%s sets no ClientPackage: MVES also sends its own client package (MVE2h, MVE2i, ... as its release names it; MVES writes the name there when it runs), which is not counted", path))
	}
	if e, ok := last("ClientScreenshotPackage"); ok && strings.TrimSpace(e.Value) != "" {
		m.Base = append(m.Base, Entry{strings.TrimSpace(e.Value), FromMVES, src(e)})
	}
	if e, ok := last("ClientLogoTexture"); ok {
		if pkg := classPackage(e.Value); pkg != "" {
			m.Base = append(m.Base, Entry{pkg, FromMVES, src(e)})
		}
	}
	// Every game type runs these too (PopulateResultWithDefaults adds them
	// first).
	var mainClasses []classRef
	for _, key := range []string{"MainServerActors", "MainMutatorList"} {
		if e, ok := last(key); ok {
			mainClasses = append(mainClasses, classRefs(al.list(e.Value, src(e), &m.Notes), src(e))...)
		}
	}
	m.Loads = classEntries(mainClasses, FromMVES)
	var main []Entry
	for _, e := range f.Entries(mvesSection, "MainServerPackages") {
		for _, p := range al.list(e.Value, src(e), &m.Notes) {
			main = append(main, Entry{p, FromMVES, src(e)})
		}
	}
	reset, resetSet := last("bResetServerPackages")
	switch {
	case !m.Managed:
		m.Base = append(m.Base, main...)
	case !resetSet || parseBool(reset.Value):
		resetsBase = true
		why := path + " sets no bResetServerPackages (MVES's default is True)"
		if resetSet {
			why = src(reset).String()
		}
		m.Notes = append(m.Notes, fmt.Sprintf("%s: MVES replaces MainServerPackages with the game ini's ServerPackages when it starts, so those are the base", why))
	case len(main) == 0:
		resetsBase = true
		m.Notes = append(m.Notes, fmt.Sprintf("%s sets no MainServerPackages: MVES fills them from the game ini's ServerPackages when it starts, so those are the base", path))
	default:
		m.Base = append(m.Base, main...)
	}
	games := map[int]*mvesGame{}
	var order []*mvesGame
	for _, e := range f.Entries(mvesSection, "CustomGame") {
		src := src(e)
		fs, err := structval.Parse(e.Value)
		if err != nil {
			m.Notes = append(m.Notes, fmt.Sprintf("%s: %v: game type not read", src, err))
			continue
		}
		g := &mvesGame{index: e.Index, fields: fs, src: src}
		if e.Index >= 0 {
			games[e.Index] = g // a later line of one index wins, as the ini's
		}
		order = append(order, g)
	}
	for _, g := range order {
		if e := g.index; e >= 0 && games[e] != g {
			continue // overridden by a later line of its index
		}
		en, _ := structval.Get(g.fields, "bEnabled")
		game, _ := structval.Get(g.fields, "GameName")
		rule, _ := structval.Get(g.fields, "RuleName")
		class, _ := structval.Get(g.fields, "GameClass")
		if strings.TrimSpace(game) == "" && strings.TrimSpace(class) == "" {
			continue // an empty slot
		}
		name := strings.TrimSpace(game)
		if r := strings.TrimSpace(rule); r != "" {
			name += "/" + r
		}
		p := Preset{Name: name, Manager: MVES, Source: g.src, Disabled: !parseBool(en), Packages: []Entry{}}
		var r mvesResult
		g.gather(games, al, map[int]bool{}, &r, &m.Notes)
		p.Packages = r.pkgs
		if r.game != nil {
			p.Loads = append(p.Loads, *r.game)
		}
		p.Loads = append(p.Loads, classEntries(r.classes, FromMVES)...)
		p.classes = append(append([]classRef{}, mainClasses...), r.classes...)
		m.Presets = append(m.Presets, p)
	}
	return m, resetsBase, nil
}

// mvesUnsent returns MVES's client package (an entry of mv.Base read
// from ClientPackage=) when the ini's ServerPackages (iniBase) do not
// list it: with bOverrideServerPackages off MVES only checks that they do
// (MapVote.uc's CheckClientPackageInstalled: "not in ServerPackages,
// nobody will be able to vote"). Under XC_Engine's game engine MVES adds
// it to the package map itself (XC_Version 11 or later, which is not
// read): a note then, not an entry.
func mvesUnsent(f *ini.File, mv *Map, iniBase []Entry, notes []string) ([]Entry, []string) {
	out := []Entry{}
	for _, e := range mv.Base {
		if key, _, _ := strings.Cut(e.Source.Text, "="); !strings.EqualFold(key, "ClientPackage") {
			continue
		}
		sent := false
		for _, b := range iniBase {
			sent = sent || strings.EqualFold(b.Package, e.Package)
		}
		if sent {
			continue
		}
		if ge, _ := f.Last(ini.SectionEngine, "GameEngine"); strings.HasPrefix(strings.ToLower(strings.TrimSpace(ge)), "xc_engine.") {
			notes = append(notes, fmt.Sprintf("%s is not in the ini's ServerPackages; under XC_Engine (version 11 or later, not read) MVES adds it to the package map itself", e.Source))
			continue
		}
		out = append(out, e)
	}
	return out, notes
}

// mvesGame is a CustomGame[N] line.
type mvesGame struct {
	index  int // N; -1 for a line without one
	fields []structval.Field
	src    Source
}

// maxExtends bounds the depth of Extends= chains followed.
const maxExtends = 64

// mvesResult is what a game type gathers: the packages it sends (pkgs),
// the package of its game class (the last one set along its Extends
// chain) and its mutators and server actors (classes).
type mvesResult struct {
	pkgs    []Entry
	game    *Entry
	classes []classRef
}

// gather adds g's packages and loads to r as MapVote.uc's
// PopulateResultWithRule gathers them: first those of each game type of
// its Extends= list (indices of CustomGame, comma-separated, each
// gathered the same way), then its own GameClass (when set),
// ServerActors, MutatorList and Packages, aliases expanded. A game type
// met twice in one walk (MVES's "circular extends" error) or an index
// with no line adds nothing, with a note.
func (g *mvesGame) gather(games map[int]*mvesGame, al aliases, seen map[int]bool, r *mvesResult, notes *[]string) {
	if g.index >= 0 {
		if seen[g.index] {
			*notes = append(*notes, fmt.Sprintf("%s: CustomGame[%d] is reached twice through Extends (MVES stops there: circular extends)", g.src, g.index))
			return
		}
		seen[g.index] = true
	}
	if len(seen) > maxExtends {
		return
	}
	ext, _ := structval.Get(g.fields, "Extends")
	for _, x := range strings.Split(ext, ",") {
		if x = strings.TrimSpace(x); x == "" {
			continue
		}
		n, err := strconv.Atoi(x)
		base := games[n]
		if err != nil || base == nil {
			*notes = append(*notes, fmt.Sprintf("%s: Extends names %q, which no CustomGame line has: nothing added from it", g.src, x))
			continue
		}
		base.gather(games, al, seen, r, notes)
	}
	if gc, _ := structval.Get(g.fields, "GameClass"); strings.TrimSpace(gc) != "" {
		if res, _ := al.resolve(gc); classPackage(res) != "" {
			r.game = &Entry{classPackage(res), FromMVES, g.src}
		}
	}
	for _, key := range []string{"ServerActors", "MutatorList"} {
		v, _ := structval.Get(g.fields, key)
		r.classes = append(r.classes, classRefs(al.list(v, g.src, notes), g.src)...)
	}
	pkgs, _ := structval.Get(g.fields, "Packages")
	for _, pkg := range al.list(pkgs, g.src, notes) {
		r.pkgs = append(r.pkgs, Entry{pkg, FromMVES, g.src})
	}
}

// alias is one of MVES's Aliases[n] lines: "<key> value" or "<key>=value".
type alias struct{ key, value string }

type aliases []alias

// mvesAliases reads the Aliases[n] lines as MV_Aliases.AddAliasLine
// splits them: the key ends at the first space, else at the first "=".
func mvesAliases(f *ini.File) aliases {
	var out aliases
	for _, e := range f.Entries(mvesSection, "Aliases") {
		v := strings.TrimSpace(e.Value)
		i := strings.IndexByte(v, ' ')
		if i < 0 {
			i = strings.IndexByte(v, '=')
		}
		if i <= 0 {
			continue // empty, or no key (MVES reports the error)
		}
		out = append(out, alias{v[:i], v[i+1:]})
	}
	return out
}

// maxAliasDepth is MV_Aliases.Resolve's bound on rounds of expansion.
const maxAliasDepth = 32

// maxAliasLen bounds an expanded list (no real list comes near it: a
// server's MainServerPackages is a few hundred bytes).
const maxAliasLen = 16 << 10

// resolve expands the aliases in s as MV_Aliases.Resolve does: each
// round replaces every occurrence of every key, in order, with its value
// (plain text substitution), until a round replaces nothing or 32 rounds
// have run. An expansion past maxAliasLen stops there, ok false.
func (a aliases) resolve(s string) (out string, ok bool) {
	if len(a) == 0 {
		return s, true
	}
	for range maxAliasDepth {
		replaced := false
		for _, x := range a {
			if strings.Contains(s, x.key) {
				s = strings.ReplaceAll(s, x.key, x.value)
				replaced = true
			}
			if len(s) > maxAliasLen {
				return s[:maxAliasLen], false
			}
		}
		if !replaced {
			break
		}
	}
	return s, true
}

// list is the packages of a list value v (src its line) with its
// aliases expanded; one that expands past maxAliasLen is a note, the
// list read as far as it went.
func (a aliases) list(v string, src Source, notes *[]string) []string {
	r, ok := a.resolve(v)
	if !ok {
		*notes = append(*notes, fmt.Sprintf("%s: its aliases expand past %d KiB (an alias that grows itself?): the list is read only that far", src, maxAliasLen>>10))
	}
	return structval.List(r)
}
