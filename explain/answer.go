package explain

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/upkdeps/upkdeps/format"
)

func (e *explainer) rel(file string) string { return e.opt.Install.Rel(file) }

// header reads the GUID and generation count of a package file.
func header(file string) (format.GUID, int, error) {
	f, err := format.Open(file)
	if err != nil {
		return format.GUID{}, 0, err
	}
	defer f.Close()
	return f.Header.GUID, len(f.Header.Generations), nil
}

// indexHint names the index's copies of pkg, or "".
func (e *explainer) indexHint(pkg, guid string) string {
	if e.opt.Index == nil {
		return ""
	}
	cs := e.opt.Index(e.ctx, pkg, guid)
	if len(cs) == 0 {
		return "; the index has no copy"
	}
	if len(cs) > 3 {
		cs = append(cs[:3:3], fmt.Sprintf("%d more", len(cs)-3))
	}
	return "; the index has: " + strings.Join(cs, ", ")
}

// deleteAdvice says which client file to remove for pkg.
func (e *explainer) deleteAdvice(pkg, guid string) string {
	if e.opt.Install != nil {
		if f := e.opt.Install.Find(pkg); f != "" {
			return fmt.Sprintf("delete %s from the client (and the cache.ini line of %s in its Cache folder, if any) so that it downloads the server's version", e.rel(f), pkg)
		}
	}
	return fmt.Sprintf("delete the client's installed %s (System, Maps, ... folder) and the cache.ini line naming it in the Cache folder, so that it downloads the server's version", pkg)
}

func (e *explainer) packageMap(l *Line) {
	l.What = fmt.Sprintf("the server's package map lists %s, GUID %s, generation %d", l.Package, l.GUID, l.Gen)
	if e.opt.Install == nil {
		return
	}
	guid, err := format.ParseGUID(l.GUID)
	if err != nil {
		l.Why = fmt.Sprintf("the GUID does not parse (%v): not looked up", err)
		return
	}
	file := e.opt.Install.FindGUID(l.Package, guid, l.Gen)
	if file == "" {
		l.What += "; this install has no copy: a client like it downloads one (the server must allow it: AllowDownload, a redirect)"
		return
	}
	g, gens, err := header(file)
	switch {
	case err != nil:
		l.Problem = true
		l.Why = fmt.Sprintf("this install's %s cannot be read: %v", e.rel(file), err)
		l.Fix = fmt.Sprintf("delete %s so that the client downloads the server's copy", e.rel(file))
	case g != guid:
		l.Problem = true
		l.Why = fmt.Sprintf("this install resolves %s to %s, GUID %s: another version; loading it fails with \"Package %s version mismatch\"", l.Package, e.rel(file), g, l.Package)
		l.Fix = e.deleteAdvice(l.Package, l.GUID)
	case e.opt.Install.Generation() == 2 && gens < l.Gen:
		l.Problem = true
		l.Why = fmt.Sprintf("this install's %s has the GUID but %d generation(s) of the server's %d: objects of the later generations do not replicate", e.rel(file), gens, l.Gen)
		l.Fix = fmt.Sprintf("replace %s with the server's copy", e.rel(file))
	default:
		l.What += fmt.Sprintf("; this install has it: %s", e.rel(file))
	}
}

func (e *explainer) serverPackage(l *Line) {
	ext := strings.ToLower(filepath.Ext(l.Package))
	if ext == ".int" {
		l.Problem = true
		l.What = fmt.Sprintf("the server loads %s as a package of its package map", l.Package)
		l.Why = "a ServerPackages entry names a localisation file; it is no package, and the server stops at start (a Critical error in BuildServerMasterMap follows)"
		l.Fix = fmt.Sprintf("remove ServerPackages=%s from the ini (list %s instead if the server needs the package)", l.Package, strings.TrimSuffix(l.Package, filepath.Ext(l.Package)))
		return
	}
	l.What = fmt.Sprintf("the server adds %s (a ServerPackages entry) to its package map", l.Package)
	if e.opt.Install == nil {
		return
	}
	if f := e.opt.Install.Find(l.Package); f != "" {
		l.What += fmt.Sprintf("; this install resolves it to %s", e.rel(f))
		return
	}
	l.Problem = true
	l.Why = fmt.Sprintf("no file of this install resolves %s: the server stops at start", l.Package)
	l.Fix = fmt.Sprintf("install %s or remove its ServerPackages line%s", l.Package, e.indexHint(l.Package, ""))
}

