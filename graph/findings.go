package graph

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/ini"
)

// Severity of a finding: an error makes check exit 1; a warning is worth
// reading. package redirect uses the same type.
type Severity string

// Severities.
const (
	Error   Severity = "error"
	Warning Severity = "warning"
)

// FindingKind names a class of problem; the values are part of the JSON
// output (docs/check.md). package redirect uses the same type for its own
// kinds.
type FindingKind string

// Finding kinds.
const (
	MissingPackage FindingKind = "missing_package"
	MissingObject  FindingKind = "missing_object"
	ClassMismatch  FindingKind = "class_mismatch"
	NativeUnknown  FindingKind = "native_unknown"
	CaseMismatch   FindingKind = "case_mismatch"
	Collision      FindingKind = "collision"
	Shadowed       FindingKind = "shadowed"
	Cycle          FindingKind = "cycle"
	EditOrder      FindingKind = "edit_order"
	EditMissing    FindingKind = "edit_missing"
	EditUnchecked  FindingKind = "edit_unchecked"
	EmbeddedCopy   FindingKind = "embedded_copy"
	UnknownClass   FindingKind = "unknown_class"
	IniRepeat      FindingKind = "ini_repeat"
	IniSection     FindingKind = "ini_section"
	Unreadable     FindingKind = "unreadable"
	ServerSideOnly FindingKind = "server_side_only"
	// StockMissing is one finding for the game's own packages that are
	// missing (check.StockMissing): the base install is incomplete.
	StockMissing FindingKind = "stock_missing"
)

// Finding is one problem, with the packages involved and the import chain
// that makes it matter. Its JSON form is documented in docs/check.md.
type Finding struct {
	Kind     FindingKind `json:"kind"`
	Severity Severity    `json:"severity"`
	Package  string      `json:"package"`
	Objects  []Object    `json:"objects,omitempty"`
	NeededBy []string    `json:"needed_by,omitempty"`
	Packages []string    `json:"packages,omitempty"`
	Chain    []string    `json:"chain,omitempty"`
	// Roots are the ini lines ("Demo.ini:20 ServerPackages=Foo") that make
	// the engine load the package or objects of the finding.
	Roots   []string `json:"roots,omitempty"`
	Message string   `json:"message"`
}

// SortFindings orders findings: errors first, then by kind, package and
// message.
func SortFindings(fs []Finding) {
	slices.SortFunc(fs, func(a, b Finding) int {
		return cmp.Or(
			cmp.Compare(severityRank(a.Severity), severityRank(b.Severity)),
			strings.Compare(string(a.Kind), string(b.Kind)),
			cmpName(a.Package, b.Package),
			strings.Compare(a.Message, b.Message),
		)
	})
}

func severityRank(s Severity) int {
	if s == Error {
		return 0
	}
	return 1
}

// CheckOptions give Check what the ini says about the install.
type CheckOptions struct {
	ServerPackages []string // [Engine.GameEngine] ServerPackages
	EditPackages   []string // [Editor.EditorEngine] EditPackages, in order
	// Natives says which classes packages register in native code; nil
	// uses the built-in list of the stock packages' native-only classes.
	Natives Natives
	// Sources are the EditPackages entries' UnrealScript sources (optional):
	// their dependencies replace the compiled imports for the order checks,
	// and their .upkg flags are checked.
	Sources *Sources
	// Stock is the game's own retail file list (ini.OwnStockOf): its
	// packages are on every client, so their ServerSideOnly flag is no
	// leak. nil: any known game's list.
	Stock *ini.Stock
	// Jobs is the number of goroutines the object check uses (0 or less:
	// one per core); the findings do not depend on it.
	Jobs int
}

