package header

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/internal/fsutil"
	"github.com/upkdeps/upkdeps/native"
	"github.com/upkdeps/upkdeps/uscript"
)

// Mode says what Sync does with the headers.
type Mode string

// The modes of Sync.
const (
	ModeWrite  Mode = "write"   // write the headers that differ
	ModeDryRun Mode = "dry-run" // say what would be written
	ModeCheck  Mode = "check"   // compare with the headers on disk, write nothing
)

// Status is what Sync found or did for one package.
type Status string

// The statuses of a SyncPackage.
const (
	StatusNone       Status = "none"        // no native class, no header
	StatusNoSources  Status = "no-sources"  // no Classes/*.uc: not generated, not checked
	StatusCurrent    Status = "current"     // check: the header matches
	StatusStale      Status = "stale"       // check: the header differs
	StatusMissing    Status = "missing"     // check: no header on disk
	StatusOrphaned   Status = "orphaned"    // check: a header on disk, no native class
	StatusWritten    Status = "written"     // write: the header was replaced
	StatusWouldWrite Status = "would-write" // dry-run: the header would be replaced
	StatusUnchanged  Status = "unchanged"   // write, dry-run: the header matches
	StatusRefused    Status = "refused"     // the file there is not a generated header
)

// Evidence says what told which classes a package's native module
// registers, besides the script's native keyword.
type Evidence string

// The evidence a registration comes from, strongest first.
const (
	EvidenceBinary Evidence = "binary" // the package's own binary
	EvidenceHeader Evidence = "header" // the existing generated header
	EvidenceTable  Evidence = "table"  // the game's own built-in table
	EvidenceNone   Evidence = ""       // nothing
)

// SyncOptions say which headers Sync generates and where.
type SyncOptions struct {
	// Root is the game root: package Pkg's sources are
	// <Root>/<Pkg>/Classes/*.uc.
	Root string
	// Output is the folder the headers go under as
	// <Output>/<Pkg>/Inc/<Pkg>Classes.h (default Root).
	Output string
	// Packages are the packages in compile order (EditPackages); a package
	// listed twice counts once, at its first place, as ucc make builds it.
	Packages []string
	// Selected, when not empty, are the packages whose headers are
	// reported (all Packages are read: each sees those before it). Each
	// must be in Packages.
	Selected []string
	Mode     Mode // default ModeWrite
	// Force replaces a file that is not a generated header.
	Force bool
	// Fresh ignores the existing headers' class order, name order and
	// spellings.
	Fresh bool
	// Layout is the header layout; the zero Layout takes the existing
	// headers', else Game's, else Generation's.
	Layout     Layout
	EOL        string // "crlf" or "lf"; "" keeps the existing header's, else crlf
	Game       string // the game profile, whose own table is the last evidence
	Generation int    // the engine generation (1 or 2), 0 when unknown
	// Binaries are the native binaries read (a table in the set is not
	// used); nil when none.
	Binaries *native.Set
	// CompiledFile finds the compiled .u of a package without sources, ""
	// when there is none; nil finds none.
	CompiledFile func(pkg string) string
}

// SyncReport is what Sync did: the output of `upkdeps headers`, whose JSON
// form is documented in docs/usage.md ("headers").
type SyncReport struct {
	SchemaVersion int           `json:"schema_version"`
	Root          string        `json:"root"`
	Output        string        `json:"output"`
	Layout        string        `json:"layout"`
	Mode          Mode          `json:"mode"`
	Packages      []SyncPackage `json:"packages"`
	Stale         int           `json:"stale"` // stale, missing or orphaned headers
	Written       int           `json:"written"`
	Diagnostics   []string      `json:"diagnostics"` // what the sources' reader noted
}

// Failed reports whether the run found a stale header in check mode, or
// refused to replace a file.
func (r *SyncReport) Failed() bool {
	if r.Mode == ModeCheck && r.Stale > 0 {
		return true
	}
	for _, p := range r.Packages {
		if p.Status == StatusRefused {
			return true
		}
	}
	return false
}

