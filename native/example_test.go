package native_test

import (
	"fmt"

	"github.com/upkdeps/upkdeps/native"
)

// An install with an Engine binary and no Core binary: Engine's list is
// the binary's, Core's comes from the UT99 table.
func ExampleSet() {
	s := native.NewSet()
	s.AddBinary(&native.Binary{Path: "System/Engine.dll", Package: "Engine", Method: native.MethodPE,
		Classes: []string{"Level", "Model"}})
	for _, t := range native.TablesFor("ut99", 1, 469) {
		s.AddTable(t)
	}

	fmt.Println(s.Has("engine", "level"), s.Has("Engine", "Canvas"), s.Has("Core", "TextBuffer"))
	_, src, _ := s.Classes("Core")
	fmt.Println(src.Kind, src.Table, s.FromBinary("Core"), s.FromBinary("Engine"))
	// Output:
	// true false true
	// table ut99-469 false true
}

func ExampleClassFromSymbol() {
	for _, sym := range []string{"autoclassUKMeshProps", "?autoclassAActor@AActor@@2VUClass@@A", "_ZN7UObject16autoclassUObjectE", "GPackage"} {
		class, ok := native.ClassFromSymbol(sym)
		fmt.Printf("%q %v\n", class, ok)
	}
	// Output:
	// "KMeshProps" true
	// "Actor" true
	// "Object" true
	// "" false
}
