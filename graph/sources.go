package graph

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/upkdeps/upkdeps/native"
	"github.com/upkdeps/upkdeps/uscript"
)

// Sources is what the UnrealScript sources of EditPackages say: the
// scanned packages and their dependencies, for CheckEditPackages and Check.
type Sources struct {
	Root     string                // the game root the packages were found under
	Packages []*uscript.Package    // one per EditPackages entry, in list order
	deps     map[string][]OrderDep // by lower-cased package name, only for packages with sources
}

// ScanSources reads <gameRoot>/<Pkg>/Classes/*.uc (and the .upkg) of every
// EditPackages entry and resolves their cross-package references through a
// class index of the compiled packages in the graph and the sources, built
// in EditPackages order, and of the native classes of nat (nil: the
// built-in tables): a class only native code defines exists before any
// package is built and makes no dependency. Entries without sources get no
// source dependencies: their compiled imports stand in.
func (gr *Graph) ScanSources(gameRoot string, edit []string, nat *native.Set) (*Sources, error) {
	src := &Sources{Root: gameRoot, deps: map[string][]OrderDep{}}
	idx := uscript.NewIndex(nil)
	if nat == nil {
		nat = BuiltinNatives()
	}
	for _, pkg := range nat.Packages() {
		classes, _, _ := nat.Classes(pkg)
		idx.AddNative(pkg, classes)
	}
	for _, n := range edit {
		sp, err := uscript.ScanPackage(gameRoot, n)
		if err != nil {
			return nil, err
		}
		src.Packages = append(src.Packages, sp)
		if p := gr.Package(n); p != nil && p.scan != nil {
			idx.AddCompiled(n, p.scan.classes)
		}
		if sp.HasSources {
			idx.AddSource(sp)
		}
	}
	for _, p := range gr.pkgs {
		if p.Kind == KindCode && p.scan != nil {
			idx.AddCompiled(p.Name, p.scan.classes)
		}
	}
	for _, sp := range src.Packages {
		if !sp.HasSources {
			continue
		}
		var deps []OrderDep
		for _, d := range idx.Dependencies(sp) {
			ev := d.Evidence[0]
			deps = append(deps, OrderDep{Package: sp.Name, On: d.Package, Source: "source",
				Evidence: fmt.Sprintf("%s:%d: %s", src.rel(ev.File), ev.Line, ev.Text)})
		}
		src.deps[lower(sp.Name)] = deps
	}
	return src, nil
}

func (s *Sources) rel(file string) string {
	if r, err := filepath.Rel(s.Root, file); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(file)
}

// Deps is the SourceDeps function of s (nil-safe).
func (s *Sources) Deps() SourceDeps {
	if s == nil {
		return nil
	}
	return func(pkg string) ([]OrderDep, bool) {
		deps, ok := s.deps[lower(pkg)]
		return deps, ok
	}
}

// noteUnbuilt rewrites the message of each missing_package and
// missing_object about a package with no file but with UnrealScript
// sources among the EditPackages (a package not compiled yet): what to do
// comes first, the finding's own details after.
func (gr *Graph) noteUnbuilt(fs []Finding, s *Sources) {
	if s == nil {
		return
	}
	unbuilt := map[string]*uscript.Package{}
	for _, sp := range s.Packages {
		if p := gr.Package(sp.Name); sp.HasSources && (p == nil || p.Missing()) {
			unbuilt[lower(sp.Name)] = sp
		}
	}
	for i := range fs {
		f := &fs[i]
		sp := unbuilt[lower(f.Package)]
		if sp == nil || (f.Kind != MissingPackage && f.Kind != MissingObject) {
			continue
		}
		f.Message = fmt.Sprintf("%s has sources (%s, %d class(es)) but no compiled package: run ucc make; until then %s",
			f.Package, s.rel(sp.ClassesDir), len(sp.Classes), f.Message)
	}
}

// HasAny reports whether any EditPackages entry has sources.
func (s *Sources) HasAny() bool { return s != nil && len(s.deps) > 0 }

// upkgFindings warns about packages that ucc make will build
// ServerSideOnly (their .upkg says so) although clients load them.
func (gr *Graph) upkgFindings(s *Sources, serverPackages []string) []Finding {
	if s == nil {
		return nil
	}
	client := map[string]bool{}
	for _, p := range gr.ClientPackages(serverPackages) {
		client[lower(p.Name)] = true
	}
	for _, n := range serverPackages {
		client[lower(n)] = true
	}
	var out []Finding
	for _, sp := range s.Packages {
		if !sp.HasUpkg || !sp.Flags.ServerSideOnly || !client[lower(sp.Name)] || isRetail(sp.Name) {
			continue
		}
		out = append(out, Finding{Kind: ServerSideOnly, Severity: Warning, Package: sp.Name,
			Packages: []string{sp.Name},
			Message: fmt.Sprintf("%s will be built ServerSideOnly (its %s.upkg says so), but clients load it: they will never be sent it",
				sp.Name, sp.Name)})
	}
	return out
}

// pkg returns the scanned entry named n (nil-safe; nil when there is none).
func (s *Sources) pkg(n string) *uscript.Package {
	if s == nil {
		return nil
	}
	for _, sp := range s.Packages {
		if strings.EqualFold(sp.Name, n) {
			return sp
		}
	}
	return nil
}
