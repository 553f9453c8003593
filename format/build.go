package format

import (
	"strconv"
	"strings"
)

// Builder assembles a File table by table: it interns names and reuses
// imports, so fixtures can be written as a list of objects. It is meant for
// generated test data, demo installs and benchmarks.
type Builder struct {
	File    *File
	names   map[string]int32
	imports map[string]Ref
	exports map[string]Ref // by lower-cased dotted path, for ExportPath
}

// NewBuilder returns a Builder for an empty package of the given version and
// licensee, with the standard tag.
func NewBuilder(version, licensee uint16) *Builder {
	return &Builder{
		File:    &File{Header: Header{Tag: Tag, Version: version, Licensee: licensee}},
		names:   map[string]int32{},
		imports: map[string]Ref{},
		exports: map[string]Ref{},
	}
}

// Name returns the index of s in the name table, adding it when new. Names
// are interned case-insensitively, as the engine does: the first spelling
// stays.
func (b *Builder) Name(s string) int32 {
	k := strings.ToLower(s)
	if i, ok := b.names[k]; ok {
		return i
	}
	i := int32(len(b.File.Names))
	b.File.Names = append(b.File.Names, Name{Name: s, Flags: 0x00070010})
	b.names[k] = i
	return i
}

// Import returns the import of name (class classPkg.class) inside outer,
// adding it when it is not there yet.
func (b *Builder) Import(outer Ref, name, classPkg, class string) Ref {
	key := strings.ToLower(strings.Join([]string{strconv.Itoa(int(outer)), name, classPkg, class}, "\x00"))
	if r, ok := b.imports[key]; ok {
		return r
	}
	b.File.Imports = append(b.File.Imports, Import{
		ClassPackage: b.Name(classPkg),
		ClassName:    b.Name(class),
		Outer:        outer,
		ObjectName:   b.Name(name),
	})
	r := ImportRef(len(b.File.Imports) - 1)
	b.imports[key] = r
	return r
}

// ImportPackage returns the top-level import of package pkg.
func (b *Builder) ImportPackage(pkg string) Ref {
	return b.Import(0, pkg, "Core", "Package")
}

// ImportPath imports the object at a dotted path such as
// "Engine.Actor.Touching" with the given class. Missing outers are imported
// as packages (groups); import an outer of another class first to override.
func (b *Builder) ImportPath(path, classPkg, class string) Ref {
	parts := strings.Split(path, ".")
	outer := Ref(0)
	for i, p := range parts[:len(parts)-1] {
		if r, ok := b.findImport(outer, p); ok {
			outer = r
			continue
		}
		if i == 0 {
			outer = b.ImportPackage(p)
		} else {
			outer = b.Import(outer, p, "Core", "Package")
		}
	}
	return b.Import(outer, parts[len(parts)-1], classPkg, class)
}

func (b *Builder) findImport(outer Ref, name string) (Ref, bool) {
	for i, im := range b.File.Imports {
		if im.Outer == outer && strings.EqualFold(b.File.NameAt(im.ObjectName), name) {
			return ImportRef(i), true
		}
	}
	return 0, false
}

// Export adds an object defined by this package: class is its class (0 for a
// class object), super its parent, outer its group (0 for top level), and
// size the length of its serial data.
func (b *Builder) Export(outer Ref, name string, class, super Ref, size int32) Ref {
	b.File.Exports = append(b.File.Exports, Export{
		Class:       class,
		Super:       super,
		Outer:       outer,
		ObjectName:  b.Name(name),
		ObjectFlags: 0x00070004,
		SerialSize:  size,
	})
	return ExportRef(len(b.File.Exports) - 1)
}

// ExportGroup adds a group (an exported Core.Package object).
func (b *Builder) ExportGroup(outer Ref, name string) Ref {
	return b.Export(outer, name, b.ImportPath("Core.Package", "Core", "Class"), 0, 0)
}

// ExportPath adds an export at a dotted path below the package
// ("Skins.Gold", "Actor.Touching") with the given class: "Class" for a
// class object, else "Pkg.Class" (imported as needed). An outer that is
// already exported at that path (a class, for its properties) is used;
// other missing outers become groups.
func (b *Builder) ExportPath(path, class string, size int32) Ref {
	parts := strings.Split(path, ".")
	outer := Ref(0)
	for i := range parts[:len(parts)-1] {
		key := strings.ToLower(strings.Join(parts[:i+1], "."))
		r, ok := b.exports[key]
		if !ok {
			r = b.ExportGroup(outer, parts[i])
			b.exports[key] = r
		}
		outer = r
	}
	var cls Ref
	if class != "Class" {
		cpkg, cname, _ := strings.Cut(class, ".")
		cls = b.ImportPath(cpkg+"."+cname, "Core", "Class")
	}
	r := b.Export(outer, parts[len(parts)-1], cls, 0, size)
	b.exports[strings.ToLower(path)] = r
	return r
}

// ImportSpec imports the object a fixture spec names:
// "Pkg.Group.Name:ClassPkg.Class", e.g. "Engine.Actor.Touching:Core.ObjectProperty".
func (b *Builder) ImportSpec(spec string) Ref {
	path, class, _ := strings.Cut(spec, ":")
	cpkg, cname, _ := strings.Cut(class, ".")
	return b.ImportPath(path, cpkg, cname)
}

// ExportSpec exports the object a fixture spec names: "Group.Name:Pkg.Class",
// or "Name:Class" for a class (see ExportPath).
func (b *Builder) ExportSpec(spec string, size int32) Ref {
	path, class, _ := strings.Cut(spec, ":")
	return b.ExportPath(path, class, size)
}

// ClassDefaults returns serial data for a UE2 class export whose default
// properties set each bool property of trueBools to True: prefix (standing
// for the class's script and fields), the tagged properties, then None.
// It adds the names it uses; give the result to MarshalSerial with the
// export's SerialSize set to its length.
func (b *Builder) ClassDefaults(prefix []byte, trueBools ...string) []byte {
	props := make([]BoolDefault, len(trueBools))
	for i, n := range trueBools {
		props[i] = BoolDefault{n, true}
	}
	return b.ClassDefaultBools(prefix, props...)
}

// BoolDefault is a bool property of a class's defaults (ClassDefaultBools).
type BoolDefault struct {
	Name  string
	Value bool
}

// ClassDefaultBools is ClassDefaults with each property's value given: a
// subclass whose defaults set False what its parent's set True keeps the
// property, as the engine saves it (a class's defaults hold what differs
// from its parent's).
func (b *Builder) ClassDefaultBools(prefix []byte, props ...BoolDefault) []byte {
	out := append([]byte{}, prefix...)
	for _, p := range props {
		info := byte(0x50 | 3) // bool, size in a byte: 0
		if p.Value {
			info |= 0x80
		}
		out = appendCompact(out, b.Name(p.Name))
		out = append(out, info, 0)
	}
	return appendCompact(out, b.Name("None"))
}