// SyncPackage is the result for one package.
type SyncPackage struct {
	Package     string       `json:"package"`
	Header      string       `json:"header,omitempty"` // the path, relative to the output folder, "/"-separated
	Classes     int          `json:"classes"`
	Status      Status       `json:"status"`
	NativesFrom Evidence     `json:"natives_from,omitempty"`
	Changes     []SyncChange `json:"changes"`
	FirstDiff   int          `json:"first_diff_line,omitempty"` // the first differing line of the header on disk
	FirstWant   string       `json:"first_diff_want,omitempty"`
	FirstHave   string       `json:"first_diff_have,omitempty"`
	Diagnostic  string       `json:"diagnostic,omitempty"`
	// Remedy is what the caller could give to change the outcome the
	// Diagnostic describes ("" none); the Diagnostic leaves it out.
	Remedy Remedy `json:"-"`
}

// Remedy is an option of Sync's caller that would change an outcome. The
// library's messages leave it out, for the caller to name in its own
// terms (the command line: "--force replaces it").
type Remedy string

// The remedies of a SyncPackage or SyncChange.
const (
	// RemedyForce: SyncOptions.Force replaces a file that is not a
	// generated header.
	RemedyForce Remedy = "force"
	// RemedyGame: SyncOptions.Game names the game whose built-in table
	// lists its native classes; or the native binaries, beside the ini,
	// list them.
	RemedyGame Remedy = "game"
)

// String is the remedy in the library's words.
func (r Remedy) String() string {
	switch r {
	case RemedyForce:
		return "SyncOptions.Force replaces it"
	case RemedyGame:
		return "name the game (SyncOptions.Game), or put the native binaries beside the ini"
	}
	return ""
}

// SyncChange is one difference a check found (a Change, with its file
// relative to the output folder).
type SyncChange struct {
	Class      string `json:"class"`
	Kind       string `json:"kind"`
	Name       string `json:"name"`
	Want       string `json:"want,omitempty"`
	Have       string `json:"have,omitempty"`
	File       string `json:"file,omitempty"`
	Line       int    `json:"line,omitempty"`
	HeaderLine int    `json:"header_line,omitempty"`
	// Remedy is what the caller could give to have Want explained ("" none);
	// Want leaves it out.
	Remedy Remedy `json:"-"`
}

// Sync generates the header of every package of opt.Packages with native
// classes and, by opt.Mode, writes it (atomically), says what it would
// write, or compares it with the one on disk. The existing headers tell
// the layout, the order of classes and names and which classes the native
// module registers when no binary does. It stops between packages when
// ctx is done.
func Sync(ctx context.Context, opt SyncOptions) (*SyncReport, error) {
	if opt.Mode == "" {
		opt.Mode = ModeWrite
	}
	if opt.Output == "" {
		opt.Output = opt.Root
	}
	if opt.CompiledFile == nil {
		opt.CompiledFile = func(string) string { return "" }
	}
	pkgs := uniqueFold(opt.Packages)
	for _, s := range opt.Selected {
		if !containsFold(pkgs, s) {
			return nil, fmt.Errorf("%s is not in the packages", s)
		}
	}
	ex, err := readExisting(opt.Root, opt.Output, pkgs)
	if err != nil {
		return nil, err
	}
	layout := opt.Layout
	if layout.Name == "" {
		layout = chooseLayout(opt.Game, opt.Generation, ex.written)
	}
	rep := &SyncReport{SchemaVersion: 1, Root: opt.Root, Output: opt.Output, Layout: layout.Name, Mode: opt.Mode,
		Packages: []SyncPackage{}, Diagnostics: []string{}}
	g := New(layout)
	if !opt.Fresh {
		for _, p := range pkgs {
			if hf := ex.generated[strings.ToLower(p)]; hf != nil {
				g.AddHints(p, HintsFrom(hf))
			}
		}
	}
	reg := registrations{binaries: opt.Binaries, headers: ex.generated}
	if reg.binaries == nil {
		reg.binaries = native.NewSet()
	}
	if t := native.OwnTable(opt.Game); t != nil {
		reg.table = native.NewSet()
		reg.table.AddTable(t)
	}
	hasSources, err := addSources(ctx, g, opt, pkgs, reg, rep)
	if err != nil {
		return nil, err
	}
	for _, p := range pkgs {
		if len(opt.Selected) > 0 && !containsFold(opt.Selected, p) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hp, err := syncPackage(g, p, opt, ex.data[strings.ToLower(p)], hasSources[strings.ToLower(p)], reg.of(p))
		if err != nil {
			return nil, err
		}
		switch hp.Status {
		case StatusStale, StatusMissing, StatusOrphaned:
			rep.Stale++
		case StatusWritten:
			rep.Written++
		}
		rep.Packages = append(rep.Packages, hp)
	}
	return rep, nil
}

