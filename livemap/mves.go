package livemap

import (
	"fmt"
	"strings"

	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/internal/structval"
)

// MVES's file and section (github.com/peterekepeter/ut99-mves).
const (
	mvesIni     = "MVE_Config.ini"
	mvesSection = "MVES.MapVote"
)

// readMVES reads MVE_Config.ini in dir (nil when it is not there).
func readMVES(dir string) (*Map, error) {
	path := findFile(dir, mvesIni)
	if path == "" {
		return nil, nil
	}
	f, err := ini.Load(path)
	if err != nil {
		return nil, fmt.Errorf("livemap: %w", err)
	}
	m := &Map{Manager: MVES, Base: []Entry{}, Presets: []Preset{}, Notes: []string{}}
	if es := f.Entries(mvesSection, "bOverrideServerPackages"); len(es) > 0 {
		e := es[len(es)-1]
		m.Switch = &Source{path, e.Line, e.Key + "=" + e.Value}
		m.Managed = parseBool(e.Value)
	}
	for _, e := range f.Entries(mvesSection, "MainServerPackages") {
		for _, p := range structval.List(e.Value) {
			m.Base = append(m.Base, Entry{p, FromMVES, Source{path, e.Line, e.Key + "=" + e.Value}})
		}
	}
	for _, e := range f.Entries(mvesSection, "CustomGame") {
		src := Source{path, e.Line, e.Key + "=" + e.Value}
		fs, err := structval.Parse(e.Value)
		if err != nil {
			m.Notes = append(m.Notes, fmt.Sprintf("%s: %v: game type not read", src, err))
			continue
		}
		en, _ := structval.Get(fs, "bEnabled")
		game, _ := structval.Get(fs, "GameName")
		rule, _ := structval.Get(fs, "RuleName")
		class, _ := structval.Get(fs, "GameClass")
		if strings.TrimSpace(game) == "" && strings.TrimSpace(class) == "" {
			continue // an empty slot
		}
		name := strings.TrimSpace(game)
		if r := strings.TrimSpace(rule); r != "" {
			name += "/" + r
		}
		p := Preset{Name: name, Manager: MVES, Source: src, Disabled: !parseBool(en), Packages: []Entry{}}
		for _, pkg := range listField(fs, "Packages") {
			p.Packages = append(p.Packages, Entry{pkg, FromMVES, src})
		}
		m.Presets = append(m.Presets, p)
	}
	return m, nil
}
