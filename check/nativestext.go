package check

import (
	"io"
	"strings"

	"github.com/upkdeps/upkdeps/internal/textw"
	"github.com/upkdeps/upkdeps/native"
	"github.com/upkdeps/upkdeps/search"
)

// WriteText writes the report as natives prints it without --json: each
// package with native classes, where they come from, which are native
// only and which its package also exports, then the ignored sources.
func (rep Natives) WriteText(w io.Writer) error {
	bw := &textw.Writer{W: w}
	bw.Printf("upkdeps natives: %s (%s; %s)\n", rep.Ini, rep.Game, search.Platform(rep.Platform).RulesLabel())
	bw.Printf("%d package(s) with native code, %d from the install's binaries\n", len(rep.Packages), rep.BinariesRead)
	for _, p := range rep.Packages {
		from := "built-in table " + p.Source.Table
		if p.Source.Kind == native.SourceBinary {
			from = p.Source.Path
		}
		file := "no package file"
		if p.File != "" {
			file = p.File
		}
		bw.Printf("\n%s: %d class(es) from %s; %s\n", p.Package, len(p.Classes), from, file)
		if len(p.NativeOnly) > 0 {
			bw.Printf("  native only (%d): %s\n", len(p.NativeOnly), strings.Join(p.NativeOnly, " "))
		}
		if len(p.Scripted) > 0 {
			bw.Printf("  also exported (%d): %s\n", len(p.Scripted), strings.Join(p.Scripted, " "))
		}
	}
	for i, s := range rep.Ignored {
		bw.Printf("\nignored: %s (the package's classes come from %s, found first)\n", s, rep.IgnoredFor[i])
	}
	return bw.Err
}
