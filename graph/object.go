package graph

import (
	"encoding/json"
	"slices"
	"strings"
)

// Object is an object a finding names: Package.Path, with the class it
// was wanted as. Findings carry these structs; the text form ("Pkg.Path
// (Core.Class)") is made only to render them (String, and the JSON form,
// which is that string).
type Object struct {
	// Package exports the object (or should); "" for a name from
	// UnrealScript sources (unknown_class), which is all Path.
	Package string
	// Path is the object's group path below Package ("Walls.Marble").
	Path string
	// ClassPackage and Class are the class it was wanted as: the
	// importer's, or Core.Class for a class the ini names; "" for a name
	// from sources.
	ClassPackage, Class string
	// Exported is the class the package exports it as, "Pkg.Class", for a
	// class_mismatch; "" otherwise.
	Exported string
	// ByIni marks a class_mismatch of a class the ini names (not imported).
	ByIni bool
}

// iniClass is an object the ini names as a class in package pkg.
func iniClass(pkg, path string) Object {
	return Object{Package: pkg, Path: path, ClassPackage: "Core", Class: "Class"}
}

// IsClass reports whether the object was wanted as a class (Core.Class),
// with no other class exported: only a code package can provide it.
func (o Object) IsClass() bool {
	return o.Exported == "" && o.ClassPackage == "Core" && o.Class == "Class"
}

// String is the object as reports print it: "Pkg.Path (ClassPkg.Class)";
// for a class_mismatch "Pkg.Path: imported as ClassPkg.Class, exported as
// Pkg.Class" (or "named as a class by the ini, exported as ..."); for a
// name from sources the name.
func (o Object) String() string {
	name := o.Path
	if o.Package != "" {
		name = o.Package + "." + o.Path
	}
	switch {
	case o.Exported != "" && o.ByIni:
		return name + ": named as a class by the ini, exported as " + o.Exported
	case o.Exported != "":
		return name + ": imported as " + o.ClassPackage + "." + o.Class + ", exported as " + o.Exported
	case o.Class == "" && o.ClassPackage == "":
		return name
	}
	return name + " (" + o.ClassPackage + "." + o.Class + ")"
}

// MarshalJSON writes the object as its String.
func (o Object) MarshalJSON() ([]byte, error) { return json.Marshal(o.String()) }

// UnmarshalJSON reads the String form back (for readers of the JSON
// report; upkdeps itself never parses it). A string in none of the forms
// is a name from sources.
func (o *Object) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*o = parseObject(s)
	return nil
}

func parseObject(s string) Object {
	name, rest, mismatch := strings.Cut(s, ": ")
	split := func(name string) (pkg, path string) {
		pkg, path, ok := strings.Cut(name, ".")
		if !ok {
			return "", name
		}
		return pkg, path
	}
	if mismatch {
		o := Object{}
		o.Package, o.Path = split(name)
		if e, ok := strings.CutPrefix(rest, "named as a class by the ini, exported as "); ok {
			o.ClassPackage, o.Class, o.Exported, o.ByIni = "Core", "Class", e, true
			return o
		}
		if c, e, ok := strings.Cut(strings.TrimPrefix(rest, "imported as "), ", exported as "); ok {
			o.ClassPackage, o.Class = split(c)
			o.Exported = e
			return o
		}
		return Object{Path: s}
	}
	if i := strings.LastIndex(s, " ("); i > 0 && strings.HasSuffix(s, ")") {
		o := Object{}
		o.Package, o.Path = split(s[:i])
		o.ClassPackage, o.Class = split(s[i+2 : len(s)-1])
		return o
	}
	return Object{Path: s}
}

// sortObjects returns the objects of set sorted by their text, as the
// reports list them.
func sortObjects(set map[Object]bool) []Object {
	type keyed struct {
		text string
		o    Object
	}
	ks := make([]keyed, 0, len(set))
	for o := range set {
		ks = append(ks, keyed{o.String(), o})
	}
	slices.SortFunc(ks, func(a, b keyed) int { return cmpName(a.text, b.text) })
	out := make([]Object, len(ks))
	for i, k := range ks {
		out[i] = k.o
	}
	return out
}

// ObjectStrings returns the objects' String forms.
func ObjectStrings(objs []Object) []string {
	out := make([]string, len(objs))
	for i, o := range objs {
		out[i] = o.String()
	}
	return out
}
