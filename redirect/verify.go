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
	rep := &VerifyReport{Dir: opt.Dir, Findings: append([]Finding{}, m.Findings...)}
	files := map[string]bool{}
	byLower := map[string][]string{}
	for _, d := range dirents {
		if d.Type().IsRegular() {
			files[d.Name()] = true
			byLower[strings.ToLower(d.Name())] = append(byLower[strings.ToLower(d.Name())], d.Name())
		}
	}
	known := map[string]bool{ManifestName: true, fsutil.LockName: true}
	add := func(e Entry, kind FindingKind, sev Severity, file, msg string) {
		rep.Findings = append(rep.Findings, Finding{Kind: kind, Severity: sev, Package: e.Name, File: file, Message: msg})
	}
	var checks []check
	for _, e := range m.Entries {
		if e.Publish {
			rep.Packages++
		}
		lower := strings.ToLower(e.Compressed)
		hasLower := lower != e.Compressed && files[lower]
		var variants []string // the name in another case (the lower-case copy too)
		for _, o := range byLower[lower] {
			if o != e.Compressed {
				variants = append(variants, o)
			}
		}
		switch {
		case files[e.Compressed]:
			checks = append(checks, check{e, e.Compressed})
			known[e.Compressed] = true
		case !e.Publish:
		case len(variants) > 0:
			add(e, WrongCase, Error, variants[0], fmt.Sprintf("clients ask for %s, but only %s exists: a case-sensitive web server answers 404",
				e.Compressed, strings.Join(variants, ", ")))
			for _, o := range variants {
				if o != lower {
					checks = append(checks, check{e, o})
					known[o] = true
				}
			}
		default:
			msg := fmt.Sprintf("%s (%s) is not in the redirect folder: clients cannot download it", e.Compressed, e.Rel)
			other := uz.CompressedName(e.Base, otherKind(e.Kind))
			for _, o := range byLower[strings.ToLower(other)] {
				msg += fmt.Sprintf(" (%s is there, but clients of package version %d read %s files)", o, e.Version, e.Kind.Ext())
				known[o] = true
			}
			add(e, Missing, Error, e.Compressed, msg)
		}
		if hasLower {
			checks = append(checks, check{e, lower})
			known[lower] = true
		}
	}
	results := make([]fileCheck, len(checks))
	var done func()
	if opt.Progress != nil && len(checks) > 0 {
		done = opt.Progress(len(checks))
	}
	err = parallel(ctx, len(checks), opt.Jobs, func(i int) {
		results[i] = checkFile(filepath.Join(opt.Dir, checks[i].file), checks[i].e)
		if done != nil {
			done()
		}
	})
	if err != nil {
		return nil, err
	}
	rep.Checked = len(checks)
	for i, c := range results {
		e, file := checks[i].e, checks[i].file
		if c.problem != "" {
			add(e, c.problem, Error, file, fmt.Sprintf("%s %s", file, c.message))
		}
		for _, n := range c.notes {
			add(e, n.kind, Warning, file, fmt.Sprintf("%s %s", file, n.msg))
		}
	}
	var extra []string
	for name := range files {
		if !known[name] {
			extra = append(extra, name)
		}
	}
	slices.Sort(extra)
	for _, name := range extra {
		msg := fmt.Sprintf("%s: no package of the map needs it", name)
		if fsutil.IsTemp(name) {
			msg = fmt.Sprintf("%s: a temporary file left by an interrupted write; safe to delete", name)
		}
		rep.Findings = append(rep.Findings, Finding{Kind: Extra, Severity: Warning, File: name, Message: msg})
	}
	sortFindings(rep.Findings)
	rep.finish(m)
	return rep, nil
}

func otherKind(k uz.Kind) uz.Kind {
	if k == uz.KindUZ {
		return uz.KindUZ2
	}
	return uz.KindUZ
}
