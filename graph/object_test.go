package graph

import (
	"encoding/json"
	"testing"
)

// TestObjectText: findings carry objects as structs; their text (and JSON
// string) is made at render time, in the forms check has always printed,
// and read back into the same struct.
func TestObjectText(t *testing.T) {
	for _, tc := range []struct {
		o       Object
		want    string
		isClass bool
	}{
		{Object{Package: "DemoTex", Path: "Walls.Marble", ClassPackage: "Engine", Class: "Texture"}, "DemoTex.Walls.Marble (Engine.Texture)", false},
		{iniClass("DemoGame", "DemoTeamGame"), "DemoGame.DemoTeamGame (Core.Class)", true},
		{Object{Package: "Engine", Path: "Actor.Touching", ClassPackage: "Core", Class: "ObjectProperty", Exported: "Core.ArrayProperty"},
			"Engine.Actor.Touching: imported as Core.ObjectProperty, exported as Core.ArrayProperty", false},
		{Object{Package: "Engine", Path: "Bogus", ClassPackage: "Core", Class: "Class", Exported: "Engine.Sound", ByIni: true},
			"Engine.Bogus: named as a class by the ini, exported as Engine.Sound", false},
		{Object{Path: "Engine.NoSuchInEngine"}, "Engine.NoSuchInEngine", false},
	} {
		if have := tc.o.String(); have != tc.want {
			t.Errorf("String: have %q, want %q", have, tc.want)
		}
		if tc.o.IsClass() != tc.isClass {
			t.Errorf("%s: IsClass %v", tc.want, !tc.isClass)
		}
		b, err := json.Marshal(tc.o)
		if err != nil {
			t.Fatal(err)
		}
		if want, _ := json.Marshal(tc.want); string(b) != string(want) {
			t.Errorf("JSON: have %s, want %s", b, want)
		}
		var back Object
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		// A name from sources has no package part: the text reads back as
		// a path only, which prints the same.
		if back != tc.o && back.String() != tc.want {
			t.Errorf("read back %+v, want %+v", back, tc.o)
		}
		if tc.o.Package != "" && back != tc.o {
			t.Errorf("read back %+v, want %+v", back, tc.o)
		}
	}
}