// Check returns every finding of the graph, sorted. It stops with ctx's
// error when ctx is done (the object check, its long part, between runs of
// imports).
func (gr *Graph) Check(ctx context.Context, opt CheckOptions) ([]Finding, error) {
	if opt.Natives == nil {
		opt.Natives = BuiltinNatives()
	}
	roots := gr.roots(opt)
	parent := gr.reach(roots)
	var out []Finding
	out = append(out, gr.checkUnreadable()...)
	out = append(out, gr.checkMissing(opt.Natives, parent)...)
	objs, err := gr.checkObjects(ctx, opt, parent)
	if err != nil {
		return nil, err
	}
	out = append(out, objs...)
	out = append(out, gr.checkCase(parent)...)
	out = append(out, gr.checkCycles(opt.Natives)...)
	out = append(out, gr.checkServerSideOnly(opt)...)
	out = append(out, gr.checkEmbedded()...)
	missing := map[string]bool{}
	for _, f := range out {
		if f.Kind == MissingPackage || f.Kind == Unreadable {
			missing[lower(f.Package)] = true
		}
	}
	order := gr.CheckEditPackages(opt.EditPackages, OrderOptions{Sources: opt.Sources, Natives: opt.Natives})
	for _, f := range order.Findings {
		switch {
		case f.Kind == Cycle && !opt.Sources.HasAny():
			// The package graph's own cycles are reported above; a
			// cycle only the sources show is new.
		case f.Kind == EditUnchecked && missing[lower(f.Package)]:
			// Already an error of its own.
		case f.Kind == EditMissing && missing[lower(f.Package)] && order.resourceOnly[lower(f.Package)]:
			// A texture or sound package is never built: its
			// missing_package says it all.
		default:
			out = append(out, f)
		}
	}
	out = append(out, gr.upkgFindings(opt.Sources, opt.ServerPackages, opt.Stock)...)
	gr.noteUnbuilt(out, opt.Sources)
	SortFindings(out)
	return out, ctx.Err()
}

// isDeviceRoot reports whether an ini line names a class only native code
// provides: a render, audio or network device, the viewport manager or
// UE1's renderer.
func isDeviceRoot(r RootRef) bool {
	k := strings.ToLower(r.Key)
	return strings.HasSuffix(k, "device") || k == "viewportmanager" || k == "render"
}

// article returns "an" or "a" for a name read aloud: an Engine.dll, an
// UnrealI.dll, a UWeb.dll; a leading capital before another is spelt out
// (you-web, ex-OpenGL, ay-L-Audio).
func article(name string) string {
	if name == "" {
		return "a"
	}
	c := name[0] | 0x20
	if len(name) > 1 && name[1] >= 'A' && name[1] <= 'Z' {
		if strings.IndexByte("aefhilmnorsx", c) >= 0 {
			return "an"
		}
		return "a"
	}
	if strings.IndexByte("aeiou", c) >= 0 {
		return "an"
	}
	return "a"
}

// roots are the packages a player or the build starts from: ServerPackages,
// the other ini roots, maps, and EditPackages.
func (gr *Graph) roots(opt CheckOptions) []*Package {
	var roots []*Package
	seen := map[*Package]bool{}
	addName := func(n string) {
		if p := gr.Package(n); p != nil && !seen[p] {
			seen[p] = true
			roots = append(roots, p)
		}
	}
	for _, n := range opt.ServerPackages {
		addName(n)
	}
	roots = gr.appendStarts(roots, seen)
	for _, n := range opt.EditPackages {
		addName(n)
	}
	return roots
}

// reach does a breadth-first walk from the roots and returns how each
// package was reached, for chains.
func (gr *Graph) reach(roots []*Package) reached {
	r := make(reached, len(gr.byID))
	gr.walk(roots, gr.Imports, -1, func(p, from *Package, _ int) bool {
		r[p.id] = cmp.Or(from, p)
		return true
	})
	return r
}

// reached is what reach found, by package id: the package each package
// was reached from, itself for a root, nil when it was not reached.
type reached []*Package

// has reports whether p was reached.
func (r reached) has(p *Package) bool { return r[p.id] != nil }

// from returns the package p was reached from (nil for a root), and
// whether p was reached.
func (r reached) from(p *Package) (*Package, bool) {
	switch f := r[p.id]; f {
	case p:
		return nil, true
	default:
		return f, f != nil
	}
}

// chain returns root → ... → p → extra for display, starting at the ini
// line that names the root when there is one; when no root reaches p, it
// starts at p.
func (gr *Graph) chain(parent reached, p *Package, extra ...string) []string {
	var rev []string
	top := p
	for cur, n := p, 0; cur != nil && n < 10000; n++ {
		rev = append(rev, label(cur))
		top = cur
		next, ok := parent.from(cur)
		if !ok {
			break
		}
		cur = next
	}
	if refs := gr.rootsOf(top); len(refs) > 0 {
		rev = append(rev, refs[0].Evidence())
	}
	slices.Reverse(rev)
	return append(rev, extra...)
}

