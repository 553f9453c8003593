package ini

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/upkdeps/upkdeps/internal/testutil"
)

func TestGameBuild(t *testing.T) {
	for _, tc := range []struct {
		file, text string
		want       int
	}{
		{"Manifest.ini", "[Setup]\nProduct=UnrealTournament\nVersion=436\n", 436},
		{"manifest.ini", "[Setup]\nVersion=436\n[UnrealTournament]\nVersion=469c\n", 469},
		{"Manifest.ini", "[Setup]\nVersion=beta\n", 0},
		{"Other.ini", "[Setup]\nVersion=451\n", 0},
		// A mod's section, with its own numbering, is not the game's.
		{"Manifest.ini", "[Setup]\nProduct=UnrealTournament\nVersion=451\n[UDemo]\nVersion=3500\n", 451},
		{"Manifest.ini", "[Setup]\nMasterProduct=Game\n[Game]\nVersion=226b\n[SomeMod]\nVersion=1000\n", 226},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, tc.file), []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if have := GameBuild(dir); have != tc.want {
			t.Errorf("%s %q: have %d, want %d", tc.file, tc.text, have, tc.want)
		}
	}
	corpus, ok := testutil.CorpusDir()
	if !ok {
		t.Skip("corpus not present")
	}
	for dir, want := range map[string]int{"adrak0__ut99/System": 469, "nrempel__ut-server/System": 436} {
		if have := GameBuild(filepath.Join(corpus, filepath.FromSlash(dir))); have != want {
			t.Errorf("%s: have %d, want %d", dir, have, want)
		}
	}
}
