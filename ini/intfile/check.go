package intfile

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/upkdeps/upkdeps/format"
)

// Kind names a problem Check reports; the values are finding kinds of
// `upkdeps check` (docs/check.md).
type Kind string

// Problem kinds.
const (
	// MissingClass: an Object= line names a class its package does not
	// export, or a package that does not resolve.
	MissingClass Kind = "int_missing_class"
	// WrongMetaClass: the class exists but its superclass chain does not
	// reach MetaClass.
	WrongMetaClass Kind = "int_wrong_metaclass"
	// Unchecked: a package of the superclass chain could not be read, so
	// whether the class derives from MetaClass is not known.
	Unchecked Kind = "int_unchecked"
	// BadLine: an Object= value is not a list of fields.
	BadLine Kind = "int_bad_line"
)

// Problem is one finding of Check, tied to a line of a localisation file.
type Problem struct {
	Kind    Kind
	File    string // the localisation file
	Line    int    // 1-based line of the Object= entry
	Value   string // the Object= value as written
	Package string // the package of the class named
	Class   string // the class named, Pkg.Class
	Message string
}

// Evidence names the line as check reports prints ini lines:
// "MyMod.int:3 Object=(...)".
func (p Problem) Evidence() string {
	return fmt.Sprintf("%s:%d Object=%s", filepath.Base(p.File), p.Line, p.Value)
}

// FindFunc returns the file a package name resolves to ("" when none).
type FindFunc func(pkg string) string

// MaxChain bounds the superclass chain walked for one line; real chains
// are under 15 classes deep (Object, Actor, Info, Mutator, ...).
const MaxChain = 64

// Checker checks Object= lines against the packages find resolves. It
// keeps what it read of each package (its classes and their superclass
// references, not the file) for the next lines.
type Checker struct {
	find  FindFunc
	files map[string]*opened // by lower-cased package name
	rd    format.Reader
}

type opened struct {
	f   *classes
	err error
}

// classes is what Check needs of a package: its top-level class exports,
// and the superclass reference of each export a walk up from them reaches
// with the names those references give. A server's Engine.u has 15,437
// exports and 8,702 names, of which this keeps a few hundred.
type classes struct {
	top     []classExport          // the exports of class Class at the top, in table order
	super   map[int32]format.Ref   // by export index, for the exports a walk reaches
	names   map[format.Ref]refName // the superclass references of those exports
	exports int                    // the export count, for the bounds of a reference
}

type classExport struct {
	name  string
	index int32
}

// refName is what a reference names: the object's name and, for an
// import, its top-level package (as format.File's ObjectName and
// ImportPackage give them).
type refName struct{ name, pkg string }

// readClasses gathers what Check needs of the package v.
func readClasses(v *format.View) *classes {
	ex := v.Exports()
	c := &classes{super: map[int32]format.Ref{}, names: map[format.Ref]refName{}, exports: len(ex)}
	for i := range ex {
		if e := &ex[i]; e.Class.IsNull() && e.Outer.IsNull() {
			c.top = append(c.top, classExport{strings.Clone(v.NameAt(e.ObjectName)), int32(i)})
		}
	}
	for _, t := range c.top {
		// Up the superclass references inside the package, each export
		// once (a loop ends at an export seen before).
		for i := int(t.index); i >= 0; {
			if _, seen := c.super[int32(i)]; seen {
				break
			}
			s := ex[i].Super
			c.super[int32(i)] = s
			if _, ok := c.names[s]; !ok && !s.IsNull() {
				r := refName{name: strings.Clone(v.ObjectName(s))}
				if s.IsImport() {
					r.pkg = strings.Clone(v.ImportPackage(s))
				}
				c.names[s] = r
			}
			i = -1
			if s.IsExport() && s.Index() < len(ex) {
				i = s.Index()
			}
		}
	}
	return c
}

// class returns the index of the top-level class export named name (the
// first, in any case).
func (c *classes) class(name string) (int32, bool) {
	for _, t := range c.top {
		if strings.EqualFold(t.name, name) {
			return t.index, true
		}
	}
	return 0, false
}

// NewChecker returns a Checker that opens packages through find.
func NewChecker(find FindFunc) *Checker {
	return &Checker{find: find, files: map[string]*opened{}}
}

// Close lets go of what the checker read.
func (c *Checker) Close() error {
	c.files = map[string]*opened{}
	c.rd = format.Reader{}
	return nil
}

