package ini

import (
	"os"
	"path/filepath"
	"strings"
)

// GameBuild returns the game's build as the Manifest.ini in dir (the
// System folder) says: the highest number a section's Version key starts
// with (UT99 retail "[Setup] Version=436", OldUnreal's patch
// "[UnrealTournament] Version=469c" gives 469). It is 0 when dir has no
// Manifest.ini (any case), it cannot be read, or no Version is a number:
// the build is then unknown.
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
	best := 0
	for _, sec := range f.Sections() {
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
