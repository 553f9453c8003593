package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/upkdeps/upkdeps/archive"
	"github.com/upkdeps/upkdeps/cache"
	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/internal/fsutil"
	"github.com/upkdeps/upkdeps/internal/par"
)

// AddOptions adjust Add.
type AddOptions struct {
	Jobs   int            // parallel readers (0 or less: one per core)
	Limits archive.Limits // per archive; zero fields take archive.DefaultLimits
	// Progress, when set, is called once with the number of files to read
	// and then after each one.
	Progress func(total int) func()
}

// AddResult says what Add did.
type AddResult struct {
	Source    Source      `json:"source"`
	Read      int         `json:"read"`      // files and members read
	Unchanged int         `json:"unchanged"` // skipped: same size and mtime (or member CRC)
	Removed   int         `json:"removed"`   // rows of files that are gone
	Packages  int         `json:"packages"`  // packages found in what was read
	Errors    []FileError `json:"errors"`
}

// InterruptedError is Add's error when its context was cancelled: the
// batches written before stay in the index (find sees them), and adding
// the source again completes it.
type InterruptedError struct {
	Source      string // the source's absolute location
	Done, Total int    // files indexed of the files the source holds
	Err         error  // the context's error
}

func (e *InterruptedError) Error() string {
	return fmt.Sprintf("%s: %d of %d file(s) indexed when interrupted (%v): adding it again completes it", e.Source, e.Done, e.Total, e.Err)
}

func (e *InterruptedError) Unwrap() error { return e.Err }

// FileError is a file or member that could not be read.
type FileError struct {
	Path   string `json:"path"`
	Member string `json:"member,omitempty"`
	Error  string `json:"error"`
}

// batchSize is how many files one worker round reads before their rows are
// written in one transaction: it bounds the memory of summaries held.
const batchSize = 64

type fileKey struct{ path, member string }

type fileRow struct {
	id    int64
	size  int64
	mtime int64
	crc   uint32
}

// job is one file to look at.
type job struct {
	path     string // absolute
	size     int64
	mtime    int64
	fileName string // the name it installs as (cache files: from cache.ini)
	archive  bool
}

// result is one file or member looked at.
type result struct {
	key       fileKey
	size      int64
	mtime     int64
	crc       uint32
	err       string
	pkg       *pkgInfo
	unchanged bool // keep the row (and, for an archive, all its members' rows)
	whole     bool // unchanged applies to every row of key.path
}

// Add indexes location — a folder (with the archives, redirect downloads
// and download caches in it), an archive, a download cache folder or one
// package file — as one source, replacing what the index had of it. Files
// whose size and modification time (members: size and CRC-32) did not
// change since the last Add are not read again. A file that cannot be read
// is recorded in AddResult.Errors and the run goes on; an error is returned
// only when the source itself cannot be read or the database fails.
func (d *DB) Add(ctx context.Context, location string, opt AddOptions) (*AddResult, error) {
	r, err := d.add(ctx, location, opt)
	return r, d.named(err)
}

