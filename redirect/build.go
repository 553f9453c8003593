package redirect

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/upkdeps/upkdeps/internal/dirlock"
	"github.com/upkdeps/upkdeps/internal/fsutil"
	"github.com/upkdeps/upkdeps/internal/par"
	"github.com/upkdeps/upkdeps/uz"
)

// Op is what a build Action does to its file.
type Op string

// Build operations.
const (
	OpCreate Op = "create" // the file is missing: write it
	OpUpdate Op = "update" // the file is outdated or damaged: replace it
	OpKeep   Op = "keep"   // the file is current: leave it
)

// Action is one file of a build: a compressed package, its lower-case
// copy, or manifest.json.
type Action struct {
	Op      Op     `json:"op"`
	Package string `json:"package,omitempty"` // "" for manifest.json
	Source  string `json:"source,omitempty"`  // the server's copy, relative to the game root
	File    string `json:"file"`              // name in the output folder
	CopyOf  string `json:"copy_of,omitempty"` // a lower-case copy: the file it copies
	Reason  string `json:"reason,omitempty"`  // why this op
	// Outcome of a real run: the bytes written, or why it failed.
	Size           int64  `json:"size,omitempty"`
	CompressedSize int64  `json:"compressed_size,omitempty"`
	Error          string `json:"error,omitempty"`
}

// BuildOptions configure Build.
type BuildOptions struct {
	Out         string // the redirect folder (created when missing)
	Lowercase   bool   // also write a lower-case-named copy of each file, for case-sensitive web servers
	Force       bool   // rewrite every file, even those that look current
	AllowBigger bool   // publish a .uz even when it is larger than its package
	DryRun      bool   // plan only: return the actions a real run performs, write nothing
	Jobs        int    // files checked and compressed in parallel (0 or less: one per core)
	// Progress, when set, is called with the number of files of each phase
	// (checking, then writing); the returned func after each file.
	Progress func(total int) func()
}

// BuildReport is the result of Build, what `upkdeps redirect build --json`
// prints (docs/json.md).
type BuildReport struct {
	SchemaVersion  int      `json:"schema_version"`
	Server                  // the install, as the map's options named it
	Out            string   `json:"out"` // "" in a dry run without a folder
	DryRun         bool     `json:"dry_run"`
	Maps           []string `json:"maps"`            // the map's maps (Map.Maps)
	ServerPackages []string `json:"server_packages"` // the map's ServerPackages (Map.ServerPackages)
	Packages       int      `json:"packages"`        // the packages published
	Actions        []Action `json:"actions"`         // by package, each file before its lower-case copy; manifest.json last
	// Findings are the map's warnings plus an error per file that could not
	// be written.
	Findings []Finding    `json:"findings"`
	Summary  BuildSummary `json:"summary"`
	// Removed lists the temporary files of killed earlier writes that a
	// real run removed from Out first.
	Removed []string `json:"-"`
}

// Counts returns how many actions have each op, and how many failed.
func (r *BuildReport) Counts() (created, updated, kept, failed int) {
	for _, a := range r.Actions {
		switch {
		case a.Error != "":
			failed++
		case a.Op == OpCreate:
			created++
		case a.Op == OpUpdate:
			updated++
		default:
			kept++
		}
	}
	return
}

// job is the plan for one published package.
type job struct {
	e     Entry
	main  Action
	lower *Action       // the lower-case copy, when one is due
	entry ManifestEntry // for a kept file: its manifest entry
	err   error         // why writing the main file failed
}

