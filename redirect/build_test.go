package redirect

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/internal/fsutil"
	"github.com/upkdeps/upkdeps/internal/testutil"
	"github.com/upkdeps/upkdeps/uz"
)

func build(t testing.TB, m *Map, opt BuildOptions) *BuildReport {
	t.Helper()
	if opt.Jobs == 0 {
		opt.Jobs = 2
	}
	rep, err := Build(context.Background(), m, opt)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func verify(t testing.TB, m *Map, dir string) *VerifyReport {
	t.Helper()
	rep, err := Verify(context.Background(), m, VerifyOptions{Dir: dir, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// ops returns "op file" for each action.
func ops(rep *BuildReport) []string {
	var out []string
	for _, a := range rep.Actions {
		out = append(out, string(a.Op)+" "+a.File)
	}
	return out
}

// plain drops the outcome of actions, keeping what the plan decides.
func plain(as []Action) []Action {
	out := make([]Action, len(as))
	for i, a := range as {
		out[i] = Action{Op: a.Op, Package: a.Package, Source: a.Source, File: a.File, CopyOf: a.CopyOf, Reason: a.Reason}
	}
	return out
}

func errorsOf(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		if f.Severity == Error {
			out = append(out, string(f.Kind)+":"+f.Package+":"+f.File)
		}
	}
	return out
}

// TestBuildThenVerify is the acceptance test: build then verify is clean;
// after deleting one file, corrupting another and replacing a third with
// an older version, verify names all three.
func TestBuildThenVerify(t *testing.T) {
	for _, gen := range []int{1, 2} {
		s := modServer(t, gen)
		m := s.mapOf(t, MapOptions{})
		out := filepath.Join(t.TempDir(), "redirect")
		ext := uz.KindForGeneration(gen).Ext()
		mapExt := map[int]string{1: ".unr", 2: ".ut2"}[gen]

		dry := build(t, m, BuildOptions{Out: out, DryRun: true})
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("gen %d: dry run created the output folder", gen)
		}
		rep := build(t, m, BuildOptions{Out: out})
		if !slices.Equal(plain(dry.Actions), plain(rep.Actions)) {
			t.Errorf("gen %d: dry run and real run differ:\n dry %v\nreal %v", gen, ops(dry), ops(rep))
		}
		want := []string{"create CTF-Gen" + mapExt + ext, "create DM-Gen" + mapExt + ext, "create ModGame.u" + ext,
			"create ModSnd.uax" + ext, "create ModTex.utx" + ext, "create manifest.json"}
		if have := ops(rep); !slices.Equal(have, want) {
			t.Errorf("gen %d: first build\nhave %v\nwant %v", gen, have, want)
		}
		if errs := errorsOf(rep.Findings); len(errs) > 0 {
			t.Errorf("gen %d: build errors %v", gen, errs)
		}
		v := verify(t, m, out)
		if errs := errorsOf(v.Findings); len(errs) > 0 || v.Checked != 5 || v.Packages != 5 {
			t.Errorf("gen %d: verify after build: errors %v, checked %d, packages %d", gen, errs, v.Checked, v.Packages)
		}
		for _, f := range v.Findings {
			if f.Kind != Stock {
				t.Errorf("gen %d: verify after build: %+v", gen, f)
			}
		}

		// Second build: nothing to do.
		again := build(t, m, BuildOptions{Out: out})
		for _, a := range again.Actions {
			if a.Op != OpKeep {
				t.Errorf("gen %d: second build: %s %s (%s)", gen, a.Op, a.File, a.Reason)
			}
		}

		// Delete one, corrupt one, replace one with an older version.
		if err := os.Remove(filepath.Join(out, "ModSnd.uax"+ext)); err != nil {
			t.Fatal(err)
		}
		corrupt := filepath.Join(out, "ModGame.u"+ext)
		data := readRaw(t, corrupt)
		data[len(data)/2] ^= 0x10
		writeRaw(t, corrupt, data)
		older := spec{file: "Textures/ModTex.utx", version: m.entry("ModTex").Version, guid: 77, payload: 50 << 10,
			exports: []string{"Wall:Engine.Texture"}, imports: []string{"Engine.Texture:Core.Class"}}
		oldImg := filepath.Join(t.TempDir(), "ModTex.utx")
		writeRaw(t, oldImg, packageImage(t, older))
		if _, err := CompressFile(context.Background(), oldImg, filepath.Join(out, "ModTex.utx"+ext),
			CompressOptions{Kind: uz.KindForGeneration(gen), Force: true}); err != nil {
			t.Fatal(err)
		}
		v = verify(t, m, out)
		wantErrs := []string{"corrupt:ModGame:ModGame.u" + ext, "missing:ModSnd:ModSnd.uax" + ext, "outdated:ModTex:ModTex.utx" + ext}
		if have := errorsOf(v.Findings); !slices.Equal(have, wantErrs) {
			t.Errorf("gen %d: verify after damage\nhave %v\nwant %v", gen, have, wantErrs)
			for _, f := range v.Findings {
				t.Log(f)
			}
		}

		// The next build repairs exactly those three, whether or not the
		// manifest is there to tell.
		for _, withManifest := range []bool{true, false} {
			if !withManifest {
				os.Remove(filepath.Join(out, "ModGame.u"+ext))
				os.Remove(filepath.Join(out, ManifestName))
			}
			rep = build(t, m, BuildOptions{Out: out})
			var changed []string
			for _, a := range rep.Actions {
				if a.Op != OpKeep {
					changed = append(changed, string(a.Op)+" "+a.File)
				}
			}
			want := []string{"update ModGame.u" + ext, "create ModSnd.uax" + ext, "update ModTex.utx" + ext, "update manifest.json"}
			if !withManifest {
				want = []string{"create ModGame.u" + ext, "create manifest.json"}
			}
			if !slices.Equal(changed, want) {
				t.Errorf("gen %d (manifest %v): repair build\nhave %v\nwant %v", gen, withManifest, changed, want)
			}
			if errs := errorsOf(verify(t, m, out).Findings); len(errs) > 0 {
				t.Errorf("gen %d: verify after repair: %v", gen, errs)
			}
		}
	}
}

func (m *Map) entry(name string) Entry {
	for _, e := range m.Entries {
		if strings.EqualFold(e.Name, name) {
			return e
		}
	}
	return Entry{}
}

func TestBuildManifest(t *testing.T) {
	s := modServer(t, 1)
	m := s.mapOf(t, MapOptions{})
	out := t.TempDir()
	caseSensitive := testutil.CaseSensitive(t, out)
	build(t, m, BuildOptions{Out: out, Lowercase: true})
	man, err := ReadManifest(out)
	if err != nil || man == nil {
		t.Fatalf("ReadManifest: %v", err)
	}
	var names []string
	for _, me := range man.Entries {
		names = append(names, me.Name)
		e := m.entry(me.Name)
		orig := readRaw(t, e.File)
		packed := readRaw(t, filepath.Join(out, me.CompressedFile))
		if me.File != e.Base || me.GUID != e.GUID || me.Size != int64(len(orig)) || me.SHA256 != sum(orig) ||
			me.CompressedSize != int64(len(packed)) || me.CompressedSHA256 != sum(packed) || me.CompressedFile != e.Compressed {
			t.Errorf("manifest entry %+v does not describe %s", me, e.Compressed)
		}
		if !caseSensitive { // no copies: TestBuildLowercaseFolding
			continue
		}
		if me.LowercaseFile != strings.ToLower(e.Compressed) {
			t.Errorf("%s: lowercase_file %q", me.Name, me.LowercaseFile)
		}
		if low := readRaw(t, filepath.Join(out, me.LowercaseFile)); !bytes.Equal(low, packed) {
			t.Errorf("%s: lower-case copy differs", me.LowercaseFile)
		}
	}
	if want := []string{"CTF-Gen", "DM-Gen", "ModGame", "ModSnd", "ModTex"}; !slices.Equal(names, want) {
		t.Errorf("manifest names %v, want %v", names, want)
	}
	// Lower-case copies are not extra files, and are checked.
	if !caseSensitive {
		t.Skip("the rest damages the lower-case copy, which a case-insensitive file system does not hold")
	}
	writeRaw(t, filepath.Join(out, "modtex.utx.uz"), []byte("garbage"))
	writeRaw(t, filepath.Join(out, "stray.txt"), []byte("x"))
	v := verify(t, m, out)
	want := []string{"corrupt:ModTex:modtex.utx.uz"}
	if have := errorsOf(v.Findings); !slices.Equal(have, want) {
		t.Errorf("verify: have %v, want %v", have, want)
	}
	if !slices.ContainsFunc(v.Findings, func(f Finding) bool { return f.Kind == Extra && f.File == "stray.txt" }) {
		t.Errorf("stray.txt not reported extra: %v", kinds(v.Findings))
	}
	// The next build replaces the damaged copy only.
	rep := build(t, m, BuildOptions{Out: out, Lowercase: true})
	var changed []string
	for _, a := range rep.Actions {
		if a.Op != OpKeep {
			changed = append(changed, string(a.Op)+" "+a.File)
		}
	}
	if want := []string{"update modtex.utx.uz"}; !slices.Equal(changed, want) {
		t.Errorf("lower-case repair: have %v, want %v", changed, want)
	}
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func TestBuildUpdatesChangedPackage(t *testing.T) {
	s := modServer(t, 1)
	m := s.mapOf(t, MapOptions{})
	out := t.TempDir()
	build(t, m, BuildOptions{Out: out})
	// The server gets a new version of ModSnd.
	s.writePackage(t, spec{file: "Sounds/ModSnd.uax", guid: 500, payload: 6000,
		exports: []string{"Boom:Engine.Sound"}, imports: []string{"Engine.Sound:Core.Class"}})
	m = s.mapOf(t, MapOptions{})
	if errs := errorsOf(verify(t, m, out).Findings); !slices.Equal(errs, []string{"outdated:ModSnd:ModSnd.uax.uz"}) {
		t.Errorf("verify: have %v", errs)
	}
	rep := build(t, m, BuildOptions{Out: out})
	for _, a := range rep.Actions {
		wantOp := OpKeep
		if a.File == "ModSnd.uax.uz" || a.File == ManifestName {
			wantOp = OpUpdate
		}
		if a.Op != wantOp {
			t.Errorf("%s: %s (%s), want %s", a.File, a.Op, a.Reason, wantOp)
		}
	}
	// --force rewrites everything.
	rep = build(t, m, BuildOptions{Out: out, Force: true})
	for _, a := range rep.Actions {
		if a.Op != OpUpdate {
			t.Errorf("forced: %s %s", a.Op, a.File)
		}
	}
}

func TestBuildRefusesBiggerUZ(t *testing.T) {
	s := writeServer(t, 1, []spec{
		{file: "System/Noise.u", exports: []string{"N:Class"}, payload: 3000, random: true},
		{file: "System/Fine.u", exports: []string{"F:Class"}, payload: 3000},
	}, "Noise", "Fine")
	m := s.mapOf(t, MapOptions{})
	out := t.TempDir()
	rep := build(t, m, BuildOptions{Out: out})
	if have := errorsOf(rep.Findings); !slices.Equal(have, []string{"bigger_than_source:Noise:Noise.u.uz"}) {
		t.Errorf("findings: have %v", have)
	}
	if _, err := os.Stat(filepath.Join(out, "Noise.u.uz")); err == nil {
		t.Errorf("Noise.u.uz written although larger than its source")
	}
	man, _ := ReadManifest(out)
	if man == nil || len(man.Entries) != 1 || man.Entries[0].Name != "Fine" {
		t.Errorf("manifest should list Fine only: %+v", man)
	}
	names, _ := os.ReadDir(out)
	for _, n := range names {
		if fsutil.IsTemp(n.Name()) {
			t.Errorf("temporary file left: %s", n.Name())
		}
	}
	rep = build(t, m, BuildOptions{Out: out, AllowBigger: true})
	if errs := errorsOf(rep.Findings); len(errs) > 0 {
		t.Errorf("AllowBigger: %v", errs)
	}
	v := verify(t, m, out)
	if !slices.ContainsFunc(v.Findings, func(f Finding) bool { return f.Kind == BiggerThanSrc && f.Severity == Warning }) {
		t.Errorf("verify does not warn about the big .uz: %v", kinds(v.Findings))
	}
}

func TestVerifyCaseAndFormat(t *testing.T) {
	s := modServer(t, 1)
	m := s.mapOf(t, MapOptions{})
	out := t.TempDir()
	build(t, m, BuildOptions{Out: out})
	// Written anew under the other case: wine 8 keeps the old spelling of a
	// file renamed to another case of its name.
	data := readRaw(t, filepath.Join(out, "ModGame.u.uz"))
	if err := os.Remove(filepath.Join(out, "ModGame.u.uz")); err != nil {
		t.Fatal(err)
	}
	writeRaw(t, filepath.Join(out, "modgame.u.uz"), data)
	// A .uz2 where UE1 clients need a .uz.
	e := m.entry("ModSnd")
	os.Remove(filepath.Join(out, e.Compressed))
	if _, err := CompressFile(context.Background(), e.File, filepath.Join(out, "ModSnd.uax.uz2"), CompressOptions{Kind: uz.KindUZ2}); err != nil {
		t.Fatal(err)
	}
	// A .uz with signature 5678 and another embedded name.
	e = m.entry("ModTex")
	renamed := filepath.Join(t.TempDir(), "Other.utx")
	writeRaw(t, renamed, readRaw(t, e.File))
	if _, err := CompressFile(context.Background(), renamed, filepath.Join(out, e.Compressed), CompressOptions{Kind: uz.KindUZ, Signature: uz.Sig5678, Force: true}); err != nil {
		t.Fatal(err)
	}
	v := verify(t, m, out)
	want := []string{
		"missing:ModSnd:ModSnd.uax.uz",
		"wrong_case:ModGame:modgame.u.uz",
		"name_mismatch:ModTex:ModTex.utx.uz",
		"new_signature:ModTex:ModTex.utx.uz",
	}
	var have []string
	for _, f := range v.Findings {
		if f.Kind != Stock {
			have = append(have, string(f.Kind)+":"+f.Package+":"+f.File)
		}
	}
	if !slices.Equal(have, want) {
		t.Errorf("findings\nhave %v\nwant %v", have, want)
		for _, f := range v.Findings {
			t.Log(f.Message)
		}
	}
	// A build rewrites the 5678 file with signature 1234.
	rep := build(t, m, BuildOptions{Out: out})
	for _, a := range rep.Actions {
		if a.File == "ModTex.utx.uz" && (a.Op != OpUpdate || !strings.Contains(a.Reason, "5678")) {
			t.Errorf("ModTex.utx.uz: %s (%s), want an update for the signature", a.Op, a.Reason)
		}
	}
}

func TestBuildBadManifest(t *testing.T) {
	s := modServer(t, 1)
	m := s.mapOf(t, MapOptions{})
	out := t.TempDir()
	build(t, m, BuildOptions{Out: out})
	for _, bad := range []string{"{not json", `{"schema_version": 2, "entries": []}`,
		`{"schema_version": 1, "entries": [{"name": "X", "file": "../X.u", "guid": "00000000000000000000000000000000", "compressed_file": "X.u.uz"}]}`} {
		writeRaw(t, filepath.Join(out, ManifestName), []byte(bad))
		rep := build(t, m, BuildOptions{Out: out})
		if !slices.ContainsFunc(rep.Findings, func(f Finding) bool { return f.Kind == ManifestProblem }) {
			t.Errorf("%q: no manifest warning: %v", bad, kinds(rep.Findings))
		}
		for _, a := range rep.Actions {
			want := OpKeep
			if a.File == ManifestName {
				want = OpUpdate
			}
			if a.Op != want {
				t.Errorf("%q: %s %s (%s), want %s", bad, a.Op, a.File, a.Reason, want)
			}
		}
		if man, err := ReadManifest(out); err != nil || len(man.Entries) != 5 {
			t.Errorf("%q: manifest not rewritten: %v", bad, err)
		}
	}
	// The output must be a folder.
	file := filepath.Join(t.TempDir(), "file")
	writeRaw(t, file, nil)
	if _, err := Build(context.Background(), m, BuildOptions{Out: file}); err == nil {
		t.Errorf("Build into a file: no error")
	}
}

// TestBuildLowercaseFolding: every lower-case copy a build reports, and
// every lowercase_file of its manifest, is a file of its own in the
// folder's listing.
func TestBuildLowercaseFolding(t *testing.T) {
	s := modServer(t, 1)
	m := s.mapOf(t, MapOptions{})
	out := t.TempDir()
	rep := build(t, m, BuildOptions{Out: out, Lowercase: true})
	names := testutil.DirNames(t, out)
	for _, a := range rep.Actions {
		if a.CopyOf != "" && !slices.Contains(names, a.File) {
			t.Errorf("%s %s (copy of %s): not in the folder %v", a.Op, a.File, a.CopyOf, names)
		}
	}
	man, err := ReadManifest(out)
	if err != nil || man == nil {
		t.Fatalf("ReadManifest: %v", err)
	}
	copies := 0
	for _, me := range man.Entries {
		if me.LowercaseFile != "" {
			copies++
			if !slices.Contains(names, me.LowercaseFile) {
				t.Errorf("manifest: %s has lowercase_file %s, not in the folder", me.Name, me.LowercaseFile)
			}
		}
	}
	// Where the folder ignores case there are none, and the build says so.
	folds := !testutil.CaseSensitive(t, out)
	said := slices.ContainsFunc(rep.Findings, func(f Finding) bool { return f.Kind == LowercaseFolded && f.Severity == Warning })
	if said != folds || (copies == 0) != folds {
		t.Errorf("case-insensitive %v: lowercase_folded %v, %d copies", folds, said, copies)
	}
}

// TestBuildDryRunNoFolder: a dry run without a folder plans what a new,
// empty folder would get, reports Out as "" and leaves nothing in the
// temporary folder; a real run without a folder is an error.
func TestBuildDryRunNoFolder(t *testing.T) {
	s := modServer(t, 1)
	m := s.mapOf(t, MapOptions{})
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	rep := build(t, m, BuildOptions{DryRun: true})
	fresh := build(t, m, BuildOptions{Out: filepath.Join(t.TempDir(), "redirect"), DryRun: true})
	if rep.Out != "" || !rep.DryRun || !slices.Equal(plain(rep.Actions), plain(fresh.Actions)) || len(rep.Actions) == 0 {
		t.Errorf("out %q, dry run %v, actions\n%v\nwant those into a new folder\n%v", rep.Out, rep.DryRun, ops(rep), ops(fresh))
	}
	if left, err := os.ReadDir(tmp); err != nil || len(left) > 0 {
		t.Errorf("left in the temporary folder: %v %v", left, err)
	}
	if _, err := Build(context.Background(), m, BuildOptions{}); err == nil {
		t.Error("a real build without a folder: no error")
	}
}
