package check_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/upkdeps/upkdeps/check"
	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/install"
	"github.com/upkdeps/upkdeps/internal/demo"
)

// Example checks a small generated install (the demo: a UT99-like game
// with a missing package, a missing object and an EditPackages order
// error) and walks its typed findings.
func Example() {
	dir, err := os.MkdirTemp("", "upkdeps-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := demo.Write(dir); err != nil {
		log.Fatal(err)
	}
	in, err := install.Open(install.Options{Ini: filepath.Join(dir, demo.Ini)})
	if err != nil {
		log.Fatal(err)
	}
	rep, _, err := check.Run(context.Background(), in, check.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d packages, %d error(s), %d warning(s)\n", rep.PackagesScanned, rep.Summary.Errors, rep.Summary.Warnings)
	for _, f := range rep.Findings {
		if f.Severity != graph.Error {
			continue
		}
		fmt.Printf("%s %s %s\n", f.Severity, f.Kind, f.Package)
		if f.Kind == graph.MissingObject {
			for _, o := range f.Objects {
				fmt.Printf("  %s in %s, wanted as %s.%s (class: %v)\n", o.Path, o.Package, o.ClassPackage, o.Class, o.IsClass())
			}
		}
	}
	// Output:
	// 14 packages, 10 error(s), 13 warning(s)
	// error edit_order DemoGame
	// error missing_object Credits
	//   Theme in Credits, wanted as Engine.Music (class: false)
	// error missing_object DemoGame
	//   DemoTeamGame in DemoGame, wanted as Core.Class (class: true)
	// error missing_object DemoTex
	//   Walls.Marble in DemoTex, wanted as Engine.Texture (class: false)
	// error missing_package CityTex
	// error missing_package DemoExtras
	// error missing_package DemoStats
	// error missing_package DemoVoices
	// error server_side_only ServerAdmin
	// error unreadable Broken
}
