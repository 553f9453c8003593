package index

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/upkdeps/upkdeps/index/unrealarchive"
)

// Schema version 2: the Unreal Archive's metadata. An item is one
// downloadable archive the catalogue describes; its files are the package
// files it ships (SHA-1 and size, no bytes here), its downloads where to
// get it, its deps the packages its files import by the catalogue's own
// analysis (a hint).
func init() {
	migrations = append(migrations, `
CREATE TABLE items (
	id           INTEGER PRIMARY KEY,
	source_id    INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
	path         TEXT    NOT NULL,            -- the metadata file, relative to the checkout
	type         TEXT    NOT NULL,            -- MAP, MAP_PACK, MUTATOR, SKIN, GAMETYPE, MANAGED, ...
	game         TEXT    NOT NULL,            -- "Unreal Tournament", "Unreal Tournament 2004", ...
	name         TEXT    NOT NULL,
	author       TEXT    NOT NULL DEFAULT '',
	release_date TEXT    NOT NULL DEFAULT '',
	archive_name TEXT    NOT NULL DEFAULT '',
	sha1         TEXT    NOT NULL DEFAULT '', -- of the archive; '' for a managed download without one
	size         INTEGER NOT NULL DEFAULT 0,
	variation_of TEXT    NOT NULL DEFAULT '',
	deleted      INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX items_sha1 ON items (sha1);
CREATE TABLE item_files (
	item_id    INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
	name       TEXT    NOT NULL,              -- file name as shipped, e.g. "M1.utx"
	name_lower TEXT    NOT NULL,              -- package name (no extension), lower case
	ext        TEXT    NOT NULL,              -- ".utx" (lower case)
	size       INTEGER NOT NULL,
	sha1       TEXT    NOT NULL
);
CREATE INDEX item_files_name ON item_files (name_lower);
CREATE INDEX item_files_item ON item_files (item_id);
CREATE TABLE item_downloads (
	item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
	url     TEXT    NOT NULL,
	direct  INTEGER NOT NULL DEFAULT 0,
	main    INTEGER NOT NULL DEFAULT 0,
	repack  INTEGER NOT NULL DEFAULT 0,
	state   TEXT    NOT NULL DEFAULT ''       -- OK, MISSING, DELETED, ...
);
CREATE INDEX item_downloads_item ON item_downloads (item_id);
CREATE TABLE item_deps (
	item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
	file    TEXT    NOT NULL,                 -- the importing file of the item
	name    TEXT    NOT NULL,                 -- the imported package
	status  TEXT    NOT NULL                  -- OK, MISSING, PARTIAL
);
CREATE INDEX item_deps_item ON item_deps (item_id);
`)
}

// MetadataResult is what AddUnrealArchive did.
type MetadataResult struct {
	Source   Source                  `json:"source"`
	Items    int                     `json:"items"`
	Files    int                     `json:"metadata_files"`
	Warnings []unrealarchive.Warning `json:"warnings"`
}

// AddUnrealArchive adds (or refreshes) a checkout of the Unreal Archive's
// metadata repository as a source of kind "metadata": every item, with its
// package files, downloads and dependency hints, in one transaction. A
// refresh replaces the source's items, so items whose files are gone are
// dropped. Bad metadata files are warnings.
func (d *DB) AddUnrealArchive(ctx context.Context, dir string, jobs int) (*MetadataResult, error) {
	r, err := d.addUnrealArchive(ctx, dir, jobs)
	return r, d.named(err)
}

// addUnrealArchive is AddUnrealArchive without the database named in its errors.
func (d *DB) addUnrealArchive(ctx context.Context, dir string, jobs int) (*MetadataResult, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	res, err := unrealarchive.Walk(ctx, abs, jobs)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	now := time.Now().UTC().Format(time.RFC3339)
	src, err := metadataSource(ctx, tx, abs, now)
	if err != nil {
		return nil, err
	}
	files, err := insertItems(ctx, tx, src, res.Items)
	if err != nil {
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE sources SET updated_at = ?, files = ?, packages = ?, errors = ?, error = '' WHERE id = ?`,
		now, res.Files, files, len(res.Warnings), src); err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	out := &MetadataResult{Items: len(res.Items), Files: res.Files, Warnings: res.Warnings}
	if out.Warnings == nil {
		out.Warnings = []unrealarchive.Warning{}
	}
	if out.Source, err = d.sourceByID(ctx, src); err != nil {
		return nil, err
	}
	return out, nil
}

// metadataSource returns the id of the metadata source at abs, made now
// if it is new, its items deleted if it is not (an add replaces them). A
// source of another kind at abs is an error.
func metadataSource(ctx context.Context, tx *sql.Tx, abs, now string) (int64, error) {
	var src int64
	err := tx.QueryRowContext(ctx, `SELECT id FROM sources WHERE location = ?`, abs).Scan(&src)
	switch {
	case err == sql.ErrNoRows:
		r, err := tx.ExecContext(ctx, `INSERT INTO sources (kind, location, added_at, updated_at) VALUES (?, ?, ?, ?)`, KindMetadata, abs, now, now)
		if err != nil {
			return 0, err
		}
		src, _ = r.LastInsertId()
	case err != nil:
		return 0, err
	default:
		var kind string
		if err := tx.QueryRowContext(ctx, `SELECT kind FROM sources WHERE id = ?`, src).Scan(&kind); err != nil {
			return 0, err
		}
		if kind != KindMetadata {
			return 0, fmt.Errorf("index: %s is already a source of kind %s: remove it first", abs, kind)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM items WHERE source_id = ?`, src); err != nil {
			return 0, err
		}
	}
	return src, nil
}

