package ini

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// KnownNames are the game inis Find looks for, in order. Default.ini, the
// template a game copies its ini from, comes last.
var KnownNames = []string{
	"UnrealTournament.ini",
	"UT2004.ini",
	"UT2003.ini",
	"Unreal.ini",
	"DeusEx.ini",
	"RuneServer.ini",
	"Rune.ini",
	"KillingFloor.ini",
	"Swat4.ini",
	"Swat4X.ini",
	"Swat4DedicatedServer.ini",
	"Swat4XDedicatedServer.ini",
	"System.ini", // SWRC
	"Default.ini",
}

// Locate returns the game ini that path names, as every command takes
// one: path itself when it is not a folder (a missing file is Load's to
// report); the ini Find finds in it when it is a game folder or its
// System folder; and the one Find finds in the working folder when path
// is "".
func Locate(path string) (string, error) {
	if path == "" {
		return Find(".")
	}
	if st, err := os.Stat(path); err != nil || !st.IsDir() {
		return path, nil
	}
	found, err := Find(path)
	if err != nil {
		return "", fmt.Errorf("%s is a folder: %w", path, err)
	}
	return found, nil
}

// Find returns the path of the game ini for an installation: for each of
// KnownNames in order, dir/Name and then dir/System/Name. Names match
// ignoring case (a Linux server may hold unrealtournament.ini); an exact
// spelling is preferred. When none exists the error is a *NotFoundError
// listing every path tried (errors.Is(err, ErrNotFound)).
func Find(dir string) (string, error) {
	dirs := []string{dir, filepath.Join(dir, "System")}
	listings := make([]map[string]string, len(dirs))
	for i, d := range dirs {
		listings[i] = listIni(d)
	}
	var tried []string
	for _, name := range KnownNames {
		for i, d := range dirs {
			tried = append(tried, filepath.Join(d, name))
			if actual, ok := listings[i][strings.ToLower(name)]; ok {
				return filepath.Join(d, actual), nil
			}
		}
	}
	return "", &NotFoundError{Dir: dir, Tried: tried}
}

// listIni maps the lower-cased names of the regular files (or links to them)
// in dir to their spelling, preferring the spelling in KnownNames when
// several files differ only in case. A missing folder lists nothing.
func listIni(dir string) map[string]string {
	out := make(map[string]string)
	entries, err := os.ReadDir(dir) // sorted by name: the choice is stable
	if err != nil {
		return out
	}
	known := make(map[string]string, len(KnownNames))
	for _, n := range KnownNames {
		known[strings.ToLower(n)] = n
	}
	for _, e := range entries {
		lower := strings.ToLower(e.Name())
		want, isKnown := known[lower]
		if !isKnown {
			continue
		}
		if prev, ok := out[lower]; ok && prev == want {
			continue
		}
		if !e.Type().IsRegular() {
			st, err := os.Stat(filepath.Join(dir, e.Name()))
			if err != nil || !st.Mode().IsRegular() {
				continue
			}
		}
		if _, ok := out[lower]; !ok || e.Name() == want {
			out[lower] = e.Name()
		}
	}
	return out
}
