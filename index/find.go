package index

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/ini"
)

// Package is one indexed copy of a package.
type Package struct {
	ID          int64     `json:"-"`
	Name        string    `json:"name"`
	FileName    string    `json:"file_name"`
	Ext         string    `json:"ext"`
	GUID        string    `json:"guid"`
	Generations int       `json:"generations"`
	Version     int       `json:"version"`
	Licensee    int       `json:"licensee"`
	Size        int64     `json:"size"`
	SHA256      string    `json:"sha256"`
	ModTime     time.Time `json:"mtime"`
	Compressed  string    `json:"compressed,omitempty"` // "uz" or "uz2": stored as a redirect download
	SourceKind  string    `json:"source_kind"`
	Source      string    `json:"source"`
	Path        string    `json:"path"`             // the file (the archive for a member); "" for a metadata-only package
	Member      string    `json:"member,omitempty"` // inside the archive, "outer!inner" when nested
	// HasBytes is false for a package a metadata source only describes.
	HasBytes bool `json:"has_bytes"`
	// Matches says what the query matched: "name", "guid", "object".
	Matches []string `json:"matches"`
	// ObjectClass is, for an object query, the class the copy exports the
	// object with ("" when it does not export it).
	ObjectClass string `json:"object_class,omitempty"`
}

// Where names the copy for a person: the path, and "!member" for an
// archive member.
func (p *Package) Where() string {
	if p.Member == "" {
		return p.Path
	}
	return p.Path + "!" + p.Member
}

const pkgColumns = `p.id, p.name, p.file_name, p.ext, p.guid, p.generations, p.version, p.licensee, p.size, p.sha256, p.mtime, p.compressed,
	s.kind, s.location, coalesce(f.path, ''), coalesce(f.member, ''), p.file_id IS NOT NULL`

const pkgFrom = ` FROM packages p JOIN sources s ON s.id = p.source_id LEFT JOIN files f ON f.id = p.file_id `

// newestFirst orders copies: newest modification time first, then by
// place, so that output is stable.
const newestFirst = ` ORDER BY p.mtime DESC, s.location, f.path, f.member, p.id`

