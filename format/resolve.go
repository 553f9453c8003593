package format

import (
	"sort"
	"strings"
)

// NameAt returns name-table entry i, or "" when i is out of range.
func (f *File) NameAt(i int32) string {
	if f.isView() {
		return f.lazyName(i)
	}
	if i < 0 || int(i) >= len(f.Names) {
		return ""
	}
	return f.Names[i].Name
}

// ObjectName returns the name of the object r refers to ("None" for 0).
func (f *File) ObjectName(r Ref) string {
	switch {
	case r.IsNull():
		return "None"
	case r.IsImport():
		if im := f.Import(r); im != nil {
			return f.NameAt(im.ObjectName)
		}
	default:
		if ex := f.Export(r); ex != nil {
			return f.NameAt(ex.ObjectName)
		}
	}
	return ""
}

// Import returns the import r refers to, or nil when r is not a valid
// import reference.
func (f *File) Import(r Ref) *Import {
	if !r.IsImport() || r.Index() >= len(f.Imports) {
		return nil
	}
	return &f.Imports[r.Index()]
}

// Export returns the export r refers to, or nil when r is not a valid export
// reference.
func (f *File) Export(r Ref) *Export {
	if !r.IsExport() || r.Index() >= len(f.Exports) {
		return nil
	}
	return &f.Exports[r.Index()]
}

// Outer returns the outer of the object r refers to (0 for the package).
func (f *File) Outer(r Ref) Ref {
	if im := f.Import(r); im != nil {
		return im.Outer
	}
	if ex := f.Export(r); ex != nil {
		return ex.Outer
	}
	return 0
}

// ObjectPath returns the full dotted path of the object r refers to, from its
// outer chain: "Engine.Actor.Touching" for an import, and for an export the
// package's own name (when PackageName is set) followed by its groups and name.
func (f *File) ObjectPath(r Ref) string {
	parts := f.outerChain(r)
	if r.IsExport() && f.PackageName != "" {
		parts = append([]string{f.PackageName}, parts...)
	}
	return strings.Join(parts, ".")
}

// GroupPath returns the names of r's outer chain below its package, outermost
// first, followed by r's own name; for an import the top-level package is left
// out. It is what the linker matches against an export's chain.
func (f *File) GroupPath(r Ref) []string {
	parts := f.outerChain(r)
	if r.IsImport() && len(parts) > 0 {
		parts = parts[1:]
	}
	return parts
}

// outerChain returns the names from the outermost object down to r. Chains
// were checked for loops when the file was read; the length cap protects
// hand-built Files.
func (f *File) outerChain(r Ref) []string {
	var rev []string
	for cur := r; !cur.IsNull() && len(rev) <= len(f.Imports)+len(f.Exports); cur = f.Outer(cur) {
		rev = append(rev, f.ObjectName(cur))
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}

// ImportPackage returns the top-level package name an import belongs to (the
// end of its outer chain), or "" when r is not an import.
func (f *File) ImportPackage(r Ref) string {
	if !r.IsImport() {
		return ""
	}
	top := r
	for n := 0; n <= len(f.Imports)+len(f.Exports); n++ {
		o := f.Outer(top)
		if o.IsNull() || !o.IsImport() {
			break
		}
		top = o
	}
	return f.ObjectName(top)
}

// ClassOf returns the class name and class package of the object r refers to.
// An import names its class directly. An export with class 0 is a class
// (Core.Class); otherwise its class reference is resolved: an imported class
// lives in the import's package, an exported class in this package
// (PackageName, which may be empty).
func (f *File) ClassOf(r Ref) (class, pkg string) {
	if im := f.Import(r); im != nil {
		return f.NameAt(im.ClassName), f.NameAt(im.ClassPackage)
	}
	ex := f.Export(r)
	if ex == nil {
		return "", ""
	}
	switch {
	case ex.Class.IsNull():
		return "Class", "Core"
	case ex.Class.IsImport():
		return f.ObjectName(ex.Class), f.ImportPackage(ex.Class)
	default:
		return f.ObjectName(ex.Class), f.PackageName
	}
}

// Dependencies returns the names of the top-level packages this package
// imports from, sorted case-insensitively, each once (first spelling kept).
// A package importing its own name (native classes) lists itself only if
// PackageName is empty.
func (f *File) Dependencies() []string {
	seen := map[string]bool{}
	deps := []string{}
	for i, im := range f.Imports {
		if !im.Outer.IsNull() {
			continue
		}
		n := f.ObjectName(ImportRef(i))
		k := strings.ToLower(n)
		if seen[k] || strings.EqualFold(n, f.PackageName) {
			continue
		}
		seen[k] = true
		deps = append(deps, n)
	}
	sort.Slice(deps, func(i, j int) bool {
		a, b := strings.ToLower(deps[i]), strings.ToLower(deps[j])
		if a != b {
			return a < b
		}
		return deps[i] < deps[j]
	})
	return deps
}