// evidence returns the ini lines of refs.
func evidence(refs []RootRef) []string {
	var out []string
	for _, r := range refs {
		out = append(out, r.Evidence())
	}
	return out
}

// clientOnly reports whether every ref is loaded only by the game client.
func clientOnly(refs []RootRef) bool {
	for _, r := range refs {
		if !r.clientOnly() {
			return false
		}
	}
	return len(refs) > 0
}

// clientNote is added to the message of a finding that only client-side
// ini lines cause.
const clientNote = "; only the game client loads it (a dedicated server does not)"

// label names a package with its file for chains.
func label(p *Package) string {
	if p.Missing() {
		return p.Name + " (missing)"
	}
	return p.Name + " (" + p.Rel + ")"
}

// reachedFirst returns, of the importers, one reached from a root (the first
// by name), else the first by name.
func reachedFirst(parent reached, importers []*Package) *Package {
	for _, p := range importers {
		if parent.has(p) {
			return p
		}
	}
	return importers[0]
}

func names(ps []*Package) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Name
	}
	return out
}

func (gr *Graph) checkUnreadable() []Finding {
	var out []Finding
	for _, p := range gr.pkgs {
		if p.Err == nil {
			continue
		}
		err := p.Err
		var pe *format.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the message names the file already
		}
		f := Finding{Kind: Unreadable, Severity: Error, Package: p.Name,
			Message: fmt.Sprintf("%s cannot be read: %v", p.Rel, err)}
		if by := gr.ImportedBy(p); len(by) > 0 {
			f.NeededBy = names(by)
		}
		f.Roots = evidence(gr.rootsOf(p))
		out = append(out, f)
	}
	return out
}

func (gr *Graph) checkMissing(nat Natives, parent reached) []Finding {
	var out []Finding
	for _, p := range gr.pkgs {
		if !p.Missing() {
			continue
		}
		by := gr.ImportedBy(p)
		// A package with native code and no package file (a render or
		// audio driver: OpenGLDrv.dll) still has the classes its binary
		// registers, when the install has that binary.
		var refs, unregistered []RootRef
		for _, r := range gr.rootsOf(p) {
			switch {
			case r.Object == "" || !nat.FromBinary(p.Name):
				refs = append(refs, r) // a table cannot say the binary is there
			case nat.Has(p.Name, firstSegment(r.Object)):
			default:
				unregistered = append(unregistered, r)
			}
		}
		if len(unregistered) > 0 {
			out = append(out, unregisteredFinding(p, unregistered))
		}
		if len(by) == 0 && len(refs) == 0 {
			continue
		}
		spell := p.Name
		if len(p.Spellings) > 1 {
			spell = strings.Join(p.Spellings, "/")
		}
		f := Finding{Kind: MissingPackage, Severity: Error, Package: p.Name, Roots: evidence(refs)}
		switch {
		case len(refs) == 0:
			f.Message = fmt.Sprintf("package %s is imported by %d package(s) but no file resolves through Paths", spell, len(by))
		case len(by) == 0:
			f.Message = fmt.Sprintf("package %s is named by %s but no file resolves through Paths", spell, rootLines(refs))
		default:
			f.Message = fmt.Sprintf("package %s is imported by %d package(s) and named by %s but no file resolves through Paths",
				spell, len(by), rootLines(refs))
		}
		objs := map[Object]bool{}
		for _, r := range refs {
			if r.Object != "" {
				objs[iniClass(p.Name, r.Object)] = true
			}
		}
		if len(objs) > 0 {
			f.Objects = sortObjects(objs)
			// Only a package with native code could have its classes
			// from a binary: one the game's tables know, or a device
			// (render, audio, network driver); most (Botpack) are
			// script only.
			switch {
			case nat.HasPackage(p.Name):
				f.Message += fmt.Sprintf(", nor does %s %s.dll or %s.so register the class(es) (the game's %s module has them, but it is not in the install)",
					article(p.Name), p.Name, p.Name, p.Name)
			case slices.ContainsFunc(refs, isDeviceRoot):
				f.Message += fmt.Sprintf(", nor does %s %s.dll or %s.so register the class(es)", article(p.Name), p.Name, p.Name)
			}
		}
		if len(by) > 0 {
			f.NeededBy = names(by)
			f.Chain = gr.chain(parent, reachedFirst(parent, by), p.Name+" (missing)")
		} else {
			f.Chain = []string{refs[0].Evidence(), p.Name + " (missing)"}
			if clientOnly(refs) {
				f.Severity, f.Message = Warning, f.Message+clientNote
			}
		}
		out = append(out, f)
	}
	return out
}

