package ini

import (
	"os"
	"path/filepath"
	"strings"
)

// GameBuild returns the game's build as the Manifest.ini in dir (the
// System folder) says: the highest number a Version key of the game's own
// sections starts with (UT99 retail "[Setup] Version=436", OldUnreal's
// patch "[UnrealTournament] Version=469c" gives 469). The game's sections
// are [Setup], those its Product= and MasterProduct= name, and
// [UnrealTournament]; a mod's section (a umod adds its own, with its own
// Version numbering) does not count. It is 0 when dir has no Manifest.ini
// (any case), it cannot be read, or no such Version is a number: the build
// is then unknown.
func GameBuild(dir string) int {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	name := ""
	for _, e := range ents {
		if !e.IsDir() && strings.EqualFold(e.Name(), "Manifest.ini") && (name == "" || e.Name() == "Manifest.ini") {
			name = e.Name()
		}
	}
	if name == "" {
		return 0
	}
	f, err := Load(filepath.Join(dir, name))
	if err != nil {
		return 0
	}
	own := []string{"Setup", "UnrealTournament"}
	own = append(own, f.Values("Setup", "Product")...)
	own = append(own, f.Values("Setup", "MasterProduct")...)
	best := 0
	for _, sec := range f.Sections() {
		if !containsFold(own, sec) {
			continue
		}
		for _, v := range f.Values(sec, "Version") {
			n := 0
			for i := 0; i < len(v) && i < 9 && v[i] >= '0' && v[i] <= '9'; i++ {
				n = n*10 + int(v[i]-'0')
			}
			best = max(best, n)
		}
	}
	return best
}
