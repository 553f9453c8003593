package redirect

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/upkdeps/upkdeps/internal/fsutil"
	"github.com/upkdeps/upkdeps/uz"
)

// VerifyOptions configure Verify.
type VerifyOptions struct {
	Dir  string // the redirect folder
	Jobs int    // files checked in parallel (0 or less: one per core)
	// Progress, when set, is called once with the number of files to
	// check; the returned func after each file.
	Progress func(total int) func()
}

// VerifyReport is the result of Verify, what `upkdeps redirect verify
// --json` prints (docs/json.md).
type VerifyReport struct {
	SchemaVersion int      `json:"schema_version"`
	Server                 // the install, as the map's options named it
	Dir           string   `json:"dir"`
	Maps          []string `json:"maps"`     // the map's maps (Map.Maps)
	Packages      int      `json:"packages"` // published packages of the map
	Checked       int      `json:"checked"`  // files decompressed and compared with the server's copy
	// Findings are sorted, errors first: the map's warnings, then for each
	// file what is wrong with it.
	Findings []Finding `json:"findings"`
	Summary  Summary   `json:"summary"`
}

// check is one file of the folder to decompress and compare.
type check struct {
	e    Entry
	file string // name in the folder
}

// Verify checks the redirect folder opt.Dir against the package map m: the
// file of every published package must exist under its exact name (a
// case-sensitive web server finds nothing else), be in the format its
// clients read, and decompress cleanly to the server's copy, byte for byte;
// a file that differs is an older version (another GUID or size) or
// corrupt. The files of unpublished packages (retail, not downloadable) and
// lower-case copies are checked when present. Files no package needs are
// warnings. The returned error is for failures that stop everything (the
// folder cannot be listed, cancellation).
func Verify(ctx context.Context, m *Map, opt VerifyOptions) (*VerifyReport, error) {
	dirents, err := os.ReadDir(opt.Dir)
	if err != nil {
		return nil, fmt.Errorf("redirect: %w", err)
	}
	v := &verifier{
		rep:     &VerifyReport{Dir: opt.Dir, Findings: append([]Finding{}, m.Findings...)},
		files:   map[string]bool{},
		byLower: map[string][]string{},
		known:   map[string]bool{ManifestName: true, fsutil.LockName: true},
	}
	for _, d := range dirents {
		if d.Type().IsRegular() {
			v.files[d.Name()] = true
			v.byLower[strings.ToLower(d.Name())] = append(v.byLower[strings.ToLower(d.Name())], d.Name())
		}
	}
	for _, e := range m.Entries {
		v.entry(e)
	}
	results := make([]fileCheck, len(v.checks))
	var done func()
	if opt.Progress != nil && len(v.checks) > 0 {
		done = opt.Progress(len(v.checks))
	}
	err = parallel(ctx, len(v.checks), opt.Jobs, func(i int) {
		results[i] = checkFile(filepath.Join(opt.Dir, v.checks[i].file), v.checks[i].e)
		if done != nil {
			done()
		}
	})
	if err != nil {
		return nil, err
	}
	v.rep.Checked = len(v.checks)
	for i, c := range results {
		e, file := v.checks[i].e, v.checks[i].file
		if c.problem != "" {
			v.add(e, c.problem, Error, file, fmt.Sprintf("%s %s", file, c.message))
		}
		for _, n := range c.notes {
			v.add(e, n.kind, Warning, file, fmt.Sprintf("%s %s", file, n.msg))
		}
	}
	v.extra()
	sortFindings(v.rep.Findings)
	v.rep.finish(m)
	return v.rep, nil
}

// verifier holds what Verify learns of the redirect folder: its regular
// files, by name and by lower-case name, the ones a package of the map
// accounts for, and the files to check.
type verifier struct {
	rep     *VerifyReport
	files   map[string]bool
	byLower map[string][]string
	known   map[string]bool
	checks  []check
}

func (v *verifier) add(e Entry, kind FindingKind, sev Severity, file, msg string) {
	v.rep.Findings = append(v.rep.Findings, Finding{Kind: kind, Severity: sev, Package: e.Name, File: file, Message: msg})
}

// entry finds the file (or files) of the map's entry e in the folder: the
// ones to check, or the finding that it is there only in another case or
// not at all.
func (v *verifier) entry(e Entry) {
	if e.Publish {
		v.rep.Packages++
	}
	lower := strings.ToLower(e.Compressed)
	hasLower := lower != e.Compressed && v.files[lower]
	var variants []string // the name in another case (the lower-case copy too)
	for _, o := range v.byLower[lower] {
		if o != e.Compressed {
			variants = append(variants, o)
		}
	}
	switch {
	case v.files[e.Compressed]:
		v.checks = append(v.checks, check{e, e.Compressed})
		v.known[e.Compressed] = true
	case !e.Publish:
	case len(variants) > 0:
		v.add(e, WrongCase, Error, variants[0], fmt.Sprintf("clients ask for %s, but only %s exists: a case-sensitive web server answers 404",
			e.Compressed, strings.Join(variants, ", ")))
		for _, o := range variants {
			if o != lower {
				v.checks = append(v.checks, check{e, o})
				v.known[o] = true
			}
		}
	default:
		msg := fmt.Sprintf("%s (%s) is not in the redirect folder: clients cannot download it", e.Compressed, e.Rel)
		other := uz.CompressedName(e.Base, otherKind(e.Kind))
		for _, o := range v.byLower[strings.ToLower(other)] {
			msg += fmt.Sprintf(" (%s is there, but clients of package version %d read %s files)", o, e.Version, e.Kind.Ext())
			v.known[o] = true
		}
		v.add(e, Missing, Error, e.Compressed, msg)
	}
	if hasLower {
		v.checks = append(v.checks, check{e, lower})
		v.known[lower] = true
	}
}

// extra reports, in name order, each file of the folder no package of the
// map accounts for (a temporary file as one).
func (v *verifier) extra() {
	var extra []string
	for name := range v.files {
		if !v.known[name] {
			extra = append(extra, name)
		}
	}
	slices.Sort(extra)
	for _, name := range extra {
		msg := fmt.Sprintf("%s: no package of the map needs it", name)
		if fsutil.IsTemp(name) {
			msg = fmt.Sprintf("%s: a temporary file left by an interrupted write; safe to delete", name)
		}
		v.rep.Findings = append(v.rep.Findings, Finding{Kind: Extra, Severity: Warning, File: name, Message: msg})
	}
}

func otherKind(k uz.Kind) uz.Kind {
	if k == uz.KindUZ {
		return uz.KindUZ2
	}
	return uz.KindUZ
}
