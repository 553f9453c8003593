package index

import (
	"context"
	"database/sql"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"modernc.org/sqlite" // the pure-Go SQLite driver: no cgo
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/upkdeps/upkdeps/internal/fsutil"
)

// schema is version 1 of the database; migrations lists the steps after it.
//
//go:embed schema.sql
var schema string

// migrations[i] takes the database from user_version i+1 to i+2. Each runs
// in one transaction with the version bump. (Issue 16's metadata sources
// will be the first: the schema already has their kind and bodiless
// packages.)
var migrations []string

// SchemaVersion is the user_version a database of this build has.
func SchemaVersion() int { return 1 + len(migrations) }

// DB is an open package index.
type DB struct {
	db   *sql.DB
	path string
	// writable is set by Open: Close then leaves the file out of WAL mode.
	writable bool
	// created is set by Open when the file did not exist: Discard removes it.
	created bool
}

// Open opens (creating it when absent) the index database at path and
// migrates it to the current schema. The file is a cache: deleting it loses
// nothing that adding the sources again does not rebuild. Several processes
// may open a new database at once: the first creates the schema, the others
// wait for it (each migration step is one immediate transaction that
// re-reads the version it starts from). Every error names the database.
// Discard undoes an Open that created the file.
func Open(path string) (*DB, error) {
	_, err := os.Lstat(path)
	created := errors.Is(err, fs.ErrNotExist)
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("index: %w", err)
		}
	}
	if err := fsutil.CheckOutput(path); err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	// WAL: readers (find, check --index) never block a running add; the
	// busy timeout (set first: the WAL switch itself may wait) lets a
	// second writer wait instead of failing; _txlock=immediate takes the
	// write lock when a transaction begins, where waiting is possible,
	// not when it first writes, where SQLite must fail at once.
	// Some steps of a first open (the switch to WAL) fail with SQLITE_BUSY
	// without waiting: those are retried, for up to openWait.
	deadline := time.Now().Add(openWait)
	for wait := time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		d, err := open(path, "_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_txlock=immediate")
		if err != nil {
			return nil, err
		}
		err = d.migrate(context.Background())
		if err == nil {
			d.writable, d.created = true, created
			return d, nil
		}
		d.db.Close()
		if !isBusy(err) || time.Now().After(deadline) {
			return nil, fmt.Errorf("index: %s: %w", path, damaged(err))
		}
		time.Sleep(wait)
	}
}

// openWait bounds how long Open retries a database another process is
// creating or migrating.
const openWait = 30 * time.Second

// isBusy reports whether err is SQLite's SQLITE_BUSY (or one of its
// extended codes).
func isBusy(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_BUSY
}

// ErrNoIndex is wrapped by OpenReadOnly's error for a database that does
// not exist or holds no index (an empty file).
var ErrNoIndex = errors.New("no package index here: run upkdeps index add first")

// OpenReadOnly opens an existing index database for reading only: it never
// creates the file or its folder, never migrates, never writes, so an index
// that the user may not write (another user's, a read-only disk) can be
// queried. A missing or empty file is an error wrapping ErrNoIndex; one of
// another schema version, an error asking for index add.
func OpenReadOnly(path string) (*DB, error) {
	f, err := fsutil.OpenRegular(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("index: %s: %w", path, ErrNoIndex)
	}
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	st, err := f.Stat()
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("index: %s: %w", path, err)
	}
	if st.Size() == 0 {
		return nil, fmt.Errorf("index: %s: an empty file: %w", path, ErrNoIndex)
	}
	d, err := open(path, "mode=ro&_pragma=busy_timeout(10000)")
	if err == nil {
		err = d.checkVersion()
	}
	if err != nil && d != nil {
		// A WAL database in a folder the user may not write, with no
		// shared-memory file beside it, opens only as immutable (no
		// writer can be running where nobody may write).
		d.db.Close()
		d, err = open(path, "mode=ro&immutable=1")
		if err == nil {
			err = d.checkVersion()
		}
	}
	if err != nil {
		if d != nil {
			d.db.Close()
		}
		return nil, fmt.Errorf("index: %s: %w", path, damaged(err))
	}
	return d, nil
}

// damaged adds to SQLite's error for a file that is not a database or a
// corrupt one (SQLITE_NOTADB, SQLITE_CORRUPT) what to do about it: the
// index is a cache, which adding the sources again rebuilds.
func damaged(err error) error {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return err
	}
	if c := se.Code() & 0xff; c != sqlite3.SQLITE_NOTADB && c != sqlite3.SQLITE_CORRUPT {
		return err
	}
	return fmt.Errorf("%w: the file is damaged or not an upkdeps index; the index is a cache: delete the file and run upkdeps index add for each source again to rebuild it", err)
}

