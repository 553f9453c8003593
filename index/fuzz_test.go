package index

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/archive"
)

// fuzzSeeds are the seeds of FuzzRead and FuzzAddFind: two packages and
// the first bytes of one.
func fuzzSeeds(f *testing.F) {
	f.Add(pkgBytes(f, 1, []string{"Core"}, "Thing:Class", "Group.Tex:Engine.Texture"))
	f.Add(pkgBytes(f, 2, nil))
	f.Add([]byte("\xc1\x83\x2a\x9e\x45\x00\x00\x00"))
}

// fuzzFiles writes data as the loose package dir/Fuzz.u and as the member
// System/Zipped.u of dir/in.zip, stored: a deflated member made the
// fuzzer find new coverage in the compressor, not in the code under test,
// and spend its time minimising those inputs. It returns the jobs that
// read them as Add does.
func fuzzFiles(t *testing.T, dir string, data []byte) []job {
	loose, zipped := filepath.Join(dir, "Fuzz.u"), filepath.Join(dir, "in.zip")
	write(t, loose, data)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: "System/Zipped.u", Method: zip.Store})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(data)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	write(t, zipped, buf.Bytes())
	return []job{
		{path: loose, size: int64(len(data)), fileName: "Fuzz.u"},
		{path: zipped, size: int64(buf.Len()), fileName: "in.zip", archive: true},
	}
}

// FuzzRead reads arbitrary bytes as a loose package and as the member of
// a zip, as Add does before it writes rows, without the database
// (FuzzAddFind writes the rows): never a panic; a file is a package, an
// error row or neither; a package's SHA-256 and size are those of the
// bytes, and CopyTo reads the same bytes back.
func FuzzRead(f *testing.F) {
	fuzzSeeds(f)
	dir := f.TempDir()
	a := &adder{old: map[fileKey]fileRow{}}
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, data []byte) {
		sum := sha256.Sum256(data)
		for _, j := range fuzzFiles(t, dir, data) {
			rs := a.read(ctx, j)
			if len(rs) == 0 || len(rs) > 2 {
				t.Fatalf("%s: %d results", j.fileName, len(rs))
			}
			for _, r := range rs {
				if r.pkg == nil {
					continue
				}
				if r.err != "" {
					t.Fatalf("%s %s: a package and the error %q", j.fileName, r.key.member, r.err)
				}
				if r.pkg.sha256 != hex.EncodeToString(sum[:]) || r.pkg.size != int64(len(data)) {
					t.Fatalf("%s %s: read as %s, %d bytes; the bytes are %x, %d", j.fileName, r.key.member, r.pkg.sha256, r.pkg.size, sum, len(data))
				}
				p := Package{FileName: r.pkg.fileName, Size: r.pkg.size, SHA256: r.pkg.sha256, Compressed: r.pkg.compressed,
					Path: r.key.path, Member: r.key.member, HasBytes: true}
				var buf bytes.Buffer
				if _, err := CopyTo(ctx, &buf, &p, archive.Limits{}); err != nil || !bytes.Equal(buf.Bytes(), data) {
					t.Fatalf("%s %s: CopyTo: %v", j.fileName, r.key.member, err)
				}
			}
		}
	})
}