// add is Add without the database named in its errors.
func (d *DB) add(ctx context.Context, location string, opt AddOptions) (*AddResult, error) {
	abs, err := filepath.Abs(location)
	if err != nil {
		return nil, err
	}
	// A link to a folder is walked as the folder (WalkDir does not follow
	// its root); the source keeps the name it was added under.
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, err
	}
	st, kind, err := sourceKind(abs)
	if err != nil {
		return nil, err
	}
	now := time.Now().UTC().Format(time.RFC3339)
	var srcID int64
	err = d.db.QueryRowContext(ctx, `INSERT INTO sources (kind, location, added_at, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (location) DO UPDATE SET kind = excluded.kind, updated_at = excluded.updated_at RETURNING id`,
		kind, abs, now, now).Scan(&srcID)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	old, err := d.fileRows(ctx, srcID)
	if err != nil {
		return nil, err
	}
	jobs, err := listJobs(ctx, real, st)
	if err != nil {
		return nil, err
	}
	// The database's own files may lie in the folder indexed.
	own, _ := filepath.Abs(d.path)
	jobs = slices.DeleteFunc(jobs, func(j job) bool {
		return j.path == own || j.path == own+"-wal" || j.path == own+"-shm" || j.path == own+"-journal"
	})
	a := &adder{d: d, src: srcID, old: old, oldByPath: map[string][]int64{}, seen: map[int64]bool{}, lim: opt.Limits, res: &AddResult{Errors: []FileError{}}}
	for k, row := range old {
		a.oldByPath[k.path] = append(a.oldByPath[k.path], row.id)
	}
	var tick func()
	if opt.Progress != nil {
		tick = opt.Progress(len(jobs))
	}
	for start := 0; start < len(jobs); start += batchSize {
		batch := jobs[start:min(start+batchSize, len(jobs))]
		out := make([][]result, len(batch))
		err := par.ForEach(ctx, len(batch), opt.Jobs, func(_, i int) {
			out[i] = a.read(ctx, batch[i])
			if tick != nil {
				tick()
			}
		})
		if err != nil {
			return nil, &InterruptedError{Source: abs, Done: start, Total: len(jobs), Err: err}
		}
		if err := a.write(ctx, out); err != nil {
			return nil, fmt.Errorf("index: %w", err)
		}
	}
	if err := a.finish(ctx); err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	// Every unreadable file of the source, read now or before: a re-add
	// of an unchanged source reports what the first did.
	if a.res.Errors, err = d.fileErrors(ctx, srcID); err != nil {
		return nil, err
	}
	if a.res.Source, err = d.sourceByID(ctx, srcID); err != nil {
		return nil, err
	}
	return a.res, nil
}

// sourceByID returns the source whose id is id, as Sources lists it (the
// zero Source when there is none).
func (d *DB) sourceByID(ctx context.Context, id int64) (Source, error) {
	srcs, err := d.Sources(ctx)
	for _, s := range srcs {
		if s.ID == id {
			return s, err
		}
	}
	return Source{}, err
}

// sourceKind stats the source at abs and tells its kind: a cache (a folder
// with a cache.ini), a folder, an archive or a file. A named pipe or a
// device is refused at once (reading one could wait forever).
func sourceKind(abs string) (os.FileInfo, string, error) {
	st, err := os.Stat(abs)
	if err != nil {
		return nil, "", err
	}
	if !st.IsDir() && !st.Mode().IsRegular() {
		return nil, "", &fsutil.NotRegularError{Path: abs, Mode: st.Mode()}
	}
	kind := KindFile
	switch {
	case st.IsDir() && hasCacheIni(abs):
		kind = KindCache
	case st.IsDir():
		kind = KindDir
	case archive.KindOf(abs) != "":
		kind = KindArchive
	}
	return st, kind, nil
}