func (e *explainer) mismatch(l *Line) {
	l.What = fmt.Sprintf("the client's copy of %s is another version (GUID) than the server's", l.Package)
	l.Why = "a package changed without a rename: the client has the old or a different copy installed or cached, or loaded earlier in this session"
	if e.opt.Install != nil {
		if f := e.opt.Install.Find(l.Package); f != "" {
			if g, _, err := header(f); err == nil {
				l.Why += fmt.Sprintf("; this install's copy is %s, GUID %s", e.rel(f), g)
			}
		} else {
			l.Why += "; this install has none installed (its cache may hold one)"
		}
	}
	l.Fix = e.deleteAdvice(l.Package, "") + "; if it persists, restart the game (a copy already loaded stays)"
}

// exports reports whether the package file exports path (any case).
func exports(file, path string) (bool, error) {
	f, err := format.Open(file)
	if err != nil {
		return false, err
	}
	defer f.Close()
	for i := range f.Exports {
		if strings.EqualFold(strings.Join(f.GroupPath(format.ExportRef(i)), "."), path) {
			return true, nil
		}
	}
	return false, nil
}

func (e *explainer) failedImport(l *Line, file, loading string) {
	importer := "a package that imports it"
	if loading != "" {
		importer = loading
	}
	l.What = fmt.Sprintf("%s needs %s %s.%s, which the engine did not find in %s (%s)", importer, l.Class, l.Package, l.Object, l.Package, file)
	l.Why = fmt.Sprintf("%s was built against another version of %s", importer, l.Package)
	l.Fix = fmt.Sprintf("install the %s that %s was built against, or rebuild %s against the installed one", l.Package, importer, importer)
	if e.opt.Install == nil {
		return
	}
	f := e.opt.Install.Find(l.Package)
	if f == "" {
		l.Why = fmt.Sprintf("%s does not resolve in this install", l.Package)
		l.Fix = fmt.Sprintf("install %s%s", l.Package, e.indexHint(l.Package, ""))
		return
	}
	has, err := exports(f, l.Object)
	switch {
	case err != nil:
		l.Why = fmt.Sprintf("this install's %s cannot be read: %v", e.rel(f), err)
	case has:
		l.Why = fmt.Sprintf("this install's %s exports %s: the machine that logged this has another %s (compare their GUIDs with upkdeps info)", e.rel(f), l.Object, l.Package)
		l.Fix = fmt.Sprintf("give that machine this install's %s", e.rel(f))
	default:
		l.Why = fmt.Sprintf("this install's %s does not export %s either: %s was built against another version of %s", e.rel(f), l.Object, importer, l.Package)
		l.Fix += e.indexHint(l.Package, "")
	}
}

func (e *explainer) missingObject(l *Line) {
	l.What = fmt.Sprintf("%s %s.%s is not in %s", l.Class, l.Package, l.Object, l.Package)
	l.Why = fmt.Sprintf("the installed %s is another version than the one the code or map naming the object expects", l.Package)
	l.Fix = fmt.Sprintf("install the %s that exports %s", l.Package, l.Object)
	if e.opt.Install == nil {
		return
	}
	f := e.opt.Install.Find(l.Package)
	if f == "" {
		l.Why = fmt.Sprintf("%s does not resolve in this install", l.Package)
		l.Fix = fmt.Sprintf("install %s%s", l.Package, e.indexHint(l.Package, ""))
		return
	}
	if has, err := exports(f, l.Object); err == nil && has {
		l.Why = fmt.Sprintf("this install's %s exports it: the machine that logged this has another %s", e.rel(f), l.Package)
		l.Fix = fmt.Sprintf("give that machine this install's %s", e.rel(f))
	} else if err == nil {
		l.Why = fmt.Sprintf("this install's %s does not export %s either", e.rel(f), l.Object)
		l.Fix += e.indexHint(l.Package, "")
	}
}

func (e *explainer) cantFind(l *Line) {
	l.What = fmt.Sprintf("no file resolves for package %s where the engine looked (Paths, and the download cache for a server's package)", l.Package)
	if l.Object != "" {
		l.What = fmt.Sprintf("%s %s.%s was asked for; %s", l.Class, l.Package, l.Object, l.What)
	}
	l.Why = fmt.Sprintf("%s is not installed, or (on a client) could not be downloaded: the server does not allow it (no AllowDownload flag) or its redirect lacks the file", l.Package)
	l.Fix = fmt.Sprintf("install %s; on a server, make sure clients can download it (upkdeps redirect verify)", l.Package)
	if e.opt.Install == nil {
		return
	}
	if f := e.opt.Install.Find(l.Package); f != "" {
		l.Why = fmt.Sprintf("this install has it (%s): the machine that logged this lacks it, or looks for it through other Paths", e.rel(f))
		l.Fix = fmt.Sprintf("copy %s to that machine, or (a client of this server) check that it is downloadable: upkdeps redirect verify", e.rel(f))
		return
	}
	l.Why = fmt.Sprintf("%s is not in this install either", l.Package)
	l.Fix = fmt.Sprintf("install %s%s", l.Package, e.indexHint(l.Package, ""))
}
