package native

import "testing"

func TestClassFromSymbol(t *testing.T) {
	tests := []struct {
		sym, want string
		ok        bool
	}{
		// plain C names, as UE1 and UE2 export them
		{"autoclassUObject", "Object", true},
		{"autoclassAActor", "Actor", true},
		{"autoclassUuDemoDriver", "uDemoDriver", true},
		{"autoclassFVector", "Vector", true},
		{"autoclassUT_Flag", "T_Flag", true}, // U + T_Flag: underscores are identifier chars
		// C-decorated, as in an import library
		{"_autoclassUKMeshProps", "KMeshProps", true},
		{"__imp__autoclassUKMeshProps", "KMeshProps", true},
		// MSVC
		{"?autoclassUObject@UObject@@2VUClass@@A", "Object", true},
		{"?autoclassAActor@AActor@@2PAVUClass@@A", "Actor", true},
		// Itanium: the length prefix decides, the trailing E is not part of the name
		{"_ZN7UObject16autoclassUObjectE", "Object", true},
		{"_ZN6AActor15autoclassAActorE", "Actor", true},
		{"_ZN4UFooE13autoclassUFoo", "", false},               // past the nested name's E
		{"_ZN8UObject217autoclassUObject2E", "Object2", true}, // digits of two lengths side by side
		{"_ZN8UObject216autoclassUObject2E", "Object", true},
		{"_Z16autoclassUObject", "Object", true},
		{"_ZN7UObject99autoclassUObjectE", "", false}, // length past the end
		{"_ZN7UObject4autoE", "", false},
		// gcc 2.95
		{"_7UObject.autoclassUObject", "Object", true},
		{"_6AActor$autoclassAActor", "Actor", true},
		{"autoclassAActor__6AActor", "Actor", true},
		{"autoclassUPackageMap__Q26Engine11UPackageMap", "PackageMap", true},
		// not class symbols
		{"autoclass", "", false},
		{"autoclassU", "", false},
		{"autoclassXFoo", "", false},
		{"autoclassU00", "", false},
		{"autoclassUFoo@bar", "", false},
		{"myautoclassUFoo", "", false},
		{"GetautoclassUFoo", "", false},
		{"?StaticClass@UObject@@SAPAVUClass@@XZ", "", false},
		{"UObject", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		got, ok := ClassFromSymbol(tt.sym)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ClassFromSymbol(%q) = %q, %v; want %q, %v", tt.sym, got, ok, tt.want, tt.ok)
		}
	}
}
