package livemap

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/ini"
)

// SwitchProperty is the bool property of a mutator's defaults that adds
// its package to the package map, by engine generation: UT2004's
// Engine.Mutator declares bAddToServerPackages (2), UT99 469c's
// bAddToPackageMap (1; the OldUnreal 469 script tree's Mutator.uc, "Added
// in UT 469c"). Each Mutator.PreBeginPlay calls AddToPackageMap() when it
// is True, which adds the running class's own package. "" for a generation
// without one.
func SwitchProperty(generation int) string {
	switch generation {
	case 1:
		return "bAddToPackageMap"
	case 2:
		return "bAddToServerPackages"
	}
	return ""
}

// maxParents bounds the parent classes followed from one class.
const maxParents = 64

// defaultsEntries reads the default properties of the classes the server
// runs (its ServerActors and opt.Mutators): a class whose switch
// (SwitchProperty) is True, set in its own defaults or inherited from a
// parent class, adds its package (the Beyond Unreal wiki's "Package map"
// page). What cannot be read is a note.
func defaultsEntries(f *ini.File, opt Options, d *defaults) ([]Entry, []string) {
	var classes []classRef
	for _, r := range f.References(opt.Generation) {
		if r.Is("ServerActors") && r.Object != "" {
			classes = append(classes, classRef{spec: r.Package + "." + r.Object})
		}
	}
	for _, c := range opt.Mutators {
		classes = append(classes, classRef{spec: c})
	}
	var notes []string
	out := d.switched(classes, func(c classRef, file string, err error) {
		notes = append(notes, fmt.Sprintf("%s: whether %s adds its package went unchecked: %v", file, c.spec, err))
	})
	return out, notes
}

// presetSwitches adds to each preset's Packages the packages of its
// mutator and actor classes whose switch is True (own or inherited): the
// engine sends them while the preset runs, whatever manages
// ServerPackages. A class whose package is missing is left to check
// (its loads); one that cannot be read is a note.
func presetSwitches(m *Map, d *defaults) {
	for i := range m.Presets {
		p := &m.Presets[i]
		p.Packages = append(p.Packages, d.switched(p.classes, func(c classRef, _ string, err error) {
			m.Notes = append(m.Notes, fmt.Sprintf("%s: whether preset %s's %s adds its package went unchecked: %v", c.src, p.Name, c.spec, err))
		})...)
	}
}

// switched returns an entry (FromDefaults) for each class of cs (each
// once in any case) whose switch is True, own or inherited. A class whose
// package is missing is left to check; one whose switch cannot be read
// goes to unread with its file.
func (d *defaults) switched(cs []classRef, unread func(c classRef, file string, err error)) []Entry {
	var out []Entry
	seen := map[string]bool{}
	for _, c := range cs {
		pkg, class, ok := strings.Cut(c.spec, ".")
		if !ok || seen[strings.ToLower(c.spec)] {
			continue
		}
		seen[strings.ToLower(c.spec)] = true
		file := d.find(pkg)
		if file == "" {
			continue // check reports the missing package
		}
		on, from, err := d.value(pkg, class)
		if err != nil {
			unread(c, file, err)
			continue
		}
		if on {
			out = append(out, Entry{pkg, FromDefaults, d.source(c.spec, from)})
		}
	}
	return out
}

// defaults reads classes' switches, each package file opened once and
// read as a format.View (its tables; no name is decoded unless asked).
type defaults struct {
	find  func(pkg string) string
	prop  string
	files map[string]*pkgView // by path
}

// pkgView is an open package file and its View (which its Reader holds).
type pkgView struct {
	fh *os.File
	rd format.Reader
	v  *format.View
}

// where is the class whose defaults set the switch, and its file.
type where struct{ class, file string }

// source is the evidence of class spec's switch, set by from: the
// package file whose defaults set it (Line 0).
func (d *defaults) source(spec string, from where) Source {
	if strings.EqualFold(from.class, spec) {
		return Source{from.file, 0, fmt.Sprintf("%s defaultproperties %s=True", spec, d.prop)}
	}
	return Source{from.file, 0, fmt.Sprintf("%s inherits %s=True from %s's defaultproperties", spec, d.prop, from.class)}
}

// value reports the switch of pkg.class: set in its defaults, or else its
// parent's (a class's defaults hold only what differs from its parent's),
// and the class that sets it. The engine's own classes (packages Core and
// Engine) set it nowhere: UT2004's, Red Orchestra's and UT99 469's
// Engine and Core script trees declare it in Engine.Mutator and set it in
// no default properties, so the walk stops there without reading them.
func (d *defaults) value(pkg, class string) (bool, where, error) {
	start := pkg + "." + class
	for range maxParents {
		if strings.EqualFold(pkg, "Engine") || strings.EqualFold(pkg, "Core") {
			return false, where{}, nil
		}
		file := d.find(pkg)
		if file == "" {
			return false, where{}, fmt.Errorf("the package of parent class %s.%s is not found", pkg, class)
		}
		p, err := d.open(file)
		if err != nil {
			return false, where{}, err
		}
		f := p.v
		i := topClass(f, class)
		if i < 0 {
			return false, where{}, fmt.Errorf("%s has no class %s", filepath.Base(file), class)
		}
		v, found, err := f.ClassDefaultBool(p.fh, i, d.prop)
		if err != nil {
			return false, where{}, fmt.Errorf("the default properties of %s.%s were not read (%v)", pkg, class, err)
		}
		if found {
			return v, where{pkg + "." + class, file}, nil
		}
		super := f.Exports()[i].Super
		switch {
		case super.IsNull():
			return false, where{}, nil
		case super.IsImport():
			// Cloned: the View's strings alias its Reader's memory.
			pkg, class = strings.Clone(f.ImportPackage(super)), strings.Clone(f.ObjectName(super))
		case f.Outer(super).IsNull():
			class = strings.Clone(f.ObjectName(super))
		default:
			return false, where{}, fmt.Errorf("%s: the parent of class %s is not a top-level class", filepath.Base(file), class)
		}
	}
	return false, where{}, fmt.Errorf("more than %d parent classes above %s (a loop?)", maxParents, start)
}

func (d *defaults) open(file string) (*pkgView, error) {
	if p, ok := d.files[file]; ok {
		return p, nil
	}
	fh, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	st, err := fh.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("%s: not a regular file", file)
	}
	if err != nil {
		fh.Close()
		return nil, err
	}
	p := &pkgView{fh: fh}
	if p.v, err = p.rd.ViewAt(fh, st.Size(), file); err != nil {
		fh.Close()
		return nil, err
	}
	d.files[file] = p
	return p, nil
}

func (d *defaults) close() {
	for _, p := range d.files {
		p.fh.Close()
	}
}

// topClass returns the index of the top-level class export named class
// (any case) in v, or -1.
func topClass(v *format.View, class string) int {
	for i, e := range v.Exports() {
		if e.Class.IsNull() && e.Outer.IsNull() && strings.EqualFold(v.NameAt(e.ObjectName), class) {
			return i
		}
	}
	return -1
}
