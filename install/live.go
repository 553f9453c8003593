package install

import (
	"github.com/upkdeps/upkdeps/livemap"
)

// LiveMap reads the install's live package map (package livemap): the
// ini's ServerPackages, the packages of the ServerActors classes whose
// defaults switch it on (livemap.SwitchProperty), and the mapvote configs
// beside the ini.
// It is read once: a check asks for it twice (the packages sent, and the
// entries that do not resolve), and each read lists the System folder for
// the mapvote configs. The caller must not change the Map.
func (in *Install) LiveMap() (*livemap.Map, error) {
	in.liveOnce.Do(func() {
		in.live, in.liveErr = livemap.Read(in.Ini, livemap.Options{Generation: in.Search.Generation(),
			Find: func(pkg string) string { return in.Search.Find(pkg).File }, Mutators: in.mutators, Game: in.Game.Name})
	})
	return in.live, in.liveErr
}

// ServerPackagesFor returns the packages the server sends while preset
// runs (livemap.Map.Names; livemap.AllPresets for every preset). With
// preset "" it is the ini's ServerPackages as listed, unless a mapvote
// manages them or a ServerActors class's defaults add a package: then the
// live map's base. A preset the map does not have is an ArgError (ArgPreset).
func (in *Install) ServerPackagesFor(preset string) ([]string, error) {
	m, err := in.LiveMap()
	if err != nil {
		return nil, err
	}
	if preset == "" && !m.Managed && !hasFrom(m.Base, livemap.FromDefaults) {
		return in.Ini.ServerPackages(), nil
	}
	names, err := m.Names(preset)
	if err != nil {
		return nil, ArgError{ArgPreset, err}
	}
	return names, nil
}

func hasFrom(es []livemap.Entry, from string) bool {
	for _, e := range es {
		if e.From == from {
			return true
		}
	}
	return false
}