// open returns what Check needs of the package named pkg, or why not.
func (c *Checker) open(pkg string) (*classes, error) {
	k := strings.ToLower(pkg)
	if o, ok := c.files[k]; ok {
		return o.f, o.err
	}
	o := &opened{}
	if file := c.find(pkg); file == "" {
		o.err = fmt.Errorf("no file resolves for package %s", pkg)
	} else if v, err := c.rd.View(file); err == nil {
		o.f = readClasses(v)
	} else {
		o.err = err // worded as format.Open words it (format's FuzzView holds them equal)
	}
	c.files[k] = o
	return o.f, o.err
}

// Check returns the problems of f's Object= lines that register a class
// (Class=Class), in line order. Lines of other classes are not checked.
func (c *Checker) Check(f *File) []Problem {
	var out []Problem
	for _, o := range f.Objects {
		p := Problem{File: f.Path, Line: o.Line, Value: o.Value, Class: o.Name}
		if o.Err != "" {
			p.Kind, p.Message = BadLine, fmt.Sprintf("%s: the engine cannot read this entry", o.Err)
			out = append(out, p)
			continue
		}
		if !o.IsClass() || o.Name == "" {
			continue
		}
		pkg, class, ok := strings.Cut(o.Name, ".")
		p.Package = pkg
		if !ok || pkg == "" || class == "" || strings.Contains(class, ".") {
			p.Kind, p.Message = MissingClass, fmt.Sprintf("Name=%s is not Package.Class", o.Name)
			out = append(out, p)
			continue
		}
		if kind, msg := c.derives(pkg, class, o.MetaClass); kind != "" {
			p.Kind, p.Message = kind, msg
			out = append(out, p)
		}
	}
	return out
}

// derives walks the superclass chain of pkg.class up to meta ("" to check
// only that the class exists). It returns "" when the class is there and
// reaches meta.
func (c *Checker) derives(pkg, class, meta string) (Kind, string) {
	name := pkg + "." + class
	f, err := c.open(pkg)
	if err != nil {
		if c.find(pkg) == "" {
			return MissingClass, fmt.Sprintf("%s: no package %s resolves through Paths, so the class does not exist", name, pkg)
		}
		return Unchecked, fmt.Sprintf("%s: package %s cannot be read (%v): the class went unchecked", name, pkg, err)
	}
	e, ok := f.class(class)
	if !ok {
		return MissingClass, fmt.Sprintf("%s: package %s exports no class %s", name, pkg, class)
	}
	if meta == "" {
		return "", ""
	}
	chain := []string{name}
	for range MaxChain {
		cur := chain[len(chain)-1]
		if strings.EqualFold(cur, meta) {
			return "", ""
		}
		var next string
		switch s := f.super[e]; {
		case s.IsNull():
			return WrongMetaClass, fmt.Sprintf("%s does not derive from MetaClass %s: its chain is %s", name, meta, strings.Join(chain, " > "))
		case s.IsExport():
			if s.Index() >= f.exports {
				return Unchecked, fmt.Sprintf("%s: the superclass of %s is a bad reference in package %s: whether it derives from %s went unchecked", name, cur, pkg, meta)
			}
			next = pkg + "." + f.names[s].name
			e = int32(s.Index())
		default:
			spkg, sname := f.names[s].pkg, f.names[s].name
			if spkg == "" || sname == "" {
				return Unchecked, fmt.Sprintf("%s: the superclass of %s is a bad reference in package %s: whether it derives from %s went unchecked", name, cur, pkg, meta)
			}
			next = spkg + "." + sname
			if strings.EqualFold(next, meta) {
				return "", ""
			}
			if strings.EqualFold(next, "Core.Object") {
				// The root of every class: the chain ends here.
				chain = append(chain, next)
				return WrongMetaClass, fmt.Sprintf("%s does not derive from MetaClass %s: its chain is %s", name, meta, strings.Join(chain, " > "))
			}
			sf, err := c.open(spkg)
			if err != nil {
				return Unchecked, fmt.Sprintf("%s: the chain %s > %s stops at package %s (%v): whether it derives from %s went unchecked", name, strings.Join(chain, " > "), next, spkg, err, meta)
			}
			se, ok := sf.class(sname)
			if !ok {
				return Unchecked, fmt.Sprintf("%s: the chain %s > %s stops: package %s exports no class %s: whether it derives from %s went unchecked", name, strings.Join(chain, " > "), next, spkg, sname, meta)
			}
			f, e, pkg = sf, se, spkg
		}
		chain = append(chain, next)
	}
	return Unchecked, fmt.Sprintf("%s: the superclass chain is longer than %d classes: whether it derives from %s went unchecked", name, MaxChain, meta)
}