// existing are the headers on disk.
type existing struct {
	data      map[string][]byte // at the output, by lower-cased package
	generated map[string]*File  // generated headers (at the output, else the root), parsed
	written   [][]byte          // generated headers, in compile order
}

// readExisting reads the existing headers: what ucc wrote tells the
// layout, and which classes the native module registers when no binary
// does.
func readExisting(root, out string, pkgs []string) (existing, error) {
	ex := existing{data: map[string][]byte{}, generated: map[string]*File{}}
	for _, p := range pkgs {
		path := headerPath(out, p)
		data, err := readHeaderFile(path)
		if err != nil {
			return ex, err
		}
		if data != nil {
			ex.data[strings.ToLower(p)] = data
		} else if out != root {
			// Writing elsewhere: the game's own header still tells the
			// engine's layout, order and spellings.
			path = headerPath(root, p)
			if data, err = readHeaderFile(path); err != nil {
				return ex, err
			}
		}
		if data == nil || !isGenerated(data) {
			continue
		}
		if hf, err := ParseHeader(bytes.NewReader(data), path); err == nil {
			ex.generated[strings.ToLower(p)] = hf
			ex.written = append(ex.written, data)
		}
	}
	return ex, nil
}

// addSources adds every package's sources to g, or its compiled package
// when it has none, and reports which packages have sources.
func addSources(ctx context.Context, g *Generator, opt SyncOptions, pkgs []string, reg registrations, rep *SyncReport) (map[string]bool, error) {
	hasSources := map[string]bool{}
	for _, p := range pkgs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		pd, err := uscript.ReadPackageDecls(opt.Root, p)
		if err != nil {
			return nil, err
		}
		hasSources[strings.ToLower(p)] = len(pd.Classes) > 0
		for _, d := range pd.Diagnostics {
			rep.Diagnostics = append(rep.Diagnostics, d.String())
		}
		if len(pd.Classes) == 0 {
			// No sources: the compiled package tells the classes the
			// later packages derive from, their functions and names.
			if path := opt.CompiledFile(p); path != "" {
				if err := addCompiled(g, p, path); err != nil {
					rep.Diagnostics = append(rep.Diagnostics, err.Error())
				}
			}
			continue
		}
		incs := incFiles(opt.Root, p)
		if err := g.Add(Package{Name: p, Classes: pd.Classes, Native: reg.of(p).has,
			Include: func(cpp string) bool { return incs[strings.ToLower(cpp+".h")] }}); err != nil {
			return nil, err
		}
	}
	return hasSources, nil
}

// syncPackage judges, writes or reports one package's header.
func syncPackage(g *Generator, p string, opt SyncOptions, old []byte, hasSources bool, ev registration) (SyncPackage, error) {
	if !hasSources {
		// Only the compiled package is there: its header (an SDK's)
		// cannot be judged, nor rewritten.
		hp := SyncPackage{Package: p, Status: StatusNoSources, Changes: []SyncChange{}}
		if old != nil {
			hp.Header = relHeader(p)
		}
		return hp, nil
	}
	hp, err := headerFor(g, p, opt, old, ev)
	if err != nil {
		return hp, err
	}
	if hp.Status == StatusOrphaned && hp.NativesFrom == EvidenceNone {
		// Classes native only in C++ (UT2004's Fire) need the module.
		hp.Diagnostic += "; no binary, header or table of the game lists " + p + "'s native classes"
		hp.Remedy = RemedyGame
	}
	return hp, nil
}

// chooseLayout returns the layout the existing headers show, else the
// game profile's, else the generation's.
func chooseLayout(game string, generation int, written [][]byte) Layout {
	if l, ok := DetectLayout(written...); ok {
		return l
	}
	switch {
	case strings.EqualFold(game, "undying"):
		return Undying
	case generation == 2:
		return UE2
	}
	return UE1
}

