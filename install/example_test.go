package install_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/upkdeps/upkdeps/check"
	"github.com/upkdeps/upkdeps/install"
	"github.com/upkdeps/upkdeps/internal/demo"
)

// Example opens a game install from its folder, checks it and prints the
// packages it misses, with what needs each: a library user needs the
// install and check packages alone. The install is the demo the project
// generates (a UT99-like game), its ini named as UT99's is, so that Open
// finds it in the folder.
func Example() {
	dir, err := os.MkdirTemp("", "upkdeps-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := demo.Write(dir); err != nil {
		log.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, demo.Ini), filepath.Join(dir, "System", "UnrealTournament.ini")); err != nil {
		log.Fatal(err)
	}

	in, err := install.Open(install.Options{Ini: dir})
	if err != nil {
		log.Fatal(err)
	}
	rep, _, err := check.Run(context.Background(), in, check.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %d packages, %d error(s)\n", filepath.Base(in.IniPath), rep.PackagesScanned, rep.Summary.Errors)
	for _, f := range rep.MissingPackages() {
		fmt.Printf("%s: %s is missing, needed by %s\n", f.Severity, f.Package, strings.Join(slices.Concat(f.Roots, f.NeededBy), "; "))
	}
	// Output:
	// UnrealTournament.ini: 14 packages, 10 error(s)
	// error: CityTex is missing, needed by DM-Demo; DM-Second
	// error: DemoExtras is missing, needed by DemoGame
	// error: DemoStats is missing, needed by UnrealTournament.ini:27 ServerActors=DemoStats.StatsUplink Interval=60
	// error: DemoVoices is missing, needed by UnrealTournament.ini:25 ServerPackages=DemoVoices
	// warning: DemoMenu is missing, needed by UnrealTournament.ini:7 Console=DemoMenu.DemoConsole
}
