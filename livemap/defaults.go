package livemap

import (
	"fmt"
	"strings"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/ini"
)

// defaultsEntries reads the default properties of the classes the server
// runs (its ServerActors and opt.Mutators): a class setting
// bAddToServerPackages=True adds its package (UT2004's Mutator does so in
// PreBeginPlay; the Beyond Unreal wiki's "Package map" page). What cannot
// be read is a note.
func defaultsEntries(f *ini.File, opt Options) ([]Entry, []string) {
	var classes []string
	for _, r := range f.References(opt.Generation) {
		key, _, _ := strings.Cut(strings.TrimSuffix(r.Key, "+"), "[")
		if strings.EqualFold(key, "ServerActors") && r.Object != "" {
			classes = append(classes, r.Package+"."+r.Object)
		}
	}
	classes = append(classes, opt.Mutators...)
	var out []Entry
	var notes []string
	seen := map[string]bool{}
	for _, c := range classes {
		pkg, class, ok := strings.Cut(c, ".")
		if !ok || seen[strings.ToLower(c)] {
			continue
		}
		seen[strings.ToLower(c)] = true
		file := opt.Find(pkg)
		if file == "" {
			continue // check reports the missing package
		}
		on, err := classDefault(file, class)
		if err != nil {
			notes = append(notes, fmt.Sprintf("%s: the default properties of %s were not read (%v): whether it adds its package went unchecked", file, c, err))
			continue
		}
		if on {
			out = append(out, Entry{pkg, FromDefaults, Source{file, 0, c + " defaultproperties bAddToServerPackages=True"}})
		}
	}
	if len(classes) > 0 {
		notes = append(notes, "bAddToServerPackages is read from the defaults of each class the server runs, not from its parent classes")
	}
	return out, notes
}

// classDefault reports whether class (top level in file) sets
// bAddToServerPackages=True in its defaults.
func classDefault(file, class string) (bool, error) {
	f, err := format.Open(file)
	if err != nil {
		return false, err
	}
	defer f.Close()
	for i := range f.Exports {
		e := &f.Exports[i]
		if e.Class.IsNull() && e.Outer.IsNull() && strings.EqualFold(f.NameAt(e.ObjectName), class) {
			v, found, err := f.ClassDefaultBool(nil, i, "bAddToServerPackages")
			return v && found, err
		}
	}
	return false, nil
}