// registrations knows which classes each package's native module
// registers, from the first evidence there is: the package's own binary;
// else the classes its existing header declares (UE1) or registers
// (UE2's AUTO_INITIALIZE_REGISTRANTS), as the engine's C++ registers some
// whose script does not say native (Engine.SavedMove); else the game's own
// built-in table. Never another game's table.
type registrations struct {
	binaries *native.Set
	headers  map[string]*File // generated headers by lower-cased package
	table    *native.Set      // the game's own table, or nil
}

// registration is the evidence for one package.
type registration struct {
	from Evidence
	has  func(class string) bool
}

func (r registrations) of(pkg string) registration {
	switch {
	case r.binaries.FromBinary(pkg):
		return registration{EvidenceBinary, func(c string) bool { return r.binaries.Has(pkg, c) }}
	case r.headers[strings.ToLower(pkg)] != nil:
		hf := r.headers[strings.ToLower(pkg)]
		set := map[string]bool{}
		for _, c := range hf.Classes {
			set[strings.ToLower(c.Name[1:])] = true
		}
		for _, c := range hf.Registrants {
			if len(c) > 1 {
				set[strings.ToLower(c[1:])] = true
			}
		}
		return registration{EvidenceHeader, func(c string) bool { return set[strings.ToLower(c)] }}
	case r.table.HasPackage(pkg):
		return registration{EvidenceTable, func(c string) bool { return r.table.Has(pkg, c) }}
	}
	return registration{EvidenceNone, func(string) bool { return false }}
}

// notRegistered says why a class declared without native is not exported,
// with what would tell more.
func (r registration) notRegistered(pkg string) (string, Remedy) {
	switch r.from {
	case EvidenceBinary:
		return pkg + "'s binary does not register it", ""
	case EvidenceTable:
		return "the game's table does not list it: give the binaries beside the ini", ""
	}
	return "no binary or table of the game registers it", RemedyGame
}

// addCompiled adds the compiled package at path to the generator.
func addCompiled(g *Generator, pkg, path string) error {
	f, err := format.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return g.AddCompiled(pkg, f)
}

