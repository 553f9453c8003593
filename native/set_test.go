package native

import (
	"slices"
	"testing"
)

func TestSet(t *testing.T) {
	s := NewSet()
	s.AddTable(&Table{Name: "t1", Packages: map[string][]string{
		"Core":   {"Object", "Class"},
		"Engine": {"Level", "KMeshProps"},
		"Fire":   {"FireTexture"},
	}})
	s.AddTable(&Table{Name: "t2", Packages: map[string][]string{"fire": {"Other"}, "Extra": {"Thing"}}})
	s.AddBinary(&Binary{Path: "System/Engine.dll", Package: "Engine", Method: MethodPE, Classes: []string{"Level", "Model"}})
	s.AddBinary(&Binary{Path: "System/engine.so", Package: "engine", Method: MethodELF, Classes: []string{"Other"}})

	checks := []struct {
		pkg, class string
		want       bool
	}{
		{"engine", "level", true},
		{"Engine", "Model", true},
		{"Engine", "KMeshProps", false}, // the binary is exact: the table no longer counts
		{"Engine", "Other", false},      // the second binary is ignored
		{"CORE", "class", true},
		{"Fire", "FireTexture", true},
		{"Fire", "Other", false}, // the first table wins
		{"Extra", "Thing", true},
		{"Nope", "Object", false},
	}
	for _, c := range checks {
		if got := s.Has(c.pkg, c.class); got != c.want {
			t.Errorf("Has(%s, %s) = %v, want %v", c.pkg, c.class, got, c.want)
		}
	}
	if !s.FromBinary("ENGINE") || s.FromBinary("Core") || !s.HasPackage("core") || s.HasPackage("Nope") {
		t.Error("FromBinary/HasPackage wrong")
	}
	classes, src, ok := s.Classes("engine")
	if !ok || !slices.Equal(classes, []string{"Level", "Model"}) || src != (Source{Kind: SourceBinary, Path: "System/Engine.dll"}) {
		t.Errorf("Classes(engine) = %q, %+v, %v", classes, src, ok)
	}
	classes[0] = "Changed"
	if again, _, _ := s.Classes("Engine"); again[0] != "Level" {
		t.Error("Classes returned the set's own slice")
	}
	classes, src, ok = s.Classes("Core")
	if !ok || !slices.Equal(classes, []string{"Class", "Object"}) || src != (Source{Kind: SourceTable, Table: "t1"}) {
		t.Errorf("Classes(Core) = %q, %+v, %v", classes, src, ok)
	}
	if _, _, ok := s.Classes("Nope"); ok {
		t.Error("Classes(Nope) ok")
	}
	if got, want := s.Packages(), []string{"Core", "Engine", "Extra", "Fire"}; !slices.Equal(got, want) {
		t.Errorf("Packages = %q, want %q", got, want)
	}
	// The same file again through another spelling of its folder is no
	// second binary: natives must not call the binary it used "ignored".
	s.AddBinary(&Binary{Path: "System/../System/Engine.dll", Package: "Engine", Method: MethodPE, Classes: []string{"Level", "Model"}})
	if got := s.Ignored(); len(got) != 1 || got[0].Path != "System/engine.so" || got[0].UsedInstead != "System/Engine.dll" {
		t.Errorf("Ignored = %+v", got)
	}
}

func TestNilAndZeroSet(t *testing.T) {
	var s *Set
	if s.Has("Core", "Object") || s.HasPackage("Core") || s.FromBinary("Core") || s.Packages() != nil || s.Ignored() != nil {
		t.Error("nil set knows something")
	}
	if _, _, ok := s.Classes("Core"); ok {
		t.Error("nil set has classes")
	}
	var z Set
	z.AddBinary(&Binary{Path: "Core.so", Package: "Core", Classes: []string{"Object"}})
	if !z.Has("Core", "Object") {
		t.Error("zero Set does not work")
	}
}