// open opens path with the DSN parameters params, as one connection.
func open(path, params string) (*DB, error) {
	// The path is a URI's: '?', '#' and '%' in it are escaped.
	esc := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
	db, err := sql.Open("sqlite", "file:"+esc+"?"+params)
	if err != nil {
		return nil, fmt.Errorf("index: %s: %w", path, err)
	}
	// One connection: SQLite serialises writers anyway, and the pragmas
	// above are per connection.
	db.SetMaxOpenConns(1)
	return &DB{db: db, path: path}, nil
}

// checkVersion reads the schema version of a database opened read-only.
func (d *DB) checkVersion() error {
	var v int
	if err := d.db.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		return err
	}
	switch {
	case v == 0:
		return fmt.Errorf("holds no index (schema version 0): %w", ErrNoIndex)
	case v != SchemaVersion():
		return fmt.Errorf("schema version %d, this upkdeps reads %d: run upkdeps index add (or open it writable) to migrate", v, SchemaVersion())
	}
	return nil
}

// Close closes the database. A database opened by Open is left in
// rollback-journal mode when no other connection has it open (a reader
// never waits for that: busy_timeout 0), so that the readers that come
// next (OpenReadOnly: find, check --index) leave no -wal and -shm files
// beside it; the next Open switches it back to WAL.
func (d *DB) Close() error {
	if d.writable {
		if _, err := d.db.Exec("PRAGMA busy_timeout=0"); err == nil {
			_, _ = d.db.Exec("PRAGMA journal_mode=DELETE") // busy: another process has it open, and cleans up
		}
	}
	return d.db.Close()
}

// Discard closes d and, when Open created its file (it did not exist),
// removes it with its -wal, -shm and -journal files: an add that fails
// before it added anything leaves no empty index behind, so that a later
// read says there is no index instead of reading an empty one without a
// word. A database that existed is only closed. Close after Discard does
// nothing.
func (d *DB) Discard() {
	d.Close()
	if !d.created {
		return
	}
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		_ = os.Remove(d.path + suffix)
	}
}

// Path is the database file.
func (d *DB) Path() string { return d.path }

func (d *DB) migrate(ctx context.Context) error {
	// Up to date (the usual case): no write lock taken.
	var v int
	if err := d.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return err
	}
	if v == SchemaVersion() {
		return nil
	}
	steps := append([]string{schema}, migrations...)
	for {
		// Each step in one immediate transaction that reads the version
		// again: a process that waited for another's migration finds it
		// done.
		tx, err := d.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		var v int
		if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
			tx.Rollback()
			return err
		}
		if v > SchemaVersion() {
			tx.Rollback()
			return fmt.Errorf("schema version %d is newer than this upkdeps reads (%d)", v, SchemaVersion())
		}
		if v == len(steps) {
			return tx.Rollback()
		}
		if _, err := tx.ExecContext(ctx, steps[v]); err != nil {
			tx.Rollback()
			return fmt.Errorf("migrating to schema version %d: %w", v+1, err)
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", v+1)); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
	}
}

// Source kinds.
const (
	KindDir      = "dir"      // a folder tree (archives and cache folders in it included)
	KindArchive  = "archive"  // one archive file
	KindCache    = "cache"    // a download cache folder (names from cache.ini)
	KindFile     = "file"     // one package or .uz/.uz2 file
	KindMetadata = "metadata" // a catalogue describing packages without their bytes (issue 16)
)

// Source is one added source.
type Source struct {
	ID        int64     `json:"id"`
	Kind      string    `json:"kind"`
	Location  string    `json:"location"`
	AddedAt   time.Time `json:"added_at"`
	UpdatedAt time.Time `json:"updated_at"`
	Files     int       `json:"files"`
	Packages  int       `json:"packages"`
	Errors    int       `json:"errors"`
	Error     string    `json:"error"`
}

// Sources lists the sources, by location.
func (d *DB) Sources(ctx context.Context) ([]Source, error) {
	r, err := d.sources(ctx)
	return r, d.named(err)
}

