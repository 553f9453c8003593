package graph

import (
	"fmt"
	"strings"

	"github.com/upkdeps/upkdeps/format"
)

// checkEmbedded finds maps that carry a copy of another package of the
// install: a top-level group named like that package whose objects the
// package also exports (same path below it, same class). The engine loads
// the map's copies, not the package's (the map is their outer), so the map
// is bigger than it needs to be and its objects can drift from the
// package's. Only maps with such a group are read again.
func (gr *Graph) checkEmbedded() []Finding {
	var out []Finding
	for _, p := range gr.pkgs {
		if p.scan == nil || len(p.scan.groups) == 0 {
			continue
		}
		var targets []*Package
		for _, g := range p.scan.groups {
			if q := gr.Package(g); q != nil && q != p && q.scan != nil && strings.EqualFold(q.Name, g) {
				targets = append(targets, q)
			}
		}
		if len(targets) == 0 {
			continue
		}
		f, err := gr.open(p.File)
		if err != nil {
			continue // read once already; a file that changed since is not this check's to report
		}
		for _, q := range targets {
			n, bytes := embeddedCopies(f, q)
			if n == 0 {
				continue
			}
			out = append(out, Finding{Kind: EmbeddedCopy, Severity: Warning, Package: p.Name, Packages: []string{p.Name, q.Name},
				Chain: []string{label(p), q.Name + " (group of " + p.Name + ")"},
				Message: fmt.Sprintf("%s (%s) embeds %d object(s), %d bytes, in a group %s that %s (%s) also exports with the same names and classes: a copy the map carries instead of using the package",
					p.Name, p.Rel, n, bytes, q.Name, q.Name, q.Rel)})
		}
		f.Close()
	}
	return out
}

// embeddedCopies counts the exports of f below its top-level group named
// like q (groups themselves left out) that q exports with the same path
// and class, and their serial bytes.
func embeddedCopies(f *format.File, q *Package) (n int, bytes int64) {
	for i, ex := range f.Exports {
		ref := format.ExportRef(i)
		class, pkg := f.ClassOf(ref)
		if strings.EqualFold(class, "Package") && strings.EqualFold(pkg, "Core") {
			continue
		}
		path := f.GroupPath(ref)
		if len(path) < 2 || !strings.EqualFold(path[0], q.Name) || ex.Outer.IsNull() {
			continue
		}
		if q.scan.exports.has(strings.Join(path[1:], "."), class) {
			n++
			bytes += int64(max(ex.SerialSize, 0))
		}
	}
	return n, bytes
}

// open reads a package of the graph again, from the overlay when it came
// from there.
func (gr *Graph) open(file string) (*format.File, error) {
	if h, ok := gr.overlay[file]; ok {
		return openHeld(file, h)
	}
	return format.Open(file)
}