// FuzzAddFind writes the rows of a package whose name, exports and
// imports, and of an unreadable file whose error, are arbitrary text, and
// reads them back as Find does: never a write error, every value as
// written. The harness is narrower than Add: FuzzRead fuzzes the reads
// of bytes, and the walk of the folder, the counts, Find's queries and
// Remove have tests of their own. The statements are prepared once and
// each input's rows are written in a transaction that is rolled back.
// Through Add, Find and Remove on bytes, the instrumented SQLite parsing
// every statement again, a database changed by every input, and the
// package reader's own new coverage took the fuzzer's time (212
// executions in 45 s; 3,419 with the reads of FuzzRead and the rest as
// here).
func FuzzAddFind(f *testing.F) {
	f.Add("Engine", "texture.group.tex\x00Texture\nthing\x00Class", "Core\nEngine", "format: at offset 8 (0x8): header runs past the end")
	f.Add("Ünïcødé", "", "", "")
	f.Add("a'b\"c%_", "x\x00", "\x00\n", "\xff\xfe")
	d, err := Open(filepath.Join(f.TempDir(), "index.db"))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { d.Close() })
	dir := f.TempDir()
	ctx := context.Background()
	a := &adder{d: d, old: map[fileKey]fileRow{}}
	if err := d.db.QueryRow(`INSERT INTO sources (kind, location, added_at, updated_at) VALUES (?, ?, '', '') RETURNING id`,
		KindDir, dir).Scan(&a.src); err != nil {
		f.Fatal(err)
	}
	// Statements prepared on the database's one connection are used by
	// its transactions as they are (sql.Tx.Stmt): parsed once.
	prepared, err := prepare(ctx, d.db)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(prepared.close)
	var readBack, readExports, readImports, readErrors *sql.Stmt
	for _, q := range []struct {
		dst **sql.Stmt
		q   string
	}{
		{&readBack, `SELECT ` + pkgColumns + pkgFrom + `WHERE p.source_id = ? ORDER BY p.id`},
		{&readExports, `SELECT path_lower, class FROM exports WHERE package_id = ? ORDER BY rowid`},
		{&readImports, `SELECT name FROM imports WHERE package_id = ? ORDER BY rowid`},
		{&readErrors, `SELECT path, member, error FROM files WHERE source_id = ? AND error <> '' ORDER BY id`},
	} {
		if *q.dst, err = d.db.PrepareContext(ctx, q.q); err != nil {
			f.Fatal(err)
		}
		f.Cleanup(func() { (*q.dst).Close() })
	}
	f.Fuzz(func(t *testing.T, name, exports, imports, errText string) {
		sum := sha256.Sum256([]byte(name))
		p := &pkgInfo{name: name, fileName: name + ".u", ext: "u", guid: "0123456789ABCDEF0123456789ABCDEF",
			size: int64(len(name)), sha256: hex.EncodeToString(sum[:])}
		for _, e := range strings.Split(exports, "\n") {
			path, class, _ := strings.Cut(e, "\x00")
			if e != "" {
				p.exports = append(p.exports, export{pathLower: path, class: class})
			}
		}
		for _, im := range strings.Split(imports, "\n") {
			if im != "" {
				p.imports = append(p.imports, im)
			}
		}
		rs := []result{
			{key: fileKey{filepath.Join(dir, "Fuzz.u"), ""}, size: p.size, pkg: p},
			{key: fileKey{filepath.Join(dir, "in.zip"), name}, size: 1, err: errText},
		}
		tx, err := d.db.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		in := &stmts{}
		for _, s := range [][2]**sql.Stmt{{&in.delFile, &prepared.delFile}, {&in.insFile, &prepared.insFile}, {&in.insPkg, &prepared.insPkg},
			{&in.insExport, &prepared.insExport}, {&in.insImport, &prepared.insImport}, {&in.insExports, &prepared.insExports}} {
			*s[0] = tx.StmtContext(ctx, *s[1])
		}
		a.seen, a.res = map[int64]bool{}, &AddResult{}
		for _, r := range rs {
			if err := a.writeOne(ctx, in, r); err != nil {
				t.Fatalf("write %q: %v", r.key.member, err)
			}
		}
		rows, err := tx.StmtContext(ctx, readBack).QueryContext(ctx, a.src)
		if err != nil {
			t.Fatal(err)
		}
		have, err := scanPackages(rows)
		if err != nil {
			t.Fatal(err)
		}
		if len(have) != 1 || have[0].Name != name || have[0].FileName != p.fileName || have[0].SHA256 != p.sha256 ||
			have[0].Size != p.size || have[0].Path != rs[0].key.path || have[0].Member != "" {
			t.Fatalf("read back %+v, wrote %+v", have, p)
		}
		var ex []export
		var ims, errs []string
		for _, q := range []struct {
			st   *sql.Stmt
			arg  int64
			scan func(*sql.Rows) error
		}{
			{readExports, have[0].ID, func(r *sql.Rows) error {
				var e export
				err := r.Scan(&e.pathLower, &e.class)
				ex = append(ex, e)
				return err
			}},
			{readImports, have[0].ID, func(r *sql.Rows) error {
				var s string
				err := r.Scan(&s)
				ims = append(ims, s)
				return err
			}},
			{readErrors, a.src, func(r *sql.Rows) error {
				var path, member, e string
				err := r.Scan(&path, &member, &e)
				errs = append(errs, path+"|"+member+"|"+e)
				return err
			}},
		} {
			rows, err := tx.StmtContext(ctx, q.st).QueryContext(ctx, q.arg)
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				if err := q.scan(rows); err != nil {
					t.Fatal(err)
				}
			}
			if err := rows.Close(); err != nil {
				t.Fatal(err)
			}
		}
		if !slices.Equal(ex, p.exports) || !slices.Equal(ims, p.imports) {
			t.Fatalf("read back exports %q, imports %q; wrote %q, %q", ex, ims, p.exports, p.imports)
		}
		var wantErrs []string
		if errText != "" {
			wantErrs = []string{rs[1].key.path + "|" + name + "|" + errText}
		}
		if !slices.Equal(errs, wantErrs) {
			t.Fatalf("read back the errors %q, wrote %q", errs, wantErrs)
		}
	})
}