// sources is Sources without the database named in its errors.
func (d *DB) sources(ctx context.Context) ([]Source, error) {
	// The counts are counted, not read from the source's columns, which
	// an add updates only when it ends: after a killed add they would say
	// 0 while find returns its rows. (Metadata sources keep their own
	// counts: their items are no files.)
	rows, err := d.db.QueryContext(ctx, `
		WITH f AS (SELECT source_id, count(*) AS n, sum(error <> '') AS e FROM files GROUP BY source_id),
		     p AS (SELECT source_id, count(*) AS n FROM packages GROUP BY source_id)
		SELECT s.id, s.kind, s.location, s.added_at, s.updated_at,
			CASE WHEN s.kind = 'metadata' THEN s.files ELSE coalesce(f.n, 0) END,
			CASE WHEN s.kind = 'metadata' THEN s.packages ELSE coalesce(p.n, 0) END,
			CASE WHEN s.kind = 'metadata' THEN s.errors ELSE coalesce(f.e, 0) END,
			s.error
		FROM sources s LEFT JOIN f ON f.source_id = s.id LEFT JOIN p ON p.source_id = s.id
		ORDER BY s.location`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Source{}
	for rows.Next() {
		var s Source
		var added, updated string
		if err := rows.Scan(&s.ID, &s.Kind, &s.Location, &added, &updated, &s.Files, &s.Packages, &s.Errors, &s.Error); err != nil {
			return nil, err
		}
		s.AddedAt, _ = time.Parse(time.RFC3339, added)
		s.UpdatedAt, _ = time.Parse(time.RFC3339, updated)
		out = append(out, s)
	}
	return out, rows.Err()
}

// ErrNoSource is returned by Remove for a location that is not a source.
var ErrNoSource = errors.New("no such source in the index")

// Remove deletes a source and everything indexed from it. location is
// matched as given and as an absolute path.
func (d *DB) Remove(ctx context.Context, location string) error {
	return d.named(d.remove(ctx, location))
}

// remove is Remove without the database named in its errors.
func (d *DB) remove(ctx context.Context, location string) error {
	locs := []string{location}
	if abs, err := filepath.Abs(location); err == nil {
		locs = append(locs, abs)
	}
	for _, l := range locs {
		res, err := d.db.ExecContext(ctx, `DELETE FROM sources WHERE location = ?`, l)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n > 0 {
			return nil
		}
	}
	return fmt.Errorf("%s: %w", location, ErrNoSource)
}

// Stats counts what the index holds.
type Stats struct {
	Sources   int            `json:"sources"`
	Files     int            `json:"files"`
	Packages  int            `json:"packages"`
	Names     int            `json:"distinct_names"`
	Exports   int            `json:"exports"`
	Errors    int            `json:"file_errors"`
	ByExt     map[string]int `json:"by_extension"`
	Schema    int            `json:"schema_version"`
	SizeBytes int64          `json:"database_bytes"`
	// DB is the database's file (named in the text, not in the JSON).
	DB string `json:"-"`
}

// Stats returns the index's counts.
func (d *DB) Stats(ctx context.Context) (*Stats, error) {
	r, err := d.stats(ctx)
	return r, d.named(err)
}

// stats is Stats without the database named in its errors.
func (d *DB) stats(ctx context.Context) (*Stats, error) {
	s := &Stats{ByExt: map[string]int{}, Schema: SchemaVersion(), DB: d.path}
	for q, dst := range map[string]*int{
		`SELECT count(*) FROM sources`:                    &s.Sources,
		`SELECT count(*) FROM files`:                      &s.Files,
		`SELECT count(*) FROM packages`:                   &s.Packages,
		`SELECT count(DISTINCT name_lower) FROM packages`: &s.Names,
		`SELECT count(*) FROM exports`:                    &s.Exports,
		`SELECT count(*) FROM files WHERE error <> ''`:    &s.Errors,
	} {
		if err := d.db.QueryRowContext(ctx, q).Scan(dst); err != nil {
			return nil, err
		}
	}
	rows, err := d.db.QueryContext(ctx, `SELECT ext, count(*) FROM packages GROUP BY ext`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var ext string
		var n int
		if err := rows.Scan(&ext, &n); err != nil {
			return nil, err
		}
		s.ByExt[ext] = n
	}
	for _, suffix := range []string{"", "-wal"} {
		if st, err := os.Stat(d.path + suffix); err == nil {
			s.SizeBytes += st.Size()
		}
	}
	return s, rows.Err()
}

func lower(s string) string { return strings.ToLower(s) }

// named returns err with the database's path in its message (nil for
// nil): every error of a DB method names the database it is about.
func (d *DB) named(err error) error {
	if err == nil || strings.Contains(err.Error(), d.path) {
		return err
	}
	return &dbError{path: d.path, err: err}
}

type dbError struct {
	path string
	err  error
}

func (e *dbError) Error() string {
	return "index: " + e.path + ": " + strings.TrimPrefix(e.err.Error(), "index: ")
}

func (e *dbError) Unwrap() error { return e.err }
