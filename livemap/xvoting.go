package livemap

import (
	"fmt"
	"strings"

	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/internal/structval"
)

// UT2004's own map vote, xVoting (its xVotingHandler.uc, VotingHandler.uc
// and GameInfo.uc in the corpus's UT2004 script tree): GameInfo spawns
// the class [Engine.GameInfo] VotingHandlerType names; xVotingHandler
// reads [xVoting.xVotingHandler] from the game ini.
const (
	xvHandler = "xVoting.xVotingHandler"
	xvSection = "xVoting.xVotingHandler"
)

// readXVoting reads xVoting's game configs from the game ini f (nil when
// VotingHandlerType is not xVoting's handler). Each GameConfig=(GameClass=
// ...,GameName=...,Mutators=...) line is a preset: voting it starts its
// game class with its mutators (SetupGameMap), which the server loads;
// xVoting never manages ServerPackages. With bMapVote False (its
// default) no game config is voted: every preset is disabled.
func readXVoting(f *ini.File) *Map {
	if v, _ := f.Last("Engine.GameInfo", "VotingHandlerType"); !strings.EqualFold(strings.TrimSpace(v), xvHandler) {
		return nil
	}
	m := &Map{Manager: XVoting, Base: []Entry{}, Presets: []Preset{}, Notes: []string{}}
	on := false
	if es := f.Entries(xvSection, "bMapVote"); len(es) > 0 {
		e := es[len(es)-1]
		m.Switch = &Source{f.Path, e.Line, e.Key + "=" + e.Value}
		on = parseBool(e.Value)
	}
	if !on {
		m.Notes = append(m.Notes, fmt.Sprintf("xVoting's bMapVote is off (%s): no game config is voted, so none loads or sends anything", m.SwitchText()))
	}
	for _, e := range f.Entries(xvSection, "GameConfig") {
		src := Source{f.Path, e.Line, e.Key + "=" + e.Value}
		fs, err := structval.Parse(e.Value)
		if err != nil {
			m.Notes = append(m.Notes, fmt.Sprintf("%s: %v: game config not read", src, err))
			continue
		}
		class, _ := structval.Get(fs, "GameClass")
		name, _ := structval.Get(fs, "GameName")
		if name = strings.TrimSpace(name); name == "" {
			name = strings.TrimSpace(class)
		}
		if name == "" {
			continue
		}
		p := Preset{Name: name, Manager: XVoting, Source: src, Disabled: !on, Packages: []Entry{}}
		if pkg := classPackage(class); pkg != "" {
			p.Loads = append(p.Loads, Entry{pkg, FromXVoting, src})
		}
		muts, _ := structval.Get(fs, "Mutators")
		p.classes = classRefs(strings.Split(muts, ","), src)
		p.Loads = append(p.Loads, classEntries(p.classes, FromXVoting)...)
		m.Presets = append(m.Presets, p)
	}
	if on && len(m.Presets) == 0 {
		m.Notes = append(m.Notes, "xVoting has no GameConfig lines: it votes its built-in list of the stock game types, without mutators")
	}
	m.Notes = append(m.Notes, "xVoting's per-map mutators (its map history's U= fields) are not read")
	return m
}
