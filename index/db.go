package index

import (
	"context"
	"database/sql"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver: no cgo
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
}

// Open opens (creating it when absent) the index database at path and
// migrates it to the current schema. The file is a cache: deleting it loses
// nothing that adding the sources again does not rebuild.
func Open(path string) (*DB, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("index: %w", err)
		}
	}
	// WAL: readers (find, check --index) never block a running add; the
	// busy timeout lets a second writer wait instead of failing.
	// The path is a URI's: '?', '#' and '%' in it are escaped.
	esc := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
	dsn := "file:" + esc + "?_pragma=foreign_keys(1)&_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)&_pragma=synchronous(NORMAL)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("index: %s: %w", path, err)
	}
	// One connection: SQLite serialises writers anyway, and the pragmas
	// above are per connection.
	db.SetMaxOpenConns(1)
	d := &DB{db: db, path: path}
	if err := d.migrate(context.Background()); err != nil {
		db.Close()
		return nil, fmt.Errorf("index: %s: %w", path, err)
	}
	return d, nil
}

// Close closes the database.
func (d *DB) Close() error { return d.db.Close() }

// Path is the database file.
func (d *DB) Path() string { return d.path }

func (d *DB) migrate(ctx context.Context) error {
	var v int
	if err := d.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return err
	}
	if v > SchemaVersion() {
		return fmt.Errorf("schema version %d is newer than this upkdeps reads (%d)", v, SchemaVersion())
	}
	steps := append([]string{schema}, migrations...)
	for ; v < len(steps); v++ {
		tx, err := d.db.BeginTx(ctx, nil)
		if err != nil {
			return err
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
	return nil
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
	rows, err := d.db.QueryContext(ctx, `SELECT id, kind, location, added_at, updated_at, files, packages, errors, error FROM sources ORDER BY location`)
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
}

// Stats returns the index's counts.
func (d *DB) Stats(ctx context.Context) (*Stats, error) {
	s := &Stats{ByExt: map[string]int{}, Schema: SchemaVersion()}
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
