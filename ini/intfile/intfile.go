package intfile

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/upkdeps/upkdeps/ini"
)

// SectionPublic is the section whose Object= lines register objects.
const SectionPublic = "Public"

// File is a localisation file: its ini and its [Public] Object= lines.
type File struct {
	Path    string // the name given to Load or Parse
	Package string // the file's base name without its extension: the package it localises
	Ini     *ini.File
	Objects []Object // the [Public] Object= lines, in file order
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
	f, err := ini.Load(path)
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
// comma-separated list of Key=Value fields, values optionally in double
// quotes (a comma inside quotes is part of the value). Keys ignore case;
// unknown keys are skipped. A value that is not such a list has Err set.
func ParseObject(line int, value string) Object {
	o := Object{Line: line, Value: value}
	v := strings.TrimSpace(ini.Unquote(strings.TrimSpace(value)))
	if len(v) < 2 || v[0] != '(' || v[len(v)-1] != ')' {
		o.Err = "not a parenthesised list of fields"
		return o
	}
	v = v[1 : len(v)-1]
	for len(v) > 0 {
		key, rest, ok := strings.Cut(v, "=")
		if !ok {
			o.Err = fmt.Sprintf("field %q has no '='", strings.TrimSpace(v))
			return o
		}
		key = strings.TrimSpace(key)
		rest = strings.TrimLeft(rest, " \t")
		var val string
		if strings.HasPrefix(rest, `"`) {
			end := strings.IndexByte(rest[1:], '"')
			if end < 0 {
				o.Err = fmt.Sprintf("field %s: unterminated quote", key)
				return o
			}
			val, rest = rest[1:1+end], rest[2+end:]
			rest = strings.TrimLeft(rest, " \t")
			if rest != "" && rest[0] != ',' {
				o.Err = fmt.Sprintf("field %s: text after the closing quote", key)
				return o
			}
		} else {
			i := strings.IndexByte(rest, ',')
			if i < 0 {
				i = len(rest)
			}
			val, rest = strings.TrimSpace(rest[:i]), rest[i:]
		}
		v = strings.TrimPrefix(rest, ",")
		switch strings.ToLower(key) {
		case "name":
			o.Name = val
		case "class":
			o.Class = val
		case "metaclass":
			o.MetaClass = val
		case "description":
			o.Description = val
		}
	}
	return o
}