// incFiles returns the lower-cased names of the files in <root>/<pkg>/Inc:
// UE2 includes <Pkg>/Inc/AFoo.h in class AFoo when it exists.
func incFiles(root, pkg string) map[string]bool {
	out := map[string]bool{}
	entries, err := os.ReadDir(filepath.Join(root, pkg, "Inc"))
	if err != nil {
		return out
	}
	for _, e := range entries {
		out[strings.ToLower(e.Name())] = true
	}
	return out
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// uniqueFold returns list without the names (any case) seen before.
func uniqueFold(list []string) []string {
	var out []string
	for _, p := range list {
		if !containsFold(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// headerPath is where ucc writes a package's header.
func headerPath(dir, pkg string) string {
	return filepath.Join(dir, pkg, "Inc", pkg+"Classes.h")
}

// relHeader is headerPath relative to the output folder, "/"-separated.
func relHeader(pkg string) string {
	return filepath.ToSlash(filepath.Join(pkg, "Inc", pkg+"Classes.h"))
}

// readHeaderFile reads an existing header, nil when there is none.
func readHeaderFile(path string) ([]byte, error) {
	data, err := fsutil.ReadRegular(path, MaxHeaderSize)
	var big *fsutil.TooBigError
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, nil
	case errors.Is(err, fsutil.ErrNotRegular):
		return nil, fmt.Errorf("%s is not a regular file", path)
	case errors.As(err, &big):
		return nil, fmt.Errorf("%s: %d bytes, more than the %d-byte limit for a header", path, big.Size, MaxHeaderSize)
	}
	return data, err
}

// isGenerated reports whether a file is a header ucc make -h (or Sync)
// wrote.
func isGenerated(data []byte) bool {
	head := data[:min(len(data), 512)]
	return bytes.Contains(head, []byte("C++ class definitions exported from UnrealScript"))
}

func lfOnly(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")) }

// headerFor generates one package's header and compares, writes or
// reports it by opt.Mode.
func headerFor(g *Generator, pkg string, opt SyncOptions, old []byte, ev registration) (SyncPackage, error) {
	hp := SyncPackage{Package: pkg, Changes: []SyncChange{}, NativesFrom: ev.from}
	text, model, ok, err := g.Header(pkg)
	if err != nil {
		return hp, err
	}
	if !ok {
		hp.Status = StatusNone
		if old != nil {
			hp.Header = relHeader(pkg)
			if opt.Mode == ModeCheck {
				hp.Status = StatusOrphaned
				hp.Diagnostic = "the sources export no native class, but the header exists"
			}
		}
		return hp, nil
	}
	hp.Header = relHeader(pkg)
	hp.Classes = len(model.Classes)
	same := old != nil && bytes.Equal(lfOnly(old), text)
	if opt.Mode == ModeCheck {
		return checkHeader(g, hp, opt.Output, text, model, old, same, ev)
	}
	switch {
	case same:
		hp.Status = StatusUnchanged
		return hp, nil
	case old != nil && !isGenerated(old) && !opt.Force:
		hp.Status = StatusRefused
		hp.Diagnostic, hp.Remedy = "the file there is not a generated header", RemedyForce
		return hp, nil
	case opt.Mode == ModeDryRun:
		hp.Status = StatusWouldWrite
		return hp, nil
	}
	if withEOL(opt.EOL, old) == "crlf" {
		text = bytes.ReplaceAll(text, []byte("\n"), []byte("\r\n"))
	}
	path := headerPath(opt.Output, pkg)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return hp, err
	}
	if err := fsutil.WriteFileAtomic(path, text, 0o644); err != nil {
		return hp, err
	}
	hp.Status = StatusWritten
	return hp, nil
}

// withEOL returns the line ends to write: eol, else the existing
// header's, else crlf as ucc writes.
func withEOL(eol string, old []byte) string {
	if eol != "" {
		return eol
	}
	if old != nil && !bytes.Contains(old, []byte("\r\n")) {
		return "lf"
	}
	return "crlf"
}

// checkHeader compares the generated text and model with the header on
// disk (old).
func checkHeader(g *Generator, hp SyncPackage, out string, text []byte, model *File, old []byte, same bool, ev registration) (SyncPackage, error) {
	switch {
	case old == nil:
		hp.Status = StatusMissing
		return hp, nil
	case same:
		hp.Status = StatusCurrent
		return hp, nil
	}
	hp.Status = StatusStale
	have, err := ParseHeader(bytes.NewReader(old), headerPath(out, hp.Package))
	if err != nil {
		return hp, err
	}
	for _, c := range Diff(model, have) {
		hc := SyncChange{Class: c.Class, Kind: c.Kind, Name: c.Name, Want: c.Want, Have: c.Have, Line: c.Line, HeaderLine: c.HeaderLine}
		if c.Kind == ClassRemoved {
			// Still declared, but not native in its script and not
			// registered by a native module known here.
			if file, line, exported, ok := g.Declared(hp.Package, c.Class); ok && !exported {
				c.File, hc.Line = file, line
				why, remedy := ev.notRegistered(hp.Package)
				hc.Want, hc.Remedy = "declared without native; "+why, remedy
			}
		}
		if c.File != "" {
			hc.File = relTo(out, c.File)
		}
		hp.Changes = append(hp.Changes, hc)
	}
	hp.FirstDiff, hp.FirstWant, hp.FirstHave = firstDiff(text, lfOnly(old))
	return hp, nil
}

// relTo returns path relative to dir with "/", or path with "/" when it is
// not under dir.
func relTo(dir, path string) string {
	if r, err := filepath.Rel(dir, path); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(path)
}

// firstDiff returns the first line (1-based) where two texts differ.
func firstDiff(want, have []byte) (int, string, string) {
	w := strings.Split(string(want), "\n")
	h := strings.Split(string(have), "\n")
	for i := 0; i < max(len(w), len(h)); i++ {
		var x, y string
		if i < len(w) {
			x = w[i]
		}
		if i < len(h) {
			y = h[i]
		}
		if x != y {
			return i + 1, x, y
		}
	}
	return 0, "", ""
}
