package intfile

import (
	"path/filepath"
	"strings"

	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/internal/structval"
)

// SectionPublic is the section whose Object= lines register objects.
const SectionPublic = "Public"

// File is a localisation file: its ini and its [Public] Object= lines.
type File struct {
	Path    string    // the name given to Load or Parse
	Package string    // the file's base name without its extension: the package it localises
	Ini     *ini.File // from Load: every section, the keys of [Public] alone (ini.LoadSections)
	Objects []Object  // the [Public] Object= lines, in file order
}

// Object is one [Public] Object= line. Fields are as written, without
// surrounding quotes; a field the line does not set is "".
type Object struct {
	Line        int    // 1-based line in the file
	Value       string // the value as written
	Name        string // Name=: the object registered, Pkg.Object
	Class       string // Class=: the class of that object ("Class" for a class)
	MetaClass   string // MetaClass=: the kind of class (Engine.Mutator, ...)
	Description string // Description=
	// Err says why the value is not a parenthesised list of fields ("" when
	// it is one).
	Err string
}

// IsClass reports whether the line registers a class (Class=Class).
func (o Object) IsClass() bool { return strings.EqualFold(o.Class, "Class") }

// Load reads the localisation file at path (ini.Load: the same encodings,
// line rules and size limits).
func Load(path string) (*File, error) {
	f, err := ini.LoadSections(path, SectionPublic)
	if err != nil {
		return nil, err
	}
	return fromIni(f), nil
}

// Parse parses the bytes of a localisation file named name.
func Parse(name string, data []byte) (*File, error) {
	f, err := ini.Parse(name, data)
	if err != nil {
		return nil, err
	}
	return fromIni(f), nil
}

func fromIni(f *ini.File) *File {
	base := filepath.Base(f.Path)
	out := &File{Path: f.Path, Package: strings.TrimSuffix(base, filepath.Ext(base)), Ini: f, Objects: []Object{}}
	for _, e := range f.Entries(SectionPublic, "Object") {
		out.Objects = append(out.Objects, ParseObject(e.Line, e.Value))
	}
	return out
}

// ParseObject reads the value of an Object= line: a parenthesised,
// comma-separated list of Key=Value fields (package structval), values
// optionally in double quotes. Keys ignore case; unknown keys are skipped.
// A value that is not such a list has Err set.
func ParseObject(line int, value string) Object {
	o := Object{Line: line, Value: value}
	fs, err := structval.Parse(value)
	if err != nil {
		o.Err = err.Error()
		return o
	}
	o.Name, _ = structval.Get(fs, "Name")
	o.Class, _ = structval.Get(fs, "Class")
	o.MetaClass, _ = structval.Get(fs, "MetaClass")
	o.Description, _ = structval.Get(fs, "Description")
	return o
}
