package main

import (
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/native"
)

func newNativesCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "natives [--ini INI] [--json]",
		Short: "List the native classes of each package: from the install's .dll/.so files, else the game's built-in table",
		Long: `natives lists, per package, the classes its native code registers (IMPLEMENT_CLASS leaves
an autoclass symbol in Core.dll, Engine.so, a mod's Foo.dll), where that list came from (a
binary of the install, in the ini's folder or a folder of .u Paths, or the built-in table of
the game's binaries when the install has none), and which of those classes the package's
file also exports; the others are native-only, as check and order treat them.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			in, g, err := a.openGraph(cmd.Context())
			if err != nil {
				return err
			}
			nat, err := a.loadNatives(in)
			if err != nil {
				return err
			}
			rep := nativesReport{SchemaVersion: 1, Ini: in.IniPath, Game: in.GameLabel(), Platform: string(in.Platform()), Packages: []nativePackage{}, Ignored: []string{}}
			for _, name := range nat.Packages() {
				classes, src, _ := nat.Classes(name)
				np := nativePackage{Package: name, Classes: classes, NativeOnly: []string{}, Scripted: []string{},
					Source: nativeSource{Kind: src.Kind, Table: src.Table}}
				if src.Path != "" {
					np.Source.Path = in.Search.Rel(src.Path)
				}
				var defines func(class string) bool // the package file's classes; nil: no file
				if p := g.Package(name); p != nil && !p.Missing() {
					np.File = p.Rel
					exported := map[string]bool{}
					for _, c := range p.Classes() {
						exported[strings.ToLower(c)] = true
					}
					defines = func(class string) bool { return exported[strings.ToLower(class)] }
				}
				for _, c := range classes {
					if native.Only(nat, name, c, defines) {
						np.NativeOnly = append(np.NativeOnly, c)
					} else {
						np.Scripted = append(np.Scripted, c)
					}
				}
				if src.Kind == native.SourceBinary {
					rep.BinariesRead++
				}
				rep.Packages = append(rep.Packages, np)
			}
			for _, s := range nat.Ignored() {
				rep.Ignored = append(rep.Ignored, in.Search.Rel(s.Path))
				rep.ignoredFor = append(rep.ignoredFor, in.Search.Rel(s.UsedInstead))
			}
			return a.emit(cmd.OutOrStdout(), rep, func(w io.Writer) error { return writeNativesText(w, rep) }, false)
		},
	}
	cmd.Flags().Bool("json", false, "print the report as JSON")
	return cmd
}

// nativesReport is the output of `natives`; its JSON form is documented in
// docs/json.md.
type nativesReport struct {
	SchemaVersion int             `json:"schema_version"`
	Ini           string          `json:"ini"`
	Game          string          `json:"game"`
	Platform      string          `json:"platform"`
	BinariesRead  int             `json:"binaries_read"`
	Packages      []nativePackage `json:"packages"`
	Ignored       []string        `json:"ignored_binaries"`
	ignoredFor    []string        // the binary used instead of each of Ignored
}

type nativePackage struct {
	Package    string       `json:"package"`
	File       string       `json:"file,omitempty"` // the package file, when one resolves
	Source     nativeSource `json:"source"`
	Classes    []string     `json:"classes"`
	NativeOnly []string     `json:"native_only"`
	Scripted   []string     `json:"scripted"`
}

type nativeSource struct {
	Kind  string `json:"kind"`            // "binary" or "table"
	Path  string `json:"path,omitempty"`  // the binary, relative to the game root
	Table string `json:"table,omitempty"` // the built-in table's name
}

func writeNativesText(w io.Writer, rep nativesReport) error {
	bw := &errWriter{w: w}
	bw.printf("upkdeps natives: %s (%s; %s)\n", rep.Ini, rep.Game, rulesLabel(rep.Platform))
	bw.printf("%d package(s) with native code, %d from the install's binaries\n", len(rep.Packages), rep.BinariesRead)
	for _, p := range rep.Packages {
		from := "built-in table " + p.Source.Table
		if p.Source.Kind == native.SourceBinary {
			from = p.Source.Path
		}
		file := "no package file"
		if p.File != "" {
			file = p.File
		}
		bw.printf("\n%s: %d class(es) from %s; %s\n", p.Package, len(p.Classes), from, file)
		if len(p.NativeOnly) > 0 {
			bw.printf("  native only (%d): %s\n", len(p.NativeOnly), strings.Join(p.NativeOnly, " "))
		}
		if len(p.Scripted) > 0 {
			bw.printf("  also exported (%d): %s\n", len(p.Scripted), strings.Join(p.Scripted, " "))
		}
	}
	for i, s := range rep.Ignored {
		bw.printf("\nignored: %s (the package's classes come from %s, found first)\n", s, rep.ignoredFor[i])
	}
	return bw.err
}
