package redirect_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/redirect"
	"github.com/upkdeps/upkdeps/search"
	"github.com/upkdeps/upkdeps/uz"
)

func ExampleDecompressFile() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	src := filepath.Join(dir, "Notes.txt")
	os.WriteFile(src, bytes.Repeat([]byte("Unreal "), 1000), 0o644)

	res, err := redirect.CompressFile(ctx, src, src+".uz", redirect.CompressOptions{Kind: uz.KindUZ})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(filepath.Base(res.Dst), res.Status, res.Size, "->", res.CompressedSize)

	out := filepath.Join(dir, "out")
	os.Mkdir(out, 0o755)
	res, err = redirect.DecompressFile(ctx, src+".uz", out, redirect.DecompressOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(filepath.Base(res.Dst), res.Status, res.Size)
	// Output:
	// Notes.txt.uz created 7000 -> 1198
	// Notes.txt created 7000
}

// ExampleBuild fills a redirect folder for a server install and checks it.
func ExampleBuild() {
	ctx := context.Background()
	cfg, err := ini.Load("/srv/ut99/System/UnrealTournament.ini")
	if err != nil {
		fmt.Println(err)
		return
	}
	s, _ := search.New(cfg, search.Options{})
	g, _ := graph.Build(ctx, graph.FromSearcher(s), graph.Options{Jobs: 4})
	m, _ := redirect.NewMap(g, redirect.MapOptions{ServerPackages: cfg.ServerPackages(), Generation: s.Generation()})
	rep, _ := redirect.Build(ctx, m, redirect.BuildOptions{Out: "/var/www/redirect", Jobs: 4})
	created, updated, kept, failed := rep.Counts()
	fmt.Println(created, updated, kept, failed)
	v, _ := redirect.Verify(ctx, m, redirect.VerifyOptions{Dir: "/var/www/redirect", Jobs: 4})
	for _, f := range v.Findings {
		fmt.Println(f.Severity, f.Kind, f.Message)
	}
}
