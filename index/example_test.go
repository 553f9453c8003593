package index_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/index"
)

// Index a folder, then find a package by object and plan copying it.
func Example() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "index-example")
	defer os.RemoveAll(dir)
	b := format.NewBuilder(69, 0)
	b.File.GUID = format.GUID{1, 2, 3, 4}
	b.ImportSpec("Needed.Thing:Core.Class")
	b.ExportSpec("Skins.Red:Engine.Texture", 16)
	os.MkdirAll(filepath.Join(dir, "collection"), 0o755)
	format.WriteFile(filepath.Join(dir, "collection", "ModA.u"), b.File)

	db, err := index.Open(filepath.Join(dir, "index.db"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer db.Close()
	res, _ := db.Add(ctx, filepath.Join(dir, "collection"), index.AddOptions{})
	fmt.Println("packages:", res.Packages)
	copies, _ := db.Find(ctx, index.Query{Name: "moda", Object: "Skins.Red"})
	for _, c := range copies {
		fmt.Println(c.FileName, c.GUID, c.ObjectClass)
	}
	// The install has the stock packages; it lacks ModA.
	installed := func(name string) bool { return name == "Core" || name == "Engine" }
	plan, _ := db.Plan(ctx, []index.Need{{Name: "ModA", NeededBy: []string{"DM-Map"}}}, index.PlanOptions{Installed: installed})
	for _, s := range plan.Steps {
		fmt.Println("copy", s.Copy.FileName, "for", s.NeededBy)
	}
	for _, u := range plan.Unresolved {
		fmt.Println("lacking", u.Name, "for", u.NeededBy, "-", u.Reason)
	}
	// Output:
	// packages: 1
	// ModA.u 00000001000000020000000300000004 Texture
	// copy ModA.u for [DM-Map]
	// lacking Needed for [ModA] - not in the index
}
