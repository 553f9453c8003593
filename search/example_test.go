package search_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/search"
)

// makeInstall writes a tiny UT99-style install: an ini and empty files.
func makeInstall(files ...string) (string, func()) {
	root, err := os.MkdirTemp("", "upkdeps-example-")
	if err != nil {
		panic(err)
	}
	for _, f := range append(files, "System/UnrealTournament.ini") {
		p := filepath.Join(root, filepath.FromSlash(f))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, nil, 0o644)
	}
	ini := "[Core.System]\nCachePath=..\\Cache\nCacheExt=.uxx\n" +
		"Paths=..\\System\\*.u\nPaths=..\\Textures\\*.utx\nPaths=..\\Music\\*.umx\n"
	os.WriteFile(filepath.Join(root, "System", "UnrealTournament.ini"), []byte(ini), 0o644)
	return filepath.Join(root, "System", "UnrealTournament.ini"), func() { os.RemoveAll(root) }
}

func ExampleSearcher_Find() {
	iniPath, cleanup := makeInstall("System/Core.u", "Textures/Credits.utx", "Music/Credits.umx")
	defer cleanup()
	cfg, err := ini.Load(iniPath)
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := search.New(cfg, search.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	r := s.Find("Credits")
	fmt.Println("file:", r.Rel)
	fmt.Println("tried:", r.Tried)
	fmt.Println("shadowed:", r.Shadowed)
	// Output:
	// file: Textures/Credits.utx
	// tried: [System/Credits System/Credits System/Credits.u Textures/Credits Textures/Credits.utx]
	// shadowed: [Music/Credits.umx]
}

func ExampleSearcher_Collisions() {
	iniPath, cleanup := makeInstall("System/Core.u", "Textures/Credits.utx", "Music/Credits.umx")
	defer cleanup()
	cfg, err := ini.Load(iniPath)
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := search.New(cfg, search.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range s.Collisions() {
		fmt.Println(c.Kind, c.Winner, c.Others)
	}
	// Output:
	// collision Textures/Credits.utx [Music/Credits.umx]
}
