package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/internal/fsutil"
	"github.com/upkdeps/upkdeps/native"
	"github.com/upkdeps/upkdeps/uscript"
	"github.com/upkdeps/upkdeps/uscript/header"
)

// headersFlags are the options of `headers`.
type headersFlags struct {
	root    string
	out     string
	check   bool
	dryRun  bool
	force   bool
	fresh   bool
	layout  string
	eol     string
	verbose bool
}

func newHeadersCmd(a *app) *cobra.Command {
	var f headersFlags
	cmd := &cobra.Command{
		Use:   "headers [--ini INI | --root DIR PKG...] [-o DIR] [--check] [--dry-run] [--json]",
		Short: "Generate the C++ headers `ucc make -h` writes (<Pkg>/Inc/<Pkg>Classes.h), or check them for staleness",
		Long: `headers generates, for each package with native classes, the C++ header ucc make -h writes:
<DIR>/<Pkg>/Inc/<Pkg>Classes.h, the C++ mirror of the package's native classes (enums, member
variables in declaration order, DECLARE_FUNCTION per native function, event thunks, names).
Packages come from EditPackages (--ini; PKG arguments pick which headers to write) or, for a
source tree without an ini, from --root DIR and the packages named, in compile order. Every
package is read from <root>/<Pkg>/Classes/*.uc; each sees the packages before it.

--check writes nothing: it compares each header with the one on disk (line endings ignored)
and reports, per class, the members added, removed, retyped or moved, the native functions,
events and enums that differ, with the file:line of the declaration, and next to those the
differences of layout (DECLARE_CLASS, packing marks) and order. Exit 1 when a header is
stale or missing.

The layout, the order of classes, of the AUTOGENERATE lines and the spelling of names the
engine knew before compiling come from the engine binary, not from the sources: they are
taken from the existing header when there is one (--layout overrides the layout, --fresh
ignores the rest). Which classes the native module registers comes from its binary, else
the existing header, else the game's own table. Writing replaces a header atomically;
a file that is not a generated header is only replaced with --force.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.runHeaders(cmd, f, args)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.root, "root", "", "the game root of a source tree without an ini (packages named as arguments)")
	fl.StringVarP(&f.out, "output", "o", "", "the folder to write <Pkg>/Inc/<Pkg>Classes.h under (default: the game root)")
	fl.BoolVar(&f.check, "check", false, "compare with the existing headers instead of writing; exit 1 when one is stale")
	fl.BoolVar(&f.dryRun, "dry-run", false, "say what would be written without writing")
	fl.BoolVar(&f.force, "force", false, "replace a file that is not a generated header")
	fl.BoolVar(&f.fresh, "fresh", false, "ignore the existing headers' class order, name order and spellings")
	fl.StringVar(&f.layout, "layout", "", `the header layout: "ue1", "ue1-early", "undying", "ue2" or "ue2-early" (default: the existing header's, else from the game, else ue1)`)
	fl.StringVar(&f.eol, "eol", "", `line ends of a written header: "crlf" or "lf" (default: the existing header's, else crlf as ucc writes)`)
	fl.BoolVar(&f.verbose, "verbose", false, "list unchanged headers too")
	cmd.Flags().Bool("json", false, "print the report as JSON")
	return cmd
}

// headersReport is the output of `headers`; its JSON form is documented in
// README.md.
type headersReport struct {
	SchemaVersion int              `json:"schema_version"`
	Root          string           `json:"root"`
	Output        string           `json:"output"`
	Layout        string           `json:"layout"`
	Mode          string           `json:"mode"` // write, dry-run or check
	Packages      []headersPackage `json:"packages"`
	Stale         int              `json:"stale"`
	Written       int              `json:"written"`
	Diagnostics   []string         `json:"diagnostics"`
}

type headersPackage struct {
	Package string `json:"package"`
	Header  string `json:"header,omitempty"` // the path, relative to the output folder, "/"-separated
	Classes int    `json:"classes"`
	// Status: none (no native class, no header), no-sources (no
	// Classes/*.uc: not generated, not checked), current, stale, missing
	// (check: no header on disk), orphaned (a header on disk, no native
	// class), written, would-write, unchanged, refused.
	Status string `json:"status"`
	// NativesFrom says what told which classes the native module
	// registers, besides the script's native keyword: binary, header (the
	// existing one), table (the game's own), or "" (nothing).
	NativesFrom string          `json:"natives_from,omitempty"`
	Changes     []headersChange `json:"changes"`
	FirstDiff   int             `json:"first_diff_line,omitempty"` // the first differing line of the header on disk
	FirstWant   string          `json:"first_diff_want,omitempty"`
	FirstHave   string          `json:"first_diff_have,omitempty"`
	Diagnostic  string          `json:"diagnostic,omitempty"`
}

type headersChange struct {
	Class      string `json:"class"`
	Kind       string `json:"kind"`
	Name       string `json:"name"`
	Want       string `json:"want,omitempty"`
	Have       string `json:"have,omitempty"`
	File       string `json:"file,omitempty"`
	Line       int    `json:"line,omitempty"`
	HeaderLine int    `json:"header_line,omitempty"`
}

func (a *app) runHeaders(cmd *cobra.Command, f headersFlags, args []string) error {
	if f.check && f.dryRun {
		return usagef("--check and --dry-run do not go together (--check never writes)")
	}
	if f.eol != "" && f.eol != "crlf" && f.eol != "lf" {
		return usagef("--eol must be crlf or lf, not %q", f.eol)
	}
	var root string
	var pkgs, selected []string
	var nat *native.Set // the binaries read (a table in it is not used)
	game := ""          // the game profile, whose own table is the last evidence
	// compiledFile finds the .u of a package without sources.
	var compiledFile func(pkg string) string
	generation := 0
	if g, err := ini.ParseGame(a.cfg.Game); err == nil {
		generation = g.Generation
	}
	if f.root != "" {
		if a.cfg.Ini != "" {
			return usagef("--root and --ini do not go together")
		}
		if len(args) == 0 {
			return usagef("--root needs the packages to generate, in compile order")
		}
		root, pkgs = f.root, args
		compiledFile = func(pkg string) string { return findFold(filepath.Join(root, "System"), pkg+".u") }
		nat = native.NewSet()
		if files, err := native.FindBinaries([]string{filepath.Join(root, "System")}); err == nil {
			for _, p := range files {
				if b, err := native.ReadBinary(p); err == nil {
					nat.AddBinary(b)
				}
			}
		}
		game = a.cfg.Game
	} else {
		in, err := a.openInstall()
		if err != nil {
			return err
		}
		root = in.search.Root()
		generation = in.search.Generation()
		compiledFile = func(pkg string) string { return in.search.Find(pkg).File }
		pkgs = in.ini.EditPackages()
		if len(pkgs) == 0 {
			return fmt.Errorf("%s has no [Editor.EditorEngine] EditPackages", in.iniPath)
		}
		selected = args
		game = in.game.Name
		if nat, err = a.loadNatives(in); err != nil {
			return err
		}
	}
	// ucc make builds a package listed twice once, at its first place.
	var uniq []string
	for _, p := range pkgs {
		if !containsFold(uniq, p) {
			uniq = append(uniq, p)
		}
	}
	pkgs = uniq
	for _, s := range selected {
		if !containsFold(pkgs, s) {
			return usagef("%s is not in EditPackages", s)
		}
	}
	out := f.out
	if out == "" {
		out = root
	}
	// The existing headers: what ucc wrote tells the layout, and which
	// classes the native module registers when no binary does.
	existing := map[string][]byte{}        // at the output, by lower-cased package
	generated := map[string]*header.File{} // generated headers, parsed
	var written [][]byte                   // generated headers, in compile order
	for _, p := range pkgs {
		path := headerPath(out, p)
		data, err := readHeaderFile(path)
		if err != nil {
			return err
		}
		if data != nil {
			existing[strings.ToLower(p)] = data
		} else if out != root {
			// Writing elsewhere: the game's own header still tells the
			// engine's layout, order and spellings.
			path = headerPath(root, p)
			if data, err = readHeaderFile(path); err != nil {
				return err
			}
		}
		if data == nil || !isGenerated(data) {
			continue
		}
		if hf, err := header.ParseHeader(bytes.NewReader(data), path); err == nil {
			generated[strings.ToLower(p)] = hf
			written = append(written, data)
		}
	}
	layout, err := chooseLayout(f.layout, game, generation, written)
	if err != nil {
		return err
	}
	mode := "write"
	switch {
	case f.check:
		mode = "check"
	case f.dryRun:
		mode = "dry-run"
	}
	rep := headersReport{SchemaVersion: 1, Root: root, Output: out, Layout: layout.Name, Mode: mode, Packages: []headersPackage{}, Diagnostics: []string{}}

	g := header.New(layout)
	if !f.fresh {
		for _, p := range pkgs {
			if hf := generated[strings.ToLower(p)]; hf != nil {
				g.AddHints(p, header.HintsFrom(hf))
			}
		}
	}
	reg := registrations{binaries: nat, headers: generated}
	if t := native.OwnTable(game); t != nil {
		reg.table = native.NewSet()
		reg.table.AddTable(t)
	}
	hasSources := map[string]bool{}
	for _, p := range pkgs {
		pd, err := uscript.ReadPackageDecls(root, p)
		if err != nil {
			return err
		}
		hasSources[strings.ToLower(p)] = len(pd.Classes) > 0
		for _, d := range pd.Diagnostics {
			rep.Diagnostics = append(rep.Diagnostics, d.String())
		}
		if len(pd.Classes) == 0 {
			// No sources: the compiled package tells the classes the
			// later packages derive from, their functions and names.
			if path := compiledFile(p); path != "" {
				if err := addCompiled(g, p, path); err != nil {
					rep.Diagnostics = append(rep.Diagnostics, err.Error())
				}
			}
			continue
		}
		incs := incFiles(root, p)
		if err := g.Add(header.Package{Name: p, Classes: pd.Classes, Native: reg.of(p).has,
			Include: func(cpp string) bool { return incs[strings.ToLower(cpp+".h")] }}); err != nil {
			return err
		}
	}
	for _, p := range pkgs {
		if len(selected) > 0 && !containsFold(selected, p) {
			continue
		}
		var hp headersPackage
		if hasSources[strings.ToLower(p)] {
			var err error
			hp, err = a.headerFor(g, p, out, existing[strings.ToLower(p)], f, mode, reg.of(p))
			if err != nil {
				return err
			}
			if hp.Status == "orphaned" && hp.NativesFrom == "" {
				// Classes native only in C++ (UT2004's Fire) need the module.
				hp.Diagnostic += "; no binary, header or table of the game lists " + p + "'s native classes: give --game, or the binaries beside the ini"
			}
		} else {
			// Only the compiled package is there: its header (an SDK's)
			// cannot be judged, nor rewritten.
			hp = headersPackage{Package: p, Status: "no-sources", Changes: []headersChange{}}
			if existing[strings.ToLower(p)] != nil {
				hp.Header = filepath.ToSlash(filepath.Join(p, "Inc", p+"Classes.h"))
			}
		}
		switch hp.Status {
		case "stale", "missing", "orphaned":
			rep.Stale++
		case "written":
			rep.Written++
		}
		rep.Packages = append(rep.Packages, hp)
	}
	for _, d := range rep.Diagnostics {
		fmt.Fprintf(a.stderr, "upkdeps: %s\n", d)
	}
	failed := mode == "check" && rep.Stale > 0
	for _, p := range rep.Packages {
		if p.Status == "refused" {
			failed = true
		}
	}
	return a.emit(cmd.OutOrStdout(), rep, func(w io.Writer) error { return writeHeadersText(w, rep, f.verbose) }, failed)
}

// chooseLayout returns the layout named (--layout), else the one the
// existing headers show, else the game profile's, else the generation's.
func chooseLayout(name, game string, generation int, written [][]byte) (header.Layout, error) {
	if name != "" {
		l, ok := header.LayoutByName(name)
		if !ok {
			return l, usagef("unknown --layout %q (ue1, ue1-early, undying, ue2, ue2-early)", name)
		}
		return l, nil
	}
	if l, ok := header.DetectLayout(written...); ok {
		return l, nil
	}
	switch {
	case strings.EqualFold(game, "undying"):
		return header.Undying, nil
	case generation == 2:
		return header.UE2, nil
	}
	return header.UE1, nil
}

// registrations knows which classes each package's native module
// registers, from the first evidence there is: the package's own binary;
// else the classes its existing header declares (UE1) or registers
// (UE2's AUTO_INITIALIZE_REGISTRANTS), as the engine's C++ registers some
// whose script does not say native (Engine.SavedMove); else the game's own
// built-in table. Never another game's table.
type registrations struct {
	binaries *native.Set
	headers  map[string]*header.File // generated headers by lower-cased package
	table    *native.Set             // the game's own table, or nil
}

// registration is the evidence for one package.
type registration struct {
	from string // binary, header, table or ""
	has  func(class string) bool
}

func (r registrations) of(pkg string) registration {
	switch {
	case r.binaries.FromBinary(pkg):
		return registration{"binary", func(c string) bool { return r.binaries.Has(pkg, c) }}
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
		return registration{"header", func(c string) bool { return set[strings.ToLower(c)] }}
	case r.table.HasPackage(pkg):
		return registration{"table", func(c string) bool { return r.table.Has(pkg, c) }}
	}
	return registration{"", func(string) bool { return false }}
}

// notRegistered says why a class declared without native is not exported.
func (r registration) notRegistered(pkg string) string {
	switch r.from {
	case "binary":
		return pkg + "'s binary does not register it"
	case "table":
		return "the game's table does not list it: give the binaries beside the ini"
	}
	return "no binary or table of the game registers it: give --game, or the binaries beside the ini"
}

// addCompiled adds the compiled package at path to the generator.
func addCompiled(g *header.Generator, pkg, path string) error {
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

// findFold returns dir/name, matching name ignoring case, or "".
func findFold(dir, name string) string {
	if st, err := os.Stat(filepath.Join(dir, name)); err == nil && st.Mode().IsRegular() {
		return filepath.Join(dir, name)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	for _, e := range entries {
		if strings.EqualFold(e.Name(), name) && e.Type().IsRegular() {
			return filepath.Join(dir, e.Name())
		}
	}
	return ""
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// headerPath is where ucc writes a package's header.
func headerPath(dir, pkg string) string {
	return filepath.Join(dir, pkg, "Inc", pkg+"Classes.h")
}

// readHeaderFile reads an existing header, nil when there is none.
func readHeaderFile(path string) ([]byte, error) {
	data, err := fsutil.ReadRegular(path, header.MaxHeaderSize)
	var big *fsutil.TooBigError
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, nil
	case errors.Is(err, fsutil.ErrNotRegular):
		return nil, fmt.Errorf("%s is not a regular file", path)
	case errors.As(err, &big):
		return nil, fmt.Errorf("%s: %d bytes, more than the %d-byte limit for a header", path, big.Size, header.MaxHeaderSize)
	}
	return data, err
}

// isGenerated reports whether a file is a header ucc make -h (or this
// command) wrote.
func isGenerated(data []byte) bool {
	head := data[:min(len(data), 512)]
	return bytes.Contains(head, []byte("C++ class definitions exported from UnrealScript"))
}

func lfOnly(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")) }

func (a *app) headerFor(g *header.Generator, pkg, out string, old []byte, f headersFlags, mode string, ev registration) (headersPackage, error) {
	path := headerPath(out, pkg)
	rel := filepath.ToSlash(filepath.Join(pkg, "Inc", pkg+"Classes.h"))
	hp := headersPackage{Package: pkg, Changes: []headersChange{}, NativesFrom: ev.from}
	text, model, ok, err := g.Header(pkg)
	if err != nil {
		return hp, err
	}
	if !ok {
		hp.Status = "none"
		if old != nil {
			hp.Header = rel
			if mode == "check" {
				hp.Status = "orphaned"
				hp.Diagnostic = "the sources export no native class, but the header exists"
			}
		}
		return hp, nil
	}
	hp.Header = rel
	hp.Classes = len(model.Classes)
	same := old != nil && bytes.Equal(lfOnly(old), text)
	if mode == "check" {
		switch {
		case old == nil:
			hp.Status = "missing"
		case same:
			hp.Status = "current"
		default:
			hp.Status = "stale"
			have, err := header.ParseHeader(bytes.NewReader(old), path)
			if err != nil {
				return hp, err
			}
			for _, c := range header.Diff(model, have) {
				hc := headersChange{Class: c.Class, Kind: c.Kind, Name: c.Name, Want: c.Want, Have: c.Have, Line: c.Line, HeaderLine: c.HeaderLine}
				if c.Kind == header.ClassRemoved {
					// Still declared, but not native in its script and not
					// registered by a native module known here.
					if file, line, exported, ok := g.Declared(pkg, c.Class); ok && !exported {
						c.File, hc.Line = file, line
						hc.Want = "declared without native; " + ev.notRegistered(pkg)
					}
				}
				if c.File != "" {
					hc.File = a.relTo(out, c.File)
				}
				hp.Changes = append(hp.Changes, hc)
			}
			hp.FirstDiff, hp.FirstWant, hp.FirstHave = firstDiff(text, lfOnly(old))
		}
		return hp, nil
	}
	if same {
		hp.Status = "unchanged"
		return hp, nil
	}
	if old != nil && !isGenerated(old) && !f.force {
		hp.Status = "refused"
		hp.Diagnostic = "the file there is not a generated header; --force replaces it"
		return hp, nil
	}
	eol := f.eol
	if eol == "" {
		eol = "crlf"
		if old != nil && !bytes.Contains(old, []byte("\r\n")) {
			eol = "lf"
		}
	}
	if eol == "crlf" {
		text = bytes.ReplaceAll(text, []byte("\n"), []byte("\r\n"))
	}
	if mode == "dry-run" {
		hp.Status = "would-write"
		return hp, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return hp, err
	}
	if err := fsutil.WriteFileAtomic(path, text, 0o644); err != nil {
		return hp, err
	}
	hp.Status = "written"
	return hp, nil
}

// relTo returns path relative to dir with "/", or path with "/" when it is
// not under dir.
func (a *app) relTo(dir, path string) string {
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

func writeHeadersText(w io.Writer, rep headersReport, verbose bool) error {
	bw := &errWriter{w: w}
	bw.printf("upkdeps headers: %s (layout %s, %s)\n", rep.Root, rep.Layout, rep.Mode)
	for _, p := range rep.Packages {
		switch p.Status {
		case "none":
			if verbose {
				bw.printf("%s: no native class, no header\n", p.Package)
			}
			continue
		case "no-sources":
			if verbose || p.Header != "" {
				bw.printf("%s: no sources (Classes/*.uc): header not generated or checked\n", p.Package)
			}
			continue
		case "current", "unchanged":
			if verbose {
				bw.printf("%s: %s up to date (%d classes)\n", p.Package, p.Header, p.Classes)
			}
			continue
		}
		switch p.Status {
		case "stale":
			bw.printf("%s: %s is STALE (%d classes)\n", p.Package, p.Header, p.Classes)
		case "missing":
			bw.printf("%s: %s is MISSING (%d classes)\n", p.Package, p.Header, p.Classes)
		case "orphaned":
			bw.printf("%s: %s: %s\n", p.Package, p.Header, p.Diagnostic)
		case "written":
			bw.printf("%s: wrote %s (%d classes)\n", p.Package, p.Header, p.Classes)
		case "would-write":
			bw.printf("%s: would write %s (%d classes)\n", p.Package, p.Header, p.Classes)
		case "refused":
			bw.printf("%s: not writing %s: %s\n", p.Package, p.Header, p.Diagnostic)
		}
		class := ""
		for _, c := range p.Changes {
			if c.Class != class && c.Class != "" {
				class = c.Class
				bw.printf("  %s:\n", class)
			}
			bw.printf("    %s\n", changeText(c, p.Header))
		}
		switch {
		case p.Status == "stale" && len(p.Changes) == 0:
			bw.printf("    layout differs at line %d (order or spelling):\n      want: %s\n      have: %s\n", p.FirstDiff, p.FirstWant, p.FirstHave)
		case p.Status == "stale":
			bw.printf("    first differing line %d:\n      want: %s\n      have: %s\n", p.FirstDiff, p.FirstWant, p.FirstHave)
		}
	}
	switch rep.Mode {
	case "check":
		if rep.Stale == 0 {
			bw.printf("All headers match their sources.\n")
		} else {
			bw.printf("%d header(s) stale.\n", rep.Stale)
		}
	case "write":
		bw.printf("%d header(s) written.\n", rep.Written)
	}
	return bw.err
}

// changeText formats one change: where, what, want and have.
func changeText(c headersChange, hdr string) string {
	var at string
	switch {
	case c.File != "":
		at = fmt.Sprintf("%s:%d: ", c.File, c.Line)
	case c.HeaderLine > 0:
		at = fmt.Sprintf("%s:%d: ", hdr, c.HeaderLine)
	}
	s := at + c.Kind + ": " + c.Name
	switch c.Kind {
	case header.NamesChanged:
		s = at + c.Kind + ":"
		if c.Want != "" {
			s += " added " + c.Want
		}
		if c.Have != "" {
			if c.Want != "" {
				s += ";"
			}
			s += " removed " + c.Have
		}
		return s
	case header.OrderChanged:
		return s + " (the same, in another order)"
	case header.PackingChanged:
		s += fmt.Sprintf(": want %s, have %s", c.Want, c.Have)
		if c.File != "" && c.HeaderLine > 0 {
			s += fmt.Sprintf(" [%s:%d]", path.Base(hdr), c.HeaderLine)
		}
		return s
	}
	switch {
	case c.Want != "" && c.Have != "":
		s += fmt.Sprintf(" (want %s, have %s)", c.Want, c.Have)
	case c.Want != "":
		s += " (" + c.Want + ")"
	case c.Have != "":
		s += " (was " + c.Have + ")"
	}
	if c.File != "" && c.HeaderLine > 0 {
		s += fmt.Sprintf(" [%s:%d]", path.Base(hdr), c.HeaderLine)
	}
	return s
}
