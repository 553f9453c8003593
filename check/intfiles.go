package check

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/upkdeps/upkdeps/graph"
	"github.com/upkdeps/upkdeps/ini/intfile"
	"github.com/upkdeps/upkdeps/install"
	"github.com/upkdeps/upkdeps/internal/par"
)

// Finding kinds of the localisation files (package intfile).
const (
	IntServerPackage  graph.FindingKind = "int_server_package"
	IntMissingClass   graph.FindingKind = graph.FindingKind(intfile.MissingClass)
	IntWrongMetaClass graph.FindingKind = graph.FindingKind(intfile.WrongMetaClass)
	IntUnchecked      graph.FindingKind = graph.FindingKind(intfile.Unchecked)
	IntBadLine        graph.FindingKind = graph.FindingKind(intfile.BadLine)
	IntOrphan         graph.FindingKind = "int_orphan"
)

// IntFindings checks the install's localisation files (the ini folder's
// files with the language's extension, .int unless the ini sets another)
// and the ServerPackages entries that name one:
//
//   - int_server_package (error): a ServerPackages entry names a
//     localisation file. The server loads every entry as a package when it
//     builds the package map at start (UGameEngine::BuildServerMasterMap,
//     declared in the public UT v432 headers' Engine/Inc/UnGame.h; the
//     Beyond Unreal wiki's "Package map" page), with no fallback: a text
//     file is no package, and the log ends with "Server Package: X.int"
//     and a Critical error in BuildServerMasterMap.
//   - int_missing_class, int_wrong_metaclass, int_unchecked, int_bad_line
//     (warnings): what intfile.Checker finds in [Public] Object= lines.
//   - int_orphan (warning): a localisation file whose name no package
//     resolves to, and no program (.exe, .dll, .so) beside it has.
//
// Each finding names its line in Roots. Files that cannot be read are
// warned about through warn. The files are parsed on jobs goroutines
// (par.Jobs) and checked in name order.
func IntFindings(in *install.Install, jobs int, warn func(string)) []graph.Finding {
	var out []graph.Finding
	lang := in.Search.Language()
	if lang == "" {
		lang = "int"
	}
	for _, r := range in.Ini.References(in.Search.Generation()) {
		if !r.Is("ServerPackages") {
			continue
		}
		ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(r.Package)), ".")
		if ext != "int" && ext != strings.ToLower(lang) {
			continue
		}
		at := fmt.Sprintf("%s:%d %s=%s", filepath.Base(in.IniPath), r.Line, r.Key, r.Value)
		out = append(out, graph.Finding{Kind: IntServerPackage, Severity: graph.Error, Package: r.Package, Roots: []string{at},
			Message: fmt.Sprintf("%s names a localisation file, not a package: the server loads every ServerPackages entry as a package at start and stops (log: \"Server Package: %s\", then a Critical error in BuildServerMasterMap); remove the line (list the package %s instead, if the server needs it)",
				at, r.Package, strings.TrimSuffix(r.Package, filepath.Ext(r.Package)))})
	}
	dir := in.Search.Dir()
	entries, err := os.ReadDir(dir)
	if err != nil {
		warnf(warn, "warning: %s: %v: localisation files not checked", dir, err)
		return out
	}
	programs := map[string]bool{}
	var files []string
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		name := e.Name()
		ext := strings.ToLower(filepath.Ext(name))
		base := strings.ToLower(strings.TrimSuffix(name, filepath.Ext(name)))
		switch ext {
		case ".exe", ".dll", ".so":
			programs[base] = true
		case "." + strings.ToLower(lang):
			files = append(files, filepath.Join(dir, name))
		}
	}
	slices.Sort(files)
	c := intfile.NewChecker(func(pkg string) string { return in.Search.Find(pkg).File })
	defer c.Close()
	type loaded struct {
		f   *intfile.File
		err error
	}
	load := func(i int) loaded {
		f, err := intfile.Load(files[i])
		return loaded{f, err}
	}
	_ = par.Ordered(len(files), jobs, 0, load, func(i int, l loaded) error {
		path, f := files[i], l.f
		if l.err != nil {
			warnf(warn, "warning: %v: localisation file not checked", l.err)
			return nil
		}
		for _, p := range c.Check(f) {
			pkg := p.Package
			if pkg == "" {
				pkg = f.Package
			}
			out = append(out, graph.Finding{Kind: graph.FindingKind(p.Kind), Severity: graph.Warning, Package: pkg,
				Roots: []string{p.Evidence()}, Message: fmt.Sprintf("%s: %s", p.Evidence(), p.Message)})
		}
		if !in.Search.Find(f.Package).Found() && !programs[strings.ToLower(f.Package)] {
			rel := in.Search.Rel(path)
			out = append(out, graph.Finding{Kind: IntOrphan, Severity: graph.Warning, Package: f.Package, Roots: []string{rel},
				Message: fmt.Sprintf("%s localises package %s, but no package of that name resolves through Paths and no program of that name is beside it: a leftover of a removed mod (delete it), or its package is missing", rel, f.Package)})
		}
		return nil
	})
	return out
}
