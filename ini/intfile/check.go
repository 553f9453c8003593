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
// keeps the packages it opened (header and tables only) for the next
// lines; Close releases them.
type Checker struct {
	find  FindFunc
	files map[string]*opened // by lower-cased package name
}

type opened struct {
	f   *format.File
	err error
}

// NewChecker returns a Checker that opens packages through find.
func NewChecker(find FindFunc) *Checker {
	return &Checker{find: find, files: map[string]*opened{}}
}

// Close closes the packages the checker opened.
func (c *Checker) Close() error {
	for _, o := range c.files {
		if o.f != nil {
			o.f.Close()
		}
	}
	c.files = map[string]*opened{}
	return nil
}

// open returns the package named pkg, or why not.
func (c *Checker) open(pkg string) (*format.File, error) {
	k := strings.ToLower(pkg)
	if o, ok := c.files[k]; ok {
		return o.f, o.err
	}
	o := &opened{}
	if file := c.find(pkg); file == "" {
		o.err = fmt.Errorf("no file resolves for package %s", pkg)
	} else {
		o.f, o.err = format.Open(file)
	}
	c.files[k] = o
	return o.f, o.err
}

// classExport returns the class export named name at the top of f.
func classExport(f *format.File, name string) *format.Export {
	for i := range f.Exports {
		e := &f.Exports[i]
		if e.Class.IsNull() && e.Outer.IsNull() && strings.EqualFold(f.NameAt(e.ObjectName), name) {
			return e
		}
	}
	return nil
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
	e := classExport(f, class)
	if e == nil {
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
		switch s := e.Super; {
		case s.IsNull():
			return WrongMetaClass, fmt.Sprintf("%s does not derive from MetaClass %s: its chain is %s", name, meta, strings.Join(chain, " > "))
		case s.IsExport():
			if f.Export(s) == nil {
				return Unchecked, fmt.Sprintf("%s: the superclass of %s is a bad reference in package %s: whether it derives from %s went unchecked", name, cur, pkg, meta)
			}
			next = pkg + "." + f.ObjectName(s)
			e = f.Export(s)
		default:
			spkg, sname := f.ImportPackage(s), f.ObjectName(s)
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
			se := classExport(sf, sname)
			if se == nil {
				return Unchecked, fmt.Sprintf("%s: the chain %s > %s stops: package %s exports no class %s: whether it derives from %s went unchecked", name, strings.Join(chain, " > "), next, spkg, sname, meta)
			}
			f, e, pkg = sf, se, spkg
		}
		chain = append(chain, next)
	}
	return Unchecked, fmt.Sprintf("%s: the superclass chain is longer than %d classes: whether it derives from %s went unchecked", name, MaxChain, meta)
}