func hasCacheIni(dir string) bool {
	for _, n := range []string{"cache.ini", "Cache.ini", "CACHE.INI"} {
		if st, err := os.Stat(filepath.Join(dir, n)); err == nil && st.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// listJobs lists the files of a source: every regular file below a folder
// (symbolic links are not followed), sorted by path.
func listJobs(ctx context.Context, abs string, st fs.FileInfo) ([]job, error) {
	if !st.IsDir() {
		return []job{{path: abs, size: st.Size(), mtime: st.ModTime().Unix(), fileName: filepath.Base(abs), archive: archive.KindOf(abs) != ""}}, nil
	}
	var jobs []job
	names := map[string]map[string]string{} // cache folder -> cache file -> original name
	err := filepath.WalkDir(abs, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if de.IsDir() {
			if hasCacheIni(p) {
				names[p] = cacheNames(ctx, p)
			}
			return nil
		}
		if !de.Type().IsRegular() || fsutil.IsTemp(de.Name()) {
			return nil
		}
		info, err := de.Info()
		if err != nil {
			return err
		}
		j := job{path: p, size: info.Size(), mtime: info.ModTime().Unix(), fileName: de.Name(), archive: archive.KindOf(p) != ""}
		if m := names[filepath.Dir(p)]; m != nil {
			if n, ok := m[p]; ok {
				j.fileName = n
			}
		}
		jobs = append(jobs, j)
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(jobs, func(i, k int) bool { return jobs[i].path < jobs[k].path })
	return jobs, nil
}

// cacheNames maps a download cache's files to the names cache.ini gives
// them; an entry whose name is not a plain file name is left out.
func cacheNames(ctx context.Context, dir string) map[string]string {
	c, err := cache.Open(ctx, dir, cache.Options{Jobs: 1})
	if err != nil {
		return nil
	}
	m := map[string]string{}
	for _, e := range c.Entries() {
		if e.File != "" && e.Name != "" && fsutil.SafeFileName(e.Name) == nil {
			m[e.File] = e.Name
		}
	}
	return m
}

type adder struct {
	d   *DB
	src int64
	old map[fileKey]fileRow
	// oldByPath lists the row IDs of each file's rows (an archive's own
	// and its members').
	oldByPath map[string][]int64
	seen      map[int64]bool
	lim       archive.Limits
	res       *AddResult
}

func (d *DB) fileRows(ctx context.Context, src int64) (map[fileKey]fileRow, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT id, path, member, size, mtime, crc32 FROM files WHERE source_id = ?`, src)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	m := map[fileKey]fileRow{}
	for rows.Next() {
		var k fileKey
		var r fileRow
		if err := rows.Scan(&r.id, &k.path, &k.member, &r.size, &r.mtime, &r.crc); err != nil {
			return nil, err
		}
		m[k] = r
	}
	return m, rows.Err()
}

// read looks at one file; it runs on a worker and only reads a.old.
func (a *adder) read(ctx context.Context, j job) []result {
	key := fileKey{j.path, ""}
	if r, ok := a.old[key]; ok && r.size == j.size && r.mtime == j.mtime {
		return []result{{key: key, unchanged: true, whole: j.archive}}
	}
	if j.archive {
		return a.readArchive(ctx, j)
	}
	res := result{key: key, size: j.size, mtime: j.mtime}
	p, err := readLoose(ctx, j, a.maxSize())
	switch {
	case errors.Is(err, errNotPackage):
	case err != nil:
		// The row names the file: keep the message without it.
		res.err = strings.TrimPrefix(err.Error(), j.path+": ")
	default:
		res.pkg = p
	}
	return []result{res}
}

func (a *adder) maxSize() int64 {
	if a.lim.MaxMemberSize > 0 {
		return a.lim.MaxMemberSize
	}
	return archive.DefaultLimits.MaxMemberSize
}

// readLoose reads a file that is not an archive: a package (by its tag,
// whatever its extension), or a redirect download.
func readLoose(ctx context.Context, j job, limit int64) (*pkgInfo, error) {
	f, err := fsutil.OpenRegular(j.path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var head [4]byte
	if _, err := io.ReadFull(f, head[:]); err != nil {
		return nil, errNotPackage
	}
	if format.HasTag(head[:]) {
		f.Close()
		return describeFile(ctx, j.path, j.fileName)
	}
	if !compressedKind(j.fileName) {
		return nil, errNotPackage
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	orig, kind, zr, err := decompress(j.fileName, f, limit)
	if err != nil {
		return nil, err
	}
	if err := fsutil.SafeFileName(orig); err != nil {
		return nil, fmt.Errorf("the original name in the download: %w", err)
	}
	p, err := describe(ctx, orig, zr)
	if err != nil {
		return nil, err
	}
	p.compressed = kind
	return p, nil
}

// readArchive reads every member of an archive; members whose size and
// CRC-32 are those indexed before are not read again.
func (a *adder) readArchive(ctx context.Context, j job) []result {
	var out []result
	seen := map[string]bool{}
	err := archive.Walk(ctx, j.path, a.lim, func(m *archive.Member) error {
		if err := ctx.Err(); err != nil {
			return err // Ctrl-C: the batch is dropped, the add ends
		}
		key := fileKey{j.path, m.Path()}
		res := result{key: key, size: m.Size, mtime: m.ModTime.Unix(), crc: m.CRC32}
		if m.ModTime.IsZero() {
			res.mtime = j.mtime
		}
		if seen[key.member] {
			// A second member of the same name (or "in.zip!X" beside a
			// nested in.zip's X): the first is indexed; this one is an
			// error row of its own, under the first free "name#N".
			res.key.member = freeName(seen, key.member)
			res.err = fmt.Sprintf("another member is named %s too: only the first is indexed", key.member)
			seen[res.key.member] = true
			out = append(out, res)
			return nil
		}
		seen[key.member] = true
		if r, ok := a.old[key]; ok && m.Err == nil && m.CRC32 != 0 && r.crc == m.CRC32 && r.size == m.Size {
			res.unchanged = true
			out = append(out, res)
			return nil
		}
		if m.Err != nil {
			res.err = m.Err.Error()
			out = append(out, res)
			return nil
		}
		p, err := describeMember(ctx, m, a.maxSize())
		switch {
		case errors.Is(err, errNotPackage):
		case err != nil:
			res.err = err.Error()
		default:
			if p.compressed == "uz" {
				if err := fsutil.SafeFileName(p.fileName); err != nil {
					res.err = "the original name in the download: " + err.Error()
					break
				}
			}
			res.pkg = p
		}
		out = append(out, res)
		return nil
	})
	// The archive's own row comes first: it carries the size and mtime that
	// let the next run skip the whole archive.
	self := result{key: fileKey{j.path, ""}, size: j.size, mtime: j.mtime}
	if err != nil {
		self.err = err.Error()
	}
	return append([]result{self}, out...)
}

// freeName returns name#2, name#3, ...: the first not in seen.
func freeName(seen map[string]bool, name string) string {
	for i := 2; ; i++ {
		if n := fmt.Sprintf("%s#%d", name, i); !seen[n] {
			return n
		}
	}
}

// write stores one batch of results in one transaction.
func (a *adder) write(ctx context.Context, batch [][]result) error {
	tx, err := a.d.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	st, err := prepare(ctx, tx)
	if err != nil {
		return err
	}
	defer st.close()
	for _, rs := range batch {
		for _, r := range rs {
			if err := a.writeOne(ctx, st, r); err != nil {
				return err
			}
		}
	}
	return tx.Commit()
}

type stmts struct {
	delFile, insFile, insPkg, insExport, insImport *sql.Stmt
	// insExports inserts exportChunk rows at once: a big map has tens of
	// thousands of exports, and one statement per row dominates the time.
	insExports *sql.Stmt
}

const exportChunk = 256

// prepare prepares the statements of a write in tx (a test prepares them
// once on the database and uses them in each transaction).
func prepare(ctx context.Context, tx interface {
	PrepareContext(context.Context, string) (*sql.Stmt, error)
}) (*stmts, error) {
	s := &stmts{}
	for _, p := range []struct {
		dst **sql.Stmt
		q   string
	}{
		{&s.delFile, `DELETE FROM files WHERE id = ?`},
		{&s.insFile, `INSERT INTO files (source_id, path, member, size, mtime, crc32, error) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`},
		{&s.insPkg, `INSERT INTO packages (source_id, file_id, name, name_lower, file_name, ext, guid, generations, version, licensee, flags, size, sha256, mtime, compressed)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`},
		{&s.insExport, `INSERT INTO exports (package_id, path_lower, class) VALUES (?, ?, ?)`},
		{&s.insImport, `INSERT INTO imports (package_id, name) VALUES (?, ?)`},
		{&s.insExports, `INSERT INTO exports (package_id, path_lower, class) VALUES ` +
			strings.TrimSuffix(strings.Repeat("(?, ?, ?), ", exportChunk), ", ")},
	} {
		st, err := tx.PrepareContext(ctx, p.q)
		if err != nil {
			s.close()
			return nil, err
		}
		*p.dst = st
	}
	return s, nil
}

func (s *stmts) close() {
	for _, st := range []*sql.Stmt{s.delFile, s.insFile, s.insPkg, s.insExport, s.insImport, s.insExports} {
		if st != nil {
			st.Close()
		}
	}
}

func (a *adder) writeOne(ctx context.Context, st *stmts, r result) error {
	if r.unchanged {
		a.res.Unchanged++
		if r.whole {
			for _, id := range a.oldByPath[r.key.path] {
				a.seen[id] = true
			}
		} else {
			a.seen[a.old[r.key].id] = true
		}
		return nil
	}
	a.res.Read++
	if row, ok := a.old[r.key]; ok {
		if _, err := st.delFile.ExecContext(ctx, row.id); err != nil {
			return err
		}
	}
	var id int64
	if err := st.insFile.QueryRowContext(ctx, a.src, r.key.path, r.key.member, r.size, r.mtime, r.crc, r.err).Scan(&id); err != nil {
		return err
	}
	a.seen[id] = true
	p := r.pkg
	if p == nil {
		return nil
	}
	a.res.Packages++
	var pid int64
	if err := st.insPkg.QueryRowContext(ctx, a.src, id, p.name, lower(p.name), p.fileName, p.ext, p.guid, p.generations,
		p.version, p.licensee, p.flags, p.size, p.sha256, r.mtime, p.compressed).Scan(&pid); err != nil {
		return err
	}
	exports := p.exports
	args := make([]any, 0, 3*exportChunk)
	for len(exports) >= exportChunk {
		args = args[:0]
		for _, e := range exports[:exportChunk] {
			args = append(args, pid, e.pathLower, e.class)
		}
		if _, err := st.insExports.ExecContext(ctx, args...); err != nil {
			return err
		}
		exports = exports[exportChunk:]
	}
	for _, e := range exports {
		if _, err := st.insExport.ExecContext(ctx, pid, e.pathLower, e.class); err != nil {
			return err
		}
	}
	for _, im := range p.imports {
		if _, err := st.insImport.ExecContext(ctx, pid, im); err != nil {
			return err
		}
	}
	return nil
}

// finish removes the rows of files that are gone and updates the source's
// counts.
func (a *adder) finish(ctx context.Context) error {
	tx, err := a.d.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for k, row := range a.old {
		if !a.seen[row.id] {
			if _, err := tx.ExecContext(ctx, `DELETE FROM files WHERE id = ?`, row.id); err != nil {
				return err
			}
			if k.member == "" {
				a.res.Removed++
			}
		}
	}
	_, err = tx.ExecContext(ctx, `UPDATE sources SET
		files = (SELECT count(*) FROM files WHERE source_id = ?1),
		packages = (SELECT count(*) FROM packages WHERE source_id = ?1),
		errors = (SELECT count(*) FROM files WHERE source_id = ?1 AND error <> ''),
		updated_at = ?2 WHERE id = ?1`, a.src, time.Now().UTC().Format(time.RFC3339))
	if err != nil {
		return err
	}
	return tx.Commit()
}

func (d *DB) fileErrors(ctx context.Context, src int64) ([]FileError, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT path, member, error FROM files WHERE source_id = ? AND error <> '' ORDER BY path, member`, src)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []FileError{}
	for rows.Next() {
		var e FileError
		if err := rows.Scan(&e.Path, &e.Member, &e.Error); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}
