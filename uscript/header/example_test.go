package header_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/upkdeps/upkdeps/uscript"
	"github.com/upkdeps/upkdeps/uscript/header"
)

// Generate a header from two packages' sources, then check an edited
// source against it.
func Example() {
	read := func(file, src string) *uscript.Decls {
		d, err := uscript.ReadDecls(file, []byte(src))
		if err != nil {
			panic(err)
		}
		return d
	}
	object := read("Core/Classes/Object.uc", "class Object native noexport;\n")
	actor := "class Actor extends Object native;\nvar float Mass;\nvar bool bHidden;\nnative function Move(float Dist);\n"

	g := header.New(header.UE1)
	g.Add(header.Package{Name: "Core", Classes: []*uscript.Decls{object}})
	g.Add(header.Package{Name: "Engine", Classes: []*uscript.Decls{read("Engine/Classes/Actor.uc", actor)}})
	text, _, _, _ := g.Header("Engine")
	in := false
	for _, l := range strings.Split(string(text), "\n") {
		in = in || strings.HasPrefix(l, "class ")
		if in && (strings.HasPrefix(l, "class ") || strings.HasPrefix(l, "    ")) {
			fmt.Println(l)
		}
		in = in && l != "};"
	}

	// The script changes; the header on disk does not.
	onDisk, _ := header.ParseHeader(bytes.NewReader(text), "EngineClasses.h")
	edited := strings.Replace(actor, "var float Mass;", "var int Mass;", 1)
	g2 := header.New(header.UE1)
	g2.Add(header.Package{Name: "Core", Classes: []*uscript.Decls{object}})
	g2.Add(header.Package{Name: "Engine", Classes: []*uscript.Decls{read("Engine/Classes/Actor.uc", edited)}})
	_, model, _, _ := g2.Header("Engine")
	for _, c := range header.Diff(model, onDisk) {
		fmt.Printf("%s:%d: %s: %s.%s (want %s, have %s)\n", c.File, c.Line, c.Kind, c.Class, c.Name, c.Want, c.Have)
	}
	// Output:
	// class ENGINE_API AActor : public UObject
	//     FLOAT Mass;
	//     BITFIELD bHidden:1 GCC_PACK(4);
	//     DECLARE_FUNCTION(execMove);
	//     DECLARE_CLASS(AActor,UObject,0,Engine)
	//     NO_DEFAULT_CONSTRUCTOR(AActor)
	// Engine/Classes/Actor.uc:2: member retyped: AActor.Mass (want INT, have FLOAT)
}

// Check a source tree's headers, write them, and check again.
func ExampleSync() {
	root, err := os.MkdirTemp("", "upkdeps-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(root)
	for name, src := range map[string]string{
		"Core/Classes/Object.uc":  "class Object native noexport;\n",
		"Engine/Classes/Actor.uc": "class Actor extends Object native;\nvar float Mass;\n",
	} {
		path := filepath.Join(root, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(path), 0o755)
		os.WriteFile(path, []byte(src), 0o644)
	}
	for _, mode := range []header.Mode{header.ModeCheck, header.ModeWrite, header.ModeCheck} {
		rep, err := header.Sync(context.Background(), header.SyncOptions{Root: root, Packages: []string{"Core", "Engine"}, Mode: mode})
		if err != nil {
			panic(err)
		}
		for _, p := range rep.Packages {
			if p.Status != header.StatusNone {
				fmt.Printf("%s: %s %s (%d class)\n", mode, p.Header, p.Status, p.Classes)
			}
		}
	}
	// Output:
	// check: Engine/Inc/EngineClasses.h missing (1 class)
	// write: Engine/Inc/EngineClasses.h written (1 class)
	// check: Engine/Inc/EngineClasses.h current (1 class)
}