// scanPackages reads copies; a file indexed through two sources (a folder
// added, then a folder inside it) is one copy, listed once.
func scanPackages(rows *sql.Rows) ([]Package, error) {
	defer rows.Close()
	out := []Package{}
	seen := map[[2]string]bool{}
	for rows.Next() {
		var p Package
		var mtime int64
		if err := rows.Scan(&p.ID, &p.Name, &p.FileName, &p.Ext, &p.GUID, &p.Generations, &p.Version, &p.Licensee, &p.Size, &p.SHA256,
			&mtime, &p.Compressed, &p.SourceKind, &p.Source, &p.Path, &p.Member, &p.HasBytes); err != nil {
			return nil, err
		}
		p.ModTime = time.Unix(mtime, 0).UTC()
		p.Matches = []string{}
		if p.HasBytes {
			k := [2]string{p.Path, p.Member}
			if seen[k] {
				continue
			}
			seen[k] = true
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// ByName returns every copy of the package named name (case-insensitive),
// newest first.
func (d *DB) ByName(ctx context.Context, name string) ([]Package, error) {
	r, err := d.byName(ctx, name)
	return r, d.named(err)
}

// byName is ByName without the database named in its errors.
func (d *DB) byName(ctx context.Context, name string) ([]Package, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT `+pkgColumns+pkgFrom+`WHERE p.name_lower = ?`+newestFirst, lower(name))
	if err != nil {
		return nil, err
	}
	ps, err := scanPackages(rows)
	for i := range ps {
		ps[i].Matches = []string{"name"}
	}
	return ps, err
}

// ByGUID returns every copy whose GUID is guid, newest first.
func (d *DB) ByGUID(ctx context.Context, guid string) ([]Package, error) {
	r, err := d.byGUID(ctx, guid)
	return r, d.named(err)
}

// byGUID is ByGUID without the database named in its errors.
func (d *DB) byGUID(ctx context.Context, guid string) ([]Package, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT `+pkgColumns+pkgFrom+`WHERE p.guid = ?`+newestFirst, strings.ToUpper(guid))
	if err != nil {
		return nil, err
	}
	ps, err := scanPackages(rows)
	for i := range ps {
		ps[i].Matches = []string{"guid"}
	}
	return ps, err
}

// WithObject returns every copy of package pkg, newest first, with
// ObjectClass set to the class each exports the object at path (group path
// below the package) with; class, when not "", lists the copies that export
// it with that class first. Copies without the object are included with
// ObjectClass "" so that callers can show them too.
func (d *DB) WithObject(ctx context.Context, pkg, path, class string) ([]Package, error) {
	r, err := d.withObject(ctx, pkg, path, class)
	return r, d.named(err)
}

// withObject is WithObject without the database named in its errors.
func (d *DB) withObject(ctx context.Context, pkg, path, class string) ([]Package, error) {
	ps, err := d.ByName(ctx, pkg)
	if err != nil {
		return nil, err
	}
	st, err := d.db.PrepareContext(ctx, `SELECT class FROM exports WHERE package_id = ? AND path_lower = ?`)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	var with, without []Package
	for _, p := range ps {
		rows, err := st.QueryContext(ctx, p.ID, lower(path))
		if err != nil {
			return nil, err
		}
		var classes []string
		for rows.Next() {
			var c string
			if err := rows.Scan(&c); err != nil {
				rows.Close()
				return nil, err
			}
			classes = append(classes, c)
		}
		rows.Close()
		for _, c := range classes {
			if p.ObjectClass == "" || (class != "" && strings.EqualFold(c, class)) {
				p.ObjectClass = c
			}
		}
		if p.ObjectClass != "" && (class == "" || strings.EqualFold(p.ObjectClass, class)) {
			p.Matches = append(p.Matches, "object")
			with = append(with, p)
		} else {
			without = append(without, p)
		}
	}
	return append(with, without...), nil
}

// Imports returns the packages a copy imports, as spelled.
func (d *DB) Imports(ctx context.Context, p *Package) ([]string, error) {
	r, err := d.imports(ctx, p)
	return r, d.named(err)
}

// imports is Imports without the database named in its errors.
func (d *DB) imports(ctx context.Context, p *Package) ([]string, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT name FROM imports WHERE package_id = ? ORDER BY name`, p.ID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// Query is what `find` looks for.
type Query struct {
	Name   string // package name
	GUID   string // 32 hex digits
	Object string // group path below the package ("" for none)
}

// ParseQuery reads NAME, GUID or Pkg.Object.
func ParseQuery(s string) (Query, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Query{}, fmt.Errorf("empty query")
	}
	if g, err := format.ParseGUID(s); err == nil && len(s) >= 32 {
		return Query{GUID: g.String()}, nil
	}
	if i := strings.IndexByte(s, '.'); i > 0 && i < len(s)-1 {
		// "CityTex.utx" is a file name, not an object.
		if rest := s[i+1:]; !strings.Contains(rest, ".") && ini.IsPackageExt("."+rest) {
			return Query{Name: s[:i]}, nil
		}
		return Query{Name: s[:i], Object: s[i+1:]}, nil
	}
	return Query{Name: strings.TrimSuffix(s, ".")}, nil
}

// Find answers a Query: every copy, newest first; for an object query, the
// copies that export the object first.
func (d *DB) Find(ctx context.Context, q Query) ([]Package, error) {
	r, err := d.find(ctx, q)
	return r, d.named(err)
}

// find is Find without the database named in its errors.
func (d *DB) find(ctx context.Context, q Query) ([]Package, error) {
	switch {
	case q.GUID != "":
		return d.ByGUID(ctx, q.GUID)
	case q.Object != "":
		return d.WithObject(ctx, q.Name, q.Object, "")
	}
	return d.ByName(ctx, q.Name)
}

// Candidates lists the copies that could stand in for a missing package:
// with guid (when not "") those with that GUID first, then the others of the
// same name; newest first within each group.
func (d *DB) Candidates(ctx context.Context, name, guid string) ([]Package, error) {
	r, err := d.candidates(ctx, name, guid)
	return r, d.named(err)
}

// candidates is Candidates without the database named in its errors.
func (d *DB) candidates(ctx context.Context, name, guid string) ([]Package, error) {
	ps, err := d.ByName(ctx, name)
	if err != nil || guid == "" {
		return ps, err
	}
	var same, other []Package
	for _, p := range ps {
		if strings.EqualFold(p.GUID, guid) {
			p.Matches = append(p.Matches, "guid")
			same = append(same, p)
		} else {
			other = append(other, p)
		}
	}
	return append(same, other...), nil
}