// Build writes the compressed file of every published package of m into
// opt.Out when it is missing or outdated, and manifest.json. A file is
// current when manifest.json (from an earlier build) lists it with the GUID
// and size of the server's copy and the file still has the size, header and
// SHA-256 recorded there (reading the compressed file, never the package); a
// file the manifest does not vouch for is decompressed and compared with the
// server's copy byte for byte. A package changed without a new GUID or size
// is therefore not noticed through the manifest: Force rewrites everything.
// Every write is atomic.
//
// The plan is made first; with opt.DryRun it is returned as it is, so a dry
// run lists exactly the actions a real run performs. A file that cannot be
// written (a .uz larger than its package without AllowBigger, an I/O error)
// is an error Finding and the action's Error; the other files are still
// written. The returned error is for failures that stop everything
// (cancellation, the output folder).
//
// A dry run without opt.Out shows what a new, empty folder would get: it
// plans into a folder that does not exist, and the report's Out is "".
func Build(ctx context.Context, m *Map, opt BuildOptions) (*BuildReport, error) {
	if opt.Out != "" {
		return buildInto(ctx, m, opt)
	}
	if !opt.DryRun {
		return nil, errors.New("redirect: no folder to build into (BuildOptions.Out)")
	}
	// A folder of our own that we do not create: a dry run creates nothing.
	tmp, err := os.MkdirTemp("", "upkdeps-dry-run-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	opt.Out = filepath.Join(tmp, "redirect")
	rep, err := buildInto(ctx, m, opt)
	if rep != nil {
		rep.Out = ""
	}
	return rep, err
}

// buildInto is Build into opt.Out.
func buildInto(ctx context.Context, m *Map, opt BuildOptions) (*BuildReport, error) {
	rep := &BuildReport{Out: opt.Out, DryRun: opt.DryRun, Findings: append([]Finding{}, m.Findings...)}
	if st, err := os.Stat(opt.Out); err == nil && !st.IsDir() {
		return nil, fmt.Errorf("redirect: %s is not a folder", opt.Out)
	}
	if !opt.DryRun {
		// The plan is made and carried out under the folder's lock, so no
		// other build changes the files it checked; the temporary files
		// left by killed builds can go, as no other build is writing.
		if err := os.MkdirAll(opt.Out, 0o755); err != nil {
			return nil, fmt.Errorf("redirect: %w", err)
		}
		lock, err := dirlock.Dir(opt.Out, "upkdeps redirect build")
		if err != nil {
			return nil, err
		}
		defer lock.Unlock()
		temps, err := fsutil.StaleTemps(opt.Out, nil)
		if err != nil {
			return nil, fmt.Errorf("redirect: %w", err)
		}
		for _, tmp := range temps {
			if err := fsutil.RemoveFile(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("redirect: %w", err)
			}
			rep.Removed = append(rep.Removed, tmp)
		}
	}
	if opt.Lowercase && foldsCase(opt.Out) {
		// A copy named in lower case would be the file itself (the
		// write would skip it): say so once instead of reporting copies.
		opt.Lowercase = false
		rep.Findings = append(rep.Findings, Finding{Kind: LowercaseFolded, Severity: Warning,
			Message: fmt.Sprintf("lower-case copies not written: %s is on a case-insensitive file system (Windows, macOS), where each file answers to its lower-case name already; a case-sensitive web server needs the folder built on its own file system", opt.Out)})
	}
	old, err := ReadManifest(opt.Out)
	if err != nil {
		rep.Findings = append(rep.Findings, Finding{Kind: ManifestProblem, Severity: Warning, File: ManifestName,
			Message: fmt.Sprintf("ignored (%v): every file is checked by decompressing it", err)})
		old = nil
	}
	jobs, err := plan(ctx, m.Published(), old.byCompressed(), opt)
	if err != nil {
		return nil, err
	}
	manifest := planManifest(jobs, opt.Out)
	if !opt.DryRun {
		if err := run(ctx, jobs, opt); err != nil {
			return nil, err
		}
		writeManifest(jobs, &manifest, opt.Out)
	}
	for _, j := range jobs {
		rep.Actions = append(rep.Actions, j.main)
		if j.lower != nil {
			rep.Actions = append(rep.Actions, *j.lower)
		}
		if j.err != nil {
			kind := WriteFailed
			if errors.Is(j.err, ErrBigger) {
				kind = BiggerThanSrc
			}
			rep.Findings = append(rep.Findings, Finding{Kind: kind, Severity: Error, Package: j.e.Name, File: j.main.File, Message: j.main.Error})
		} else if j.lower != nil && j.lower.Error != "" {
			rep.Findings = append(rep.Findings, Finding{Kind: WriteFailed, Severity: Error, Package: j.e.Name, File: j.lower.File, Message: j.lower.Error})
		}
	}
	rep.Actions = append(rep.Actions, manifest)
	if manifest.Error != "" {
		rep.Findings = append(rep.Findings, Finding{Kind: WriteFailed, Severity: Error, File: ManifestName, Message: manifest.Error})
	}
	sortFindings(rep.Findings)
	rep.finish(m)
	return rep, nil
}

// plan decides, in parallel, what to do with each entry's files.
func plan(ctx context.Context, entries []Entry, old map[string]ManifestEntry, opt BuildOptions) ([]*job, error) {
	jobs := make([]*job, len(entries))
	var done func()
	if opt.Progress != nil && len(entries) > 0 {
		done = opt.Progress(len(entries))
	}
	err := parallel(ctx, len(entries), opt.Jobs, func(i int) {
		jobs[i] = planOne(entries[i], old, opt)
		if done != nil {
			done()
		}
	})
	return jobs, err
}

func planOne(e Entry, old map[string]ManifestEntry, opt BuildOptions) *job {
	j := &job{e: e, main: Action{Package: e.Name, Source: e.Rel, File: e.Compressed}}
	dst := filepath.Join(opt.Out, e.Compressed)
	st, err := os.Stat(dst)
	me, listed := old[e.Compressed]
	switch {
	case errors.Is(err, fs.ErrNotExist):
		j.main.Op, j.main.Reason = OpCreate, "missing"
	case err != nil:
		j.main.Op, j.main.Reason = OpUpdate, err.Error()
	case opt.Force:
		j.main.Op, j.main.Reason = OpUpdate, "rebuild forced"
	case !st.Mode().IsRegular():
		j.main.Op, j.main.Reason = OpUpdate, "not a regular file"
	case listed && me.Name == e.Name && me.File == e.Base && me.GUID == e.GUID && me.Size == e.Size &&
		me.CompressedSize == st.Size() && headerMatches(dst, e) && fileSHA256(dst) == me.CompressedSHA256:
		j.main.Op, j.main.Reason = OpKeep, "current (manifest.json)"
		j.entry = me
	default:
		c := checkFile(dst, e)
		var sig string
		for _, n := range c.notes {
			if n.kind == NewSignature {
				sig = n.msg
			}
		}
		switch {
		case c.problem != "":
			j.main.Op, j.main.Reason = OpUpdate, string(c.problem)+": "+c.message
		case sig != "":
			j.main.Op, j.main.Reason = OpUpdate, sig
		default:
			j.main.Op, j.main.Reason = OpKeep, "current (decompresses to the server's copy)"
			j.entry = ManifestEntry{Name: e.Name, File: e.Base, GUID: e.GUID, Size: e.Size, SHA256: c.sha256,
				CompressedFile: e.Compressed, CompressedSize: c.compressedSize, CompressedSHA256: c.compressedSHA256}
		}
	}
	j.entry.LowercaseFile = ""
	if lower := strings.ToLower(e.Compressed); opt.Lowercase && lower != e.Compressed {
		j.lower = planCopy(j.main.Op, dst, filepath.Join(opt.Out, lower), e)
		j.entry.LowercaseFile = lower
	}
	return j
}

// foldsCase reports whether the file system holding dir (or its nearest
// existing parent, before a first build) finds a name in another case, as
// Windows' and macOS's do. It writes nothing, as a dry run asks too: it
// looks the folder up by its name in swapped case.
func foldsCase(dir string) bool {
	p, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	for {
		base := filepath.Base(p)
		swapped := strings.Map(func(r rune) rune {
			if unicode.IsUpper(r) {
				return unicode.ToLower(r)
			}
			return unicode.ToUpper(r)
		}, base)
		if st, err := os.Stat(p); err == nil && swapped != base {
			other, err := os.Stat(filepath.Join(filepath.Dir(p), swapped))
			return err == nil && os.SameFile(st, other)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return false
		}
		p = parent
	}
}

// fileSHA256 returns the hex SHA-256 of the file at path ("" when it
// cannot be read).
func fileSHA256(path string) string {
	f, err := fsutil.OpenRegular(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	c := newCounter()
	if _, err := io.Copy(c, f); err != nil {
		return ""
	}
	return c.sum()
}

// planCopy plans the lower-case copy at path of the file dst.
func planCopy(mainOp Op, dst, path string, e Entry) *Action {
	a := &Action{Package: e.Name, Source: e.Rel, File: filepath.Base(path), CopyOf: e.Compressed}
	_, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		a.Op, a.Reason = OpCreate, "missing"
	case err != nil:
		a.Op, a.Reason = OpUpdate, err.Error()
	case mainOp != OpKeep:
		a.Op, a.Reason = OpUpdate, e.Compressed+" changes"
	default:
		if same, err := fsutil.SameContent(dst, path); err != nil || !same {
			a.Op, a.Reason = OpUpdate, "differs from "+e.Compressed
		} else {
			a.Op = OpKeep
		}
	}
	return a
}

// planManifest decides what happens to manifest.json: kept when every file
// is kept and it already holds what would be written.
func planManifest(jobs []*job, out string) Action {
	a := Action{File: ManifestName}
	// Through the regular-file rule: a named pipe called manifest.json in
	// --out must not block the build.
	existing, err := fsutil.ReadRegular(filepath.Join(out, ManifestName), maxManifestSize)
	if err != nil {
		a.Op, a.Reason = OpCreate, "missing"
		return a
	}
	for _, j := range jobs {
		if j.main.Op != OpKeep {
			a.Op, a.Reason = OpUpdate, "files change"
			return a
		}
	}
	if !bytes.Equal(existing, newManifest(jobs).marshal()) {
		a.Op, a.Reason = OpUpdate, "out of date"
		return a
	}
	a.Op = OpKeep
	return a
}

// newManifest lists the files that are current after the run.
func newManifest(jobs []*job) *Manifest {
	m := &Manifest{SchemaVersion: ManifestSchema, Entries: []ManifestEntry{}}
	for _, j := range jobs {
		if j.main.Error == "" {
			m.Entries = append(m.Entries, j.entry)
		}
	}
	return m
}

// run performs the planned writes in parallel.
func run(ctx context.Context, jobs []*job, opt BuildOptions) error {
	var todo []*job
	for _, j := range jobs {
		if j.main.Op != OpKeep || (j.lower != nil && j.lower.Op != OpKeep) {
			todo = append(todo, j)
		}
	}
	var done func()
	if opt.Progress != nil && len(todo) > 0 {
		done = opt.Progress(len(todo))
	}
	return parallel(ctx, len(todo), opt.Jobs, func(i int) {
		write(ctx, todo[i], opt)
		if done != nil {
			done()
		}
	})
}

// write compresses one package and copies it to its lower-case name.
func write(ctx context.Context, j *job, opt BuildOptions) {
	e := j.e
	dst := filepath.Join(opt.Out, e.Compressed)
	if j.main.Op != OpKeep {
		res, err := CompressFile(ctx, e.File, dst, CompressOptions{Kind: e.Kind, Signature: uz.Sig1234, Workers: 1,
			AllowBigger: opt.AllowBigger, Force: true})
		if err != nil {
			j.err, j.main.Error = err, err.Error()
			if j.lower != nil {
				j.lower.Error = "not written: " + e.Compressed + " failed"
			}
			return
		}
		j.main.Size, j.main.CompressedSize = res.Size, res.CompressedSize
		j.entry = ManifestEntry{Name: e.Name, File: e.Base, GUID: e.GUID, Size: res.Size, SHA256: res.SHA256,
			CompressedFile: e.Compressed, CompressedSize: res.CompressedSize, CompressedSHA256: res.CompressedSHA256,
			LowercaseFile: j.entry.LowercaseFile}
	}
	if j.lower == nil || j.lower.Op == OpKeep {
		return
	}
	path := filepath.Join(opt.Out, j.lower.File)
	if sameFile(dst, path) {
		return // a case-insensitive file system: the file itself answers to the lower-case name
	}
	if err := fsutil.CopyFileAtomic(dst, path, true); err != nil {
		j.lower.Error = err.Error()
		return
	}
	if st, err := os.Stat(path); err == nil {
		j.lower.CompressedSize = st.Size()
	}
}

// writeManifest writes manifest.json when the plan says so.
func writeManifest(jobs []*job, a *Action, out string) {
	if a.Op == OpKeep {
		return
	}
	if err := fsutil.WriteFileAtomic(filepath.Join(out, ManifestName), newManifest(jobs).marshal(), 0o644); err != nil {
		a.Error = err.Error()
	}
}

// parallel calls fn(i) for i in [0, n) on up to jobs goroutines. It stops
// handing out work when ctx is cancelled and then returns ctx's error.
func parallel(ctx context.Context, n, jobs int, fn func(i int)) error {
	return par.ForEach(ctx, n, jobs, func(_, i int) { fn(i) })
}
