package uscript

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/upkdeps/upkdeps/internal/fsutil"
)

// MaxFileSize is the largest .uc file Scan and ScanFile accept. The biggest
// stock UnrealScript files are a few hundred KiB.
const MaxFileSize = 16 << 20

// RefKind says how a source line refers to another class or package.
type RefKind string

// Reference kinds, the values of Ref.Kind and Evidence.Kind.
const (
	KindExtends   RefKind = "extends"   // class X extends Y (or expands Y)
	KindWithin    RefKind = "within"    // class X ... within Z
	KindDependsOn RefKind = "dependson" // class X ... dependson(A, B)
	KindQualified RefKind = "qualified" // Pkg.Class in code, Key=Pkg.Object in defaultproperties
	KindLiteral   RefKind = "literal"   // object literal Type'Pkg.Group.Name'
	KindExec      RefKind = "exec"      // #exec OBJ LOAD FILE=... PACKAGE=...
	KindType      RefKind = "type"      // a type or class name: declarations, casts, class<>, new, X.default
)

// Class is what Scan found in one source file.
type Class struct {
	Name         string // the declared class name
	Super        string // the parent class; "" for a class without extends (Object)
	SuperPackage string // the package of Super when written qualified (extends Engine.Actor)
	Within       string // the outer class of "within", if any
	// WithinPackage is the package of Within when written qualified.
	WithinPackage string
	File          string // the file name given to Scan
	Line          int    // the line of the class declaration
	// Subfolder is set for a class read from a folder below Classes,
	// which stock ucc make does not compile (see ScanPackage): it
	// declares names, but its references make no dependency or finding.
	Subfolder bool
	// Native is set when the declaration says native (or intrinsic): the
	// package has C++ code, whose binary may register classes of its own.
	Native bool
	// Refs are the references in source order (by line, then as written);
	// the same reference twice on one line is kept once.
	Refs []Ref
	// Diagnostics are problems that did not stop the scan: a class name
	// that differs from the file name, an unclosed comment.
	Diagnostics []Diagnostic

	// funcs holds the lower-cased names of the functions the class
	// declares, to tell a call of one of them from a cast.
	funcs map[string]struct{}
	// groups are the groups #exec lines create: Texture'Skins.Tex' may
	// name group Skins of the package itself rather than a package Skins.
	groups []group
	// vars and types hold the lower-cased names of the variables and
	// parameters, and of the structs and enums, the class declares: a name
	// used as a type, a cast or X.default that no package declares as
	// anything is an unknown class (Index.Unresolved).
	vars, types map[string]struct{}
	// superKey is Super lower-cased, for look-ups up the hierarchy.
	superKey string
	// subobjects are the lower-cased names of the defaultproperties
	// subobjects (Begin Object ... Name=X): Type'Outer.X' may name one.
	subobjects map[string]struct{}
}

// group is a group an #exec line puts into a package ("" for the package
// being built).
type group struct{ pkg, name string }

// Ref is one reference found in a class. Names keep their source spelling.
type Ref struct {
	Kind RefKind
	// Package is the package the reference names explicitly (Engine in
	// Engine.Actor or Texture'Engine.S_Actor', the loaded package of an
	// #exec), or "" when the name is unqualified and only an index can
	// resolve it. For KindQualified it is the left part, which may turn out
	// not to be a package at all.
	Package string
	// Name is the referenced name: a class name for most kinds, the path
	// after the package for a literal (Group.Name), the FILE= value (or the
	// PACKAGE= value when there is no file) for an #exec.
	Name string
	// Type is the object type of a literal (Texture, Class, Sound, ...).
	Type string
	Line int
	Text string // the source line, trimmed (cut at 200 bytes), as UTF-8
	// Inactive is set when the reference is in a #if/#ifdef branch the
	// scan could not evaluate (see preproc.go): it may not be compiled.
	Inactive bool

	// call marks a type reference read from Name(expr): a cast if Name is a
	// class, a call if it is a function, which only resolution can tell.
	call bool
	// maybeVar marks a name that may be a variable rather than a class
	// (Name.default.X, Name(expr), new Name, Name.Member); Scan drops those
	// whose name the class declares as a variable or parameter.
	maybeVar bool
	// value marks a qualified name read as a defaultproperties value
	// (Key=Pkg.Object), where the object need not be a class.
	value bool
	// class marks a type reference that can only name a class: class<X>,
	// Super(X), implements(X), Begin Object Class=X.
	class bool
}

// String formats the reference as it would be written in source.
func (r Ref) String() string {
	switch {
	case r.Kind == KindLiteral && r.Package != "":
		return r.Type + "'" + r.Package + "." + r.Name + "'"
	case r.Kind == KindLiteral:
		return r.Type + "'" + r.Name + "'"
	case r.Kind == KindExec:
		return r.Name
	case r.Package != "":
		return r.Package + "." + r.Name
	}
	return r.Name
}

