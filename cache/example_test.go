package cache_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/upkdeps/upkdeps/cache"
	"github.com/upkdeps/upkdeps/format"
)

// A cache folder with one download, extracted into a folder of our choice
// (with an ini, ExtractOptions.Paths picks the folder the engine would).
func Example() {
	root, err := os.MkdirTemp("", "cache-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(root)
	dir := filepath.Join(root, "Cache")
	os.Mkdir(dir, 0o755)
	b := format.NewBuilder(69, 0)
	b.File.GUID = format.GUID{0x9316A7AB, 0x4CE79C18, 0x7AC291AF, 0x8F8FD8D7}
	format.WriteFile(filepath.Join(dir, b.File.GUID.String()+".uxx"), b.File)
	os.WriteFile(filepath.Join(dir, "cache.ini"), []byte("[Cache]\n"+b.File.GUID.String()+"=Nexgen112.u\n"), 0o644)

	c, err := cache.Open(context.Background(), dir, cache.Options{})
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range c.Entries() {
		fmt.Println(e.Name, e.GUID, e.State)
	}
	plan := c.PlanExtract(cache.ExtractOptions{To: filepath.Join(root, "System")})
	rel := func(p string) string { r, _ := filepath.Rel(root, p); return filepath.ToSlash(r) }
	if err := plan.Run(context.Background(), func(a cache.Action) { fmt.Println(a.Format(rel)) }); err != nil {
		log.Fatal(err)
	}
	// Output:
	// Nexgen112.u 9316A7AB4CE79C187AC291AF8F8FD8D7 ok
	// mkdir    System
	// copy     Cache/9316A7AB4CE79C187AC291AF8F8FD8D7.uxx -> System/Nexgen112.u
	// remove   Cache/9316A7AB4CE79C187AC291AF8F8FD8D7.uxx (moved to the install)
	// ini      Cache/cache.ini: 9316A7AB4CE79C187AC291AF8F8FD8D7= (was Nexgen112.u: moved into the install)
}
