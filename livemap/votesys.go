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
// VoteSys.ini is not there).
func readVoteSys(dir string) (*Map, error) {
	path := findFile(dir, voteSysIni)
	if path == "" {
		return nil, nil
	}
	f, err := ini.Load(path)
	if err != nil {
		return nil, fmt.Errorf("livemap: %w", err)
	}
	m := &Map{Manager: VoteSys, Base: []Entry{}, Presets: []Preset{}, Notes: []string{}}
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
		return m, nil
	}
	pf, err := ini.Load(ppath)
	if err != nil {
		return nil, fmt.Errorf("livemap: %w", err)
	}
	secs := presetSections(pf)
	byNum := map[int]string{}
	for _, s := range secs {
		byNum[s.n] = s.name
	}
	// VoteSys probes VS_PresetConfig0, 1, ... and stops after
	// PresetProbeDepth consecutive presets without a PresetName.
	gap := 0
	for n := 0; gap < depth && len(byNum) > 0; n++ {
		sec, ok := byNum[n]
		name, _ := pf.Last(sec, "PresetName")
		if !ok || strings.TrimSpace(name) == "" {
			gap++
			continue
		}
		gap = 0
		delete(byNum, n)
		m.Presets = append(m.Presets, votePreset(pf, ppath, sec, name, m))
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
	return m, nil
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

// votePreset reads the preset of section sec of pf (ppath), named name:
// the packages of the presets of m it inherits from, then its mutators'.
func votePreset(pf *ini.File, ppath, sec, name string, m *Map) Preset {
	cat, _ := pf.Last(sec, "Category")
	full := strings.TrimSpace(name)
	if c := strings.TrimSpace(cat); c != "" {
		full = c + "/" + full
	}
	dis, _ := pf.Last(sec, "bDisabled")
	p := Preset{Name: full, Manager: VoteSys, Source: Source{ppath, pf.SectionLine(sec), "[" + sec + "]"}, Disabled: parseBool(dis), Packages: []Entry{}}
	// Inherited mutators come first, in the order of InheritFrom.
	for _, e := range pf.Entries(sec, "InheritFrom") {
		for _, base := range strings.Split(e.Value, ",") {
			base = strings.TrimSpace(base)
			if base == "" {
				continue
			}
			found := false
			for _, q := range m.Presets {
				if strings.EqualFold(q.Name, base) {
					p.Packages = append(p.Packages, q.Packages...)
					found = true
				}
			}
			if !found {
				m.Notes = append(m.Notes, fmt.Sprintf("%s:%d %s=%s: no earlier preset is named %q: nothing inherited", ppath, e.Line, e.Key, e.Value, base))
			}
		}
	}
	for _, e := range pf.Entries(sec, "Mutators") {
		for _, c := range strings.Split(e.Value, ",") {
			pkg, _, ok := strings.Cut(strings.TrimSpace(c), ".")
			if ok && pkg != "" {
				p.Packages = append(p.Packages, Entry{pkg, FromVoteSys, Source{ppath, e.Line, e.Key + "=" + e.Value}})
			}
		}
	}
	return p
}