// insertItems writes the catalogue's items of source src with their files,
// downloads and dependency hints, and returns how many files they list.
func insertItems(ctx context.Context, tx *sql.Tx, src int64, items []unrealarchive.Item) (int, error) {
	ins := func(q string) (*sql.Stmt, error) { return tx.PrepareContext(ctx, q) }
	stItem, err := ins(`INSERT INTO items (source_id, path, type, game, name, author, release_date, archive_name, sha1, size, variation_of, deleted) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)`)
	if err != nil {
		return 0, err
	}
	defer stItem.Close()
	stFile, err := ins(`INSERT INTO item_files (item_id, name, name_lower, ext, size, sha1) VALUES (?,?,?,?,?,?)`)
	if err != nil {
		return 0, err
	}
	defer stFile.Close()
	stDown, err := ins(`INSERT INTO item_downloads (item_id, url, direct, main, repack, state) VALUES (?,?,?,?,?,?)`)
	if err != nil {
		return 0, err
	}
	defer stDown.Close()
	stDep, err := ins(`INSERT INTO item_deps (item_id, file, name, status) VALUES (?,?,?,?)`)
	if err != nil {
		return 0, err
	}
	defer stDep.Close()
	files := 0
	for _, it := range items {
		r, err := stItem.ExecContext(ctx, src, it.Path, it.Type, it.Game, it.Name, it.Author, it.ReleaseDate, it.ArchiveName,
			it.Hash, it.Size, it.VariationOf, it.Deleted)
		if err != nil {
			return 0, err
		}
		id, _ := r.LastInsertId()
		for _, f := range it.Files {
			ext := strings.ToLower(filepath.Ext(f.Name))
			base := strings.ToLower(strings.TrimSuffix(f.Name, filepath.Ext(f.Name)))
			if _, err := stFile.ExecContext(ctx, id, f.Name, base, ext, f.Size, f.Hash); err != nil {
				return 0, err
			}
			files++
		}
		for _, dl := range it.Downloads {
			if _, err := stDown.ExecContext(ctx, id, dl.URL, dl.Direct, dl.Main, dl.Repack, dl.State); err != nil {
				return 0, err
			}
		}
		for _, file := range slices.Sorted(maps.Keys(it.Dependencies)) {
			for _, dep := range it.Dependencies[file] {
				if _, err := stDep.ExecContext(ctx, id, file, dep.Name, dep.Status); err != nil {
					return 0, err
				}
			}
		}
	}
	return files, nil
}

// ArchiveItems returns every catalogue item (of the given games, all when
// none is given), with files, downloads and dependency hints, sorted by
// hash then name.
func (d *DB) ArchiveItems(ctx context.Context, games ...string) ([]unrealarchive.Item, error) {
	r, err := d.archiveItemsOf(ctx, games...)
	return r, d.named(err)
}

// archiveItemsOf is ArchiveItems without the database named in its errors.
func (d *DB) archiveItemsOf(ctx context.Context, games ...string) ([]unrealarchive.Item, error) {
	return d.archiveItems(ctx, "", nil, games)
}

// itemRows runs q, a query of items' columns, and returns the items with
// the index of each by its id.
func (d *DB) itemRows(ctx context.Context, q string, args []any) ([]unrealarchive.Item, map[int64]int, error) {
	rows, err := d.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, nil, err
	}
	var items []unrealarchive.Item
	byID := map[int64]int{}
	for rows.Next() {
		var it unrealarchive.Item
		var id int64
		if err := rows.Scan(&id, &it.Path, &it.Type, &it.Game, &it.Name, &it.Author, &it.ReleaseDate, &it.ArchiveName,
			&it.Hash, &it.Size, &it.VariationOf, &it.Deleted); err != nil {
			rows.Close()
			return nil, nil, err
		}
		byID[id] = len(items)
		items = append(items, it)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	return items, byID, nil
}

