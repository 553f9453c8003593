package ini

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/internal/testutil"
)

// install writes empty files (and folders, for names ending in "/") under a
// new temporary folder and returns it.
func install(t *testing.T, files ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if f[len(f)-1] == '/' {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestFind(t *testing.T) {
	tests := []struct {
		name  string
		files []string
		want  string // relative to the install
	}{
		{"in the folder", []string{"UnrealTournament.ini", "User.ini"}, "UnrealTournament.ini"},
		{"in System", []string{"System/UT2004.ini", "Maps/"}, "System/UT2004.ini"},
		{"game ini before Default.ini", []string{"Default.ini", "System/DeusEx.ini"}, "System/DeusEx.ini"},
		{"Default.ini last", []string{"System/Default.ini", "System/User.ini"}, "System/Default.ini"},
		{"the folder before System for the same name", []string{"Unreal.ini", "System/Unreal.ini"}, "Unreal.ini"},
		{"RuneServer.ini before Rune.ini", []string{"System/Rune.ini", "System/RuneServer.ini"}, "System/RuneServer.ini"},
		{"case-insensitive match", []string{"System/unrealtournament.INI"}, "System/unrealtournament.INI"},
		{"exact spelling preferred", []string{"System/DEFAULT.INI", "System/Default.ini"}, "System/Default.ini"},
		{"SWAT 4", []string{"System/Swat4.ini", "System/Swat4DedicatedServer.ini"}, "System/Swat4.ini"},
		{"a folder named like an ini is skipped", []string{"UnrealTournament.ini/", "System/KillingFloor.ini"}, "System/KillingFloor.ini"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "exact spelling preferred" {
				testutil.SkipCaseInsensitive(t, t.TempDir(), "System/DEFAULT.INI beside System/Default.ini")
			}
			dir := install(t, tt.files...)
			have, err := Find(dir)
			if err != nil {
				t.Fatalf("Find: %v", err)
			}
			if want := filepath.Join(dir, filepath.FromSlash(tt.want)); have != want {
				t.Errorf("Find: have %s, want %s", have, want)
			}
		})
	}
}

func TestFindSymlink(t *testing.T) {
	dir := install(t, "real/UT2004.ini", "System/")
	if err := os.Symlink(filepath.Join(dir, "real", "UT2004.ini"), filepath.Join(dir, "System", "UT2004.ini")); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "System", "UT2004.ini")); err != nil {
		// wine 8's CreateSymbolicLinkW reports success and makes nothing.
		t.Skipf("the symbolic link was reported made but is not there: %v", err)
	}
	if have, err := Find(dir); err != nil || have != filepath.Join(dir, "System", "UT2004.ini") {
		t.Errorf("Find through a symlink: have %q, %v", have, err)
	}
}

func TestFindNotFound(t *testing.T) {
	dir := install(t, "System/User.ini", "System/Core.u")
	_, err := Find(dir)
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("Find: have %v, want ErrNotFound", err)
	}
	var nf *NotFoundError
	if !errors.As(err, &nf) {
		t.Fatalf("Find: error is %T, want *NotFoundError", err)
	}
	var want []string
	for _, name := range KnownNames {
		want = append(want, filepath.Join(dir, name), filepath.Join(dir, "System", name))
	}
	if !slices.Equal(nf.Tried, want) || nf.Dir != dir {
		t.Errorf("Tried:\nhave %q\nwant %q", nf.Tried, want)
	}
	if len(want) != 2*len(KnownNames) || want[len(want)-1] != filepath.Join(dir, "System", "Default.ini") {
		t.Errorf("Default.ini is not the last path tried: %q", want)
	}
	msg := err.Error()
	for _, p := range want {
		if !strings.Contains(msg, p) {
			t.Errorf("message does not list %s: %s", p, msg)
		}
	}
	if _, err := Find(filepath.Join(dir, "missing")); !errors.Is(err, ErrNotFound) {
		t.Errorf("Find of a missing folder: have %v, want ErrNotFound", err)
	}
}

func TestKnownNames(t *testing.T) {
	if KnownNames[len(KnownNames)-1] != "Default.ini" || KnownNames[0] != "UnrealTournament.ini" {
		t.Errorf("KnownNames: have %q, want UnrealTournament.ini first and Default.ini last", KnownNames)
	}
	for _, n := range KnownNames[:len(KnownNames)-1] {
		if f := mustParse(t, n, nil); !GuessGame(f).Known() {
			t.Errorf("GuessGame(%s) does not know the game", n)
		}
	}
}

// TestLocate: a file is itself (missing or not), a game folder or its
// System folder is the ini Find finds there, a folder without one is an
// error naming the folder and what was tried.
func TestLocate(t *testing.T) {
	dir := install(t, "System/UnrealTournament.ini", "Maps/")
	want := filepath.Join(dir, "System", "UnrealTournament.ini")
	for _, path := range []string{dir, filepath.Join(dir, "System"), want} {
		if have, err := Locate(path); err != nil || have != want {
			t.Errorf("Locate(%s) = %s, %v; want %s", path, have, err, want)
		}
	}
	missing := filepath.Join(dir, "System", "Nope.ini")
	if have, err := Locate(missing); err != nil || have != missing {
		t.Errorf("Locate(%s) = %s, %v; want it unchanged", missing, have, err)
	}
	maps := filepath.Join(dir, "Maps")
	_, err := Locate(maps)
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), maps+" is a folder") {
		t.Errorf("Locate(%s): %v, want ErrNotFound naming the folder", maps, err)
	}
}
