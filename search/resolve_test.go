package search

import (
	"testing"

	"github.com/upkdeps/upkdeps/format"
)

// TestResolveVia: Resolve says how each file was found, in the words
// `upkdeps resolve` prints, and a name not found has no file.
func TestResolveVia(t *testing.T) {
	in := newInstall(t)
	in.files(stockFiles...)
	s := in.searcher(in.ini("System/UnrealTournament.ini", ut99Ini), Options{})
	for _, tc := range []struct{ name, file, via string }{
		{"Core", "System/Core.u", "Paths[0] ../System/*.u"},
		{"DM-Tutorial", "Maps/DM-Tutorial.unr", "Paths[1] ../Maps/*.unr"},
		{"Core.u", "System/Core.u", "the name as given"},
		{"BotPack", "System/Botpack.u", "Paths[0] ../System/*.u, ignoring case"},
		{"Nope", "", ""},
	} {
		r := s.Resolve(tc.name, format.GUID{}, 0)
		file := ""
		if r.File != nil {
			file = *r.File
		}
		if file != tc.file || r.Via != tc.via || r.Name != tc.name {
			t.Errorf("Resolve(%s): file %q via %q, want %q via %q", tc.name, file, r.Via, tc.file, tc.via)
		}
		if r.Tried == nil || r.Shadowed == nil || r.Warnings == nil {
			t.Errorf("Resolve(%s): a nil list (JSON null): %+v", tc.name, r)
		}
	}
}

// TestResolveAll: the names in the order asked, and Resolved only when
// every one resolved; no names is an empty list (JSON []), all resolved.
func TestResolveAll(t *testing.T) {
	in := newInstall(t)
	in.files(stockFiles...)
	s := in.searcher(in.ini("System/UnrealTournament.ini", ut99Ini), Options{})
	rs := s.ResolveAll([]string{"Engine", "Core"}, format.GUID{}, 0)
	if rs.SchemaVersion != ResolveSchemaVersion || len(rs.Results) != 2 || rs.Results[0].Name != "Engine" || rs.Results[1].Name != "Core" || !rs.Resolved() {
		t.Errorf("ResolveAll(Engine, Core): %+v", rs)
	}
	if rs := s.ResolveAll([]string{"Core", "Nope"}, format.GUID{}, 0); rs.Resolved() {
		t.Errorf("ResolveAll(Core, Nope): resolved, want not: %+v", rs)
	}
	if rs := s.ResolveAll(nil, format.GUID{}, 0); rs.Results == nil || !rs.Resolved() {
		t.Errorf("ResolveAll(): %+v", rs)
	}
}