// Diagnostic is a problem in a source file that does not stop its scan.
type Diagnostic struct {
	File string
	Line int // 0 when the problem concerns the whole file
	Msg  string
}

func (d Diagnostic) String() string {
	if d.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", d.File, d.Line, d.Msg)
	}
	return d.File + ": " + d.Msg
}

// Error is a problem that stops the scan of a file.
type Error struct {
	File string
	Line int // 0 when the problem concerns the whole file
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("uscript: %s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("uscript: %s: %s", e.File, e.Msg)
}

// ScanFile reads and scans one .uc file. Files larger than MaxFileSize are
// refused with an *Error before they are read.
func ScanFile(path string) (*Class, error) {
	src, err := readSource(path)
	if err != nil {
		return nil, err
	}
	return Scan(path, src)
}

// readSource reads a source file of at most MaxFileSize bytes: regular
// files only (a FIFO never blocks), the size checked before reading.
func readSource(path string) ([]byte, error) {
	src, err := fsutil.ReadRegular(path, MaxFileSize)
	var nr *fsutil.NotRegularError
	var big *fsutil.TooBigError
	switch {
	case errors.As(err, &nr):
		return nil, &Error{File: path, Msg: "not a regular file"}
	case errors.As(err, &big):
		return nil, tooLarge(path, big.Size)
	case err != nil:
		return nil, fmt.Errorf("uscript: %w", err)
	}
	return src, nil
}

func tooLarge(path string, size int64) error {
	return &Error{File: path, Msg: fmt.Sprintf("file is %d bytes, more than the %d-byte limit for a source file", size, MaxFileSize)}
}

// lexSource decodes and tokenises a class source within the bounds every
// reader of sources keeps (MaxFileSize, maxTokens); the tokens live in
// buf.
func lexSource(filename string, src []byte, buf *scratch) (text []byte, toks []token, notes []note, err error) {
	if len(src) > MaxFileSize {
		return nil, nil, nil, tooLarge(filename, int64(len(src)))
	}
	text = decode(src)
	toks, notes, stoppedAt := lex(text, buf.toks)
	buf.toks = toks
	if stoppedAt > 0 {
		return nil, nil, nil, &Error{File: filename, Line: stoppedAt, Msg: fmt.Sprintf("more than %d tokens: not UnrealScript source", maxTokens)}
	}
	return text, toks, notes, nil
}

// Scan scans the source of one class. filename names the file in errors and
// evidence; when it is not empty the declared class name is checked against
// its base name. src may be ASCII, Windows-1252, UTF-8 or UTF-16 with a BOM.
// Scan never panics; it returns an *Error when src is larger than
// MaxFileSize or holds no class declaration.
func Scan(filename string, src []byte) (*Class, error) {
	buf := scratchPool.Get().(*scratch)
	defer buf.put()
	text, toks, notes, err := lexSource(filename, src, buf)
	if err != nil {
		return nil, err
	}
	p := parser{
		file:  filename,
		src:   text,
		toks:  toks,
		c:     &Class{File: filename},
		names: buf.names,
	}
	p.match(buf)
	p.c.Refs = make([]Ref, 0, len(toks)/32+4)
	p.run()
	p.dropVariables()
	c := p.c
	c.vars = p.vars
	if !p.haveClass {
		return nil, &Error{File: filename, Line: 1, Msg: "no class declaration"}
	}
	for _, n := range notes {
		c.Diagnostics = append(c.Diagnostics, Diagnostic{File: filename, Line: n.line, Msg: n.msg})
	}
	if filename != "" {
		base := filepath.Base(filename)
		base = strings.TrimSuffix(base, filepath.Ext(base))
		if !strings.EqualFold(base, c.Name) {
			c.Diagnostics = append(c.Diagnostics, Diagnostic{File: filename, Line: c.Line,
				Msg: fmt.Sprintf("class %s is declared in a file named %s (ucc make requires them to match)", c.Name, filepath.Base(filename))})
		}
	}
	slices.SortStableFunc(c.Diagnostics, func(a, b Diagnostic) int { return a.Line - b.Line })
	slices.SortStableFunc(c.Refs, func(a, b Ref) int { return a.Line - b.Line })
	return c, nil
}

// scratch holds the per-file buffers, reused through scratchPool: scanning
// a tree would otherwise allocate several times its size in tokens.
type scratch struct {
	toks   []token
	closes []int32
	names  map[string]string
}

var scratchPool = sync.Pool{New: func() any { return &scratch{names: map[string]string{}} }}

// put returns the buffers to the pool unless a huge file grew them.
func (s *scratch) put() {
	if cap(s.toks) > 1<<20 {
		return
	}
	s.toks, s.closes = s.toks[:0], s.closes[:0]
	// Interned names are immutable and may be shared between classes:
	// keep them for the next file, up to a bound.
	if len(s.names) > 1<<13 {
		clear(s.names)
	}
	scratchPool.Put(s)
}
