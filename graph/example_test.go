package graph_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/search"
)

// writeInstall writes a tiny game folder: an ini, Core.u, Engine.u and a
// mod that imports a class Engine lacks, from a package nobody has.
func writeInstall(root string) (iniPath string) {
	write := func(rel string, b *format.Builder) {
		if err := format.WriteFile(filepath.Join(root, rel), b.File); err != nil {
			panic(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(root, "System"), 0o755); err != nil {
		panic(err)
	}
	core := format.NewBuilder(69, 0)
	core.ExportSpec("Object:Class", 16)
	write("System/Core.u", core)
	engine := format.NewBuilder(69, 0)
	engine.ImportSpec("Core.Object:Core.Class")
	engine.ExportSpec("Actor:Class", 16)
	write("System/Engine.u", engine)
	mod := format.NewBuilder(69, 0)
	mod.ImportSpec("Engine.Actor:Core.Class")
	mod.ImportSpec("Engine.Hovercraft:Core.Class")
	mod.ImportSpec("ModTextures.Skins.Red:Engine.Texture")
	mod.ExportSpec("ModActor:Class", 16)
	write("System/Mod.u", mod)
	iniPath = filepath.Join(root, "System", "Game.ini")
	text := "[Core.System]\nPaths=../System/*.u\n[Engine.GameEngine]\nServerPackages=Mod\nServerActors=Mod.ModActor\n"
	if err := os.WriteFile(iniPath, []byte(text), 0o644); err != nil {
		panic(err)
	}
	return iniPath
}

// Build the graph of an install through the engine's search order, with
// the ini's ServerPackages and ServerActors as roots, and walk it.
func ExampleBuild() {
	root, _ := os.MkdirTemp("", "upkdeps-example")
	defer os.RemoveAll(root)
	f, err := ini.Load(writeInstall(root))
	if err != nil {
		panic(err)
	}
	s, err := search.New(f, search.Options{})
	if err != nil {
		panic(err)
	}
	g, err := graph.Build(context.Background(), graph.FromSearcher(s), graph.Options{Jobs: 2, Roots: graph.RootsOf(f, s.Generation())})
	if err != nil {
		panic(err)
	}
	for _, p := range g.Packages() {
		fmt.Printf("%s %s imports %d package(s)\n", p.Name, p.Kind, len(g.Imports(p)))
	}
	for _, r := range g.Roots() {
		fmt.Println("root:", r.Evidence())
	}
	// Output:
	// Core code imports 0 package(s)
	// Engine code imports 1 package(s)
	// Mod code imports 2 package(s)
	// ModTextures missing imports 0 package(s)
	// root: Game.ini:4 ServerPackages=Mod
	// root: Game.ini:5 ServerActors=Mod.ModActor
}

// Check a graph: every finding comes with the chain from the ini line
// that makes the engine load it.
func ExampleGraph_Check() {
	root, _ := os.MkdirTemp("", "upkdeps-example")
	defer os.RemoveAll(root)
	f, err := ini.Load(writeInstall(root))
	if err != nil {
		panic(err)
	}
	s, err := search.New(f, search.Options{})
	if err != nil {
		panic(err)
	}
	g, err := graph.Build(context.Background(), graph.FromSearcher(s), graph.Options{Roots: graph.RootsOf(f, 1)})
	if err != nil {
		panic(err)
	}
	fs, err := g.Check(context.Background(), graph.CheckOptions{ServerPackages: f.ServerPackages()})
	if err != nil {
		panic(err)
	}
	for _, fd := range fs {
		fmt.Printf("%s %s %s: %s\n", fd.Severity, fd.Kind, fd.Package, fd.Objects)
		fmt.Println("  chain:", fd.Chain)
	}
	// Engine has native code, and without Engine.dll or Engine.so to read
	// a class it does not export may still be one of its native classes.
	// Output:
	// error missing_package ModTextures: []
	//   chain: [Game.ini:4 ServerPackages=Mod Mod (System/Mod.u) ModTextures (missing)]
	// warning native_unknown Engine: [Engine.Hovercraft (Core.Class)]
	//   chain: [Game.ini:4 ServerPackages=Mod Mod (System/Mod.u) Engine (System/Engine.u)]
}