// archiveItems returns the items matching where (an SQL condition on
// items, "" for all) with args, of the games (all when none).
func (d *DB) archiveItems(ctx context.Context, where string, args []any, games []string) ([]unrealarchive.Item, error) {
	var conds []string
	if where != "" {
		conds = append(conds, where)
	}
	if len(games) > 0 {
		conds = append(conds, `game IN (`+strings.TrimSuffix(strings.Repeat("?,", len(games)), ",")+`)`)
		for _, g := range games {
			args = append(args, g)
		}
	}
	cond := ""
	if len(conds) > 0 {
		cond = ` WHERE ` + strings.Join(conds, " AND ")
	}
	q := `SELECT id, path, type, game, name, author, release_date, archive_name, sha1, size, variation_of, deleted FROM items` + cond + ` ORDER BY sha1, name, path`
	sub := `SELECT id FROM items` + cond
	items, byID, err := d.itemRows(ctx, q, args)
	if err != nil {
		return nil, err
	}
	if err := d.scanRows(ctx, `SELECT item_id, name, size, sha1 FROM item_files WHERE item_id IN (`+sub+`) ORDER BY rowid`, args, func(r *sql.Rows) error {
		var id int64
		var f unrealarchive.File
		if err := r.Scan(&id, &f.Name, &f.Size, &f.Hash); err != nil {
			return err
		}
		if i, ok := byID[id]; ok {
			items[i].Files = append(items[i].Files, f)
		}
		return nil
	}); err != nil {
		return nil, err
	}
	if err := d.scanRows(ctx, `SELECT item_id, url, direct, main, repack, state FROM item_downloads WHERE item_id IN (`+sub+`) ORDER BY rowid`, args, func(r *sql.Rows) error {
		var id int64
		var dl unrealarchive.Download
		if err := r.Scan(&id, &dl.URL, &dl.Direct, &dl.Main, &dl.Repack, &dl.State); err != nil {
			return err
		}
		if i, ok := byID[id]; ok {
			items[i].Downloads = append(items[i].Downloads, dl)
		}
		return nil
	}); err != nil {
		return nil, err
	}
	if err := d.scanRows(ctx, `SELECT item_id, file, name, status FROM item_deps WHERE item_id IN (`+sub+`) ORDER BY rowid`, args, func(r *sql.Rows) error {
		var id int64
		var file string
		var dep unrealarchive.Dependency
		if err := r.Scan(&id, &file, &dep.Name, &dep.Status); err != nil {
			return err
		}
		if i, ok := byID[id]; ok {
			if items[i].Dependencies == nil {
				items[i].Dependencies = map[string][]unrealarchive.Dependency{}
			}
			items[i].Dependencies[file] = append(items[i].Dependencies[file], dep)
		}
		return nil
	}); err != nil {
		return nil, err
	}
	return items, nil
}

func (d *DB) scanRows(ctx context.Context, q string, args []any, fn func(*sql.Rows) error) error {
	rows, err := d.db.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// ArchiveVersion is one version (one SHA-1) of a package file in the
// catalogue, with the items that ship it.
type ArchiveVersion struct {
	File  string               `json:"file"` // as shipped, e.g. "M1.utx"
	Size  int64                `json:"size"`
	SHA1  string               `json:"sha1"`
	Items []unrealarchive.Item `json:"items"` // best first (see unrealarchive.Rank)
}

// ArchiveVersions returns the catalogue's versions of package name (any
// extension), largest number of shipping items first, then by file and
// size.
func (d *DB) ArchiveVersions(ctx context.Context, name string, games ...string) ([]ArchiveVersion, error) {
	r, err := d.archiveVersions(ctx, name, games...)
	return r, d.named(err)
}

// archiveVersions is ArchiveVersions without the database named in its errors.
func (d *DB) archiveVersions(ctx context.Context, name string, games ...string) ([]ArchiveVersion, error) {
	key := strings.ToLower(name)
	items, err := d.archiveItems(ctx, `id IN (SELECT item_id FROM item_files WHERE name_lower = ?)`, []any{key}, games)
	if err != nil {
		return nil, err
	}
	by := map[string]*ArchiveVersion{}
	for _, it := range items {
		if it.Deleted {
			continue
		}
		for _, f := range it.Files {
			if strings.ToLower(strings.TrimSuffix(f.Name, filepath.Ext(f.Name))) != key || strings.EqualFold(filepath.Ext(f.Name), ".umod") {
				continue // an installer is not the package it installs
			}
			v := by[f.Hash]
			if v == nil {
				v = &ArchiveVersion{File: f.Name, Size: f.Size, SHA1: f.Hash}
				by[f.Hash] = v
			}
			if !slices.ContainsFunc(v.Items, func(x unrealarchive.Item) bool { return x.Hash == it.Hash }) {
				v.Items = append(v.Items, it)
			}
		}
	}
	out := make([]ArchiveVersion, 0, len(by))
	for _, v := range by {
		slices.SortFunc(v.Items, unrealarchive.Rank)
		out = append(out, *v)
	}
	slices.SortFunc(out, func(a, b ArchiveVersion) int {
		if c := len(b.Items) - len(a.Items); c != 0 {
			return c
		}
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		return cmp.Compare(a.Size, b.Size)
	})
	return out, nil
}