// unregisteredFinding reports the ini classes of a package without a file
// that its native code does not register.
func unregisteredFinding(p *Package, unregistered []RootRef) Finding {
	f := Finding{Kind: MissingObject, Severity: Error, Package: p.Name, Roots: evidence(unregistered),
		Chain: []string{unregistered[0].Evidence(), p.Name + " (native code only)"},
		Message: fmt.Sprintf("%s has no package file, and its native code registers none of the %d class(es) the ini names",
			p.Name, len(unregistered))}
	set := map[Object]bool{}
	for _, r := range unregistered {
		set[iniClass(p.Name, r.Object)] = true
	}
	if clientOnly(unregistered) {
		f.Severity, f.Message = Warning, f.Message+clientNote
	}
	f.Objects = sortObjects(set)
	return f
}

func (gr *Graph) checkCase(parent reached) []Finding {
	var out []Finding
	for _, p := range gr.pkgs {
		for _, sp := range p.CaseSpellings {
			var by []*Package
			for _, q := range gr.ImportedBy(p) {
				if e := gr.Edge(q, p); e != nil && e.Spelling == sp {
					by = append(by, q)
				}
			}
			var refs []RootRef
			for _, r := range gr.rootsOf(p) {
				if r.Root.Package == sp {
					refs = append(refs, r)
				}
			}
			how := "imported"
			switch {
			case len(by) == 0 && len(refs) > 0:
				how = "named by the ini"
			case len(refs) > 0:
				how = "imported and named by the ini"
			}
			f := Finding{Kind: CaseMismatch, Severity: Warning, Package: p.Name, NeededBy: names(by), Roots: evidence(refs),
				Message: caseMessage(how, sp, p.Rel)}
			if len(by) > 0 {
				f.Chain = gr.chain(parent, reachedFirst(parent, by), label(p))
			} else if len(refs) > 0 {
				f.Chain = []string{refs[0].Evidence(), label(p)}
			}
			out = append(out, f)
		}
	}
	return out
}

// caseMessage explains a case_mismatch: the name as used (sp) resolved only
// case-insensitively to the file rel. When the name matches exactly and
// only the extension differs in case from the Paths wildcard, it says so.
func caseMessage(how, sp, rel string) string {
	base := filepath.Base(rel)
	ext := filepath.Ext(base)
	if strings.TrimSuffix(base, ext) == sp {
		return fmt.Sprintf("%s as %q and the file is %s: the name matches, only the extension's case (%s) differs from the Paths wildcard's; "+
			"a case-sensitive file system (a Linux server) finds the file only under the wildcard's spelling: rename the extension to it", how, sp, rel, ext)
	}
	return fmt.Sprintf("%s as %q but the file is %s: found only case-insensitively; a case-sensitive server may fail to load it", how, sp, rel)
}

func (gr *Graph) checkServerSideOnly(opt CheckOptions) []Finding {
	var out []Finding
	parent := gr.reach(gr.clientRoots(opt.ServerPackages))
	for _, p := range gr.pkgs {
		if p.Flags&format.FlagServerSideOnly == 0 || isRetail(opt.Stock, p.Name) {
			continue // retail packages are on every client
		}
		var by []*Package
		for _, q := range gr.ImportedBy(p) {
			if parent.has(q) && q.Flags&format.FlagServerSideOnly == 0 {
				by = append(by, q)
			}
		}
		if len(by) == 0 {
			continue
		}
		out = append(out, Finding{Kind: ServerSideOnly, Severity: Error, Package: p.Name, NeededBy: names(by),
			Chain:   gr.chain(parent, by[0], label(p)),
			Message: fmt.Sprintf("%s is ServerSideOnly (never sent to clients), but %d package(s) that clients load import from it", p.Name, len(by))})
	}
	return out
}
