package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/archive"
	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/index"
	"github.com/upkdeps/upkdeps/uz"
)

// fixPkg builds a package (GUID from seed) that exports the class Thing and
// imports Thing from each of imports.
func fixPkg(t *testing.T, seed uint32, imports ...string) []byte {
	t.Helper()
	b := format.NewBuilder(69, 0)
	b.File.GUID = format.GUID{0xF1C0 + seed, seed, seed * 5, 0xC0DE}
	for _, im := range imports {
		b.ImportSpec(im + ".Thing:Core.Class")
	}
	b.ExportSpec("Thing:Class", 64)
	data, err := format.Marshal(b.File)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func writeFixFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

const fixIni = "[Core.System]\r\nPaths=../System/*.u\r\nPaths=../Maps/*.unr\r\nPaths=../Textures/*.utx\r\n" +
	"[Engine.GameEngine]\r\nServerPackages=ModA\r\n"

// fixWorld writes an install that lacks ModA and Tex, and a collection
// where ModA needs ModB, which needs ModC, which needs ModA again (a cycle)
// and Gone, which no source has; the copies sit in a folder, a .zip, a
// .umod inside that zip and a .uz2 download.
func fixWorld(t *testing.T) (game, coll string) {
	root := t.TempDir()
	game, coll = filepath.Join(root, "game"), filepath.Join(root, "collection")
	writeFixFile(t, filepath.Join(game, "System", "Game.ini"), []byte(fixIni))
	writeFixFile(t, filepath.Join(game, "System", "Core.u"), fixPkg(t, 1))
	writeFixFile(t, filepath.Join(game, "Maps", "DM-Fix.unr"), fixPkg(t, 2, "ModA", "Tex", "Core"))

	writeFixFile(t, filepath.Join(coll, "old", "System", "ModA.u"), fixPkg(t, 10, "ModB", "Core"))
	var um bytes.Buffer
	u := archive.NewUMODWriter(&um)
	u.Add(`System\ModC.u`, fixPkg(t, 12, "ModA", "Gone"))
	u.Add(`System\Manifest.ini`, []byte("[Setup]\r\n"))
	u.Close()
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	for name, data := range map[string][]byte{"System/ModB.u": fixPkg(t, 11, "ModC"), "ModC.umod": um.Bytes()} {
		w, _ := zw.Create(name)
		w.Write(data)
	}
	zw.Close()
	writeFixFile(t, filepath.Join(coll, "downloads", "modb.zip"), zb.Bytes())
	var z2 bytes.Buffer
	w2 := uz.NewWriter2(&z2, 1)
	w2.Write(fixPkg(t, 13))
	w2.Close()
	writeFixFile(t, filepath.Join(coll, "redirect", "Tex.utx.uz2"), z2.Bytes())
	return game, coll
}

func TestFixClosure(t *testing.T) {
	game, coll := fixWorld(t)
	db := filepath.Join(t.TempDir(), "index.db")
	ini := filepath.Join(game, "System", "Game.ini")
	if out, errOut, code := runCLI(t, "index", "add", "--index", db, "--no-progress", coll); code != exitOK {
		t.Fatalf("index add: code %d\n%s%s", code, out, errOut)
	}
	// check --index: each missing package with its candidate.
	out, _, code := runCLI(t, "check", "--ini", ini, "--game", "ut99", "--index", db, "--json", "--no-progress")
	if code != exitFindings {
		t.Fatalf("check --index: code %d", code)
	}
	var rep checkReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, c := range rep.Index.Candidates {
		if len(c.Candidates) > 0 {
			got[c.Package] = filepath.ToSlash(c.Candidates[0].Where())
		}
	}
	if !strings.HasSuffix(got["ModA"], "old/System/ModA.u") || !strings.HasSuffix(got["Tex"], "redirect/Tex.utx.uz2") || len(got) != 2 {
		t.Errorf("candidates %v", got)
	}
	text, _, _ := runCLI(t, "check", "--ini", ini, "--game", "ut99", "--index", db, "--no-progress")
	if !strings.Contains(text, "index: ModA in ") {
		t.Errorf("check text lacks the candidate:\n%s", text)
	}

	// The dry run plans the closure and writes nothing.
	out, _, code = runCLI(t, "fix", "--ini", ini, "--game", "ut99", "--index", db, "--dry-run", "--no-progress")
	for _, want := range []string{
		"2 missing package(s); would copy (dry run) 4 package(s), 2 of them needed by the packages it brings",
		"  planned  Textures/Tex.utx <- ", "+ planned  System/ModB.u <- ", "+ planned  System/ModC.u <- ",
		"needed by ModB", "Gone: not in the index (needed by ModC)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("dry run lacks %q:\n%s", want, out)
		}
	}
	if code != exitFindings {
		t.Errorf("dry run: code %d", code)
	}
	if _, err := os.Stat(filepath.Join(game, "System", "ModA.u")); err == nil {
		t.Fatal("the dry run wrote ModA.u")
	}

	// fix copies the whole closure in one run; what is left is Gone.
	out, _, _ = runCLI(t, "fix", "--ini", ini, "--game", "ut99", "--index", db, "--json", "--no-progress")
	var fr index.FixReport
	if err := json.Unmarshal([]byte(out), &fr); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var copied []string
	for _, c := range fr.Copies {
		copied = append(copied, c.To+"="+string(c.Status))
	}
	if have, want := strings.Join(copied, " "), "System/ModA.u=copied Textures/Tex.utx=copied System/ModB.u=copied System/ModC.u=copied"; have != want {
		t.Errorf("copies: have %q, want %q", have, want)
	}
	if fr.MissingAfter == nil || *fr.MissingAfter != 1 || fr.Left[0].Package != "Gone" {
		t.Errorf("after: %v %+v", fr.MissingAfter, fr.Left)
	}
	data, _ := os.ReadFile(filepath.Join(game, "Textures", "Tex.utx"))
	if !bytes.Equal(data, fixPkg(t, 13)) {
		t.Error("Tex.utx is not the decompressed package")
	}

	// A second run finds everything present and copies nothing.
	out, _, _ = runCLI(t, "fix", "--ini", ini, "--game", "ut99", "--index", db, "--no-progress")
	if !strings.Contains(out, "1 missing package(s); copies 0 package(s)") {
		t.Errorf("second fix:\n%s", out)
	}
}

func TestFixRefuses(t *testing.T) {
	game, coll := fixWorld(t)
	// A second ModA with another GUID makes the pick ambiguous.
	writeFixFile(t, filepath.Join(coll, "new", "ModA.u"), fixPkg(t, 20))
	db := filepath.Join(t.TempDir(), "index.db")
	ini := filepath.Join(game, "System", "Game.ini")
	runCLI(t, "index", "add", "--index", db, "--no-progress", coll)
	out, _, code := runCLI(t, "fix", "--ini", ini, "--game", "ut99", "--index", db, "--dry-run", "--no-progress")
	if code != exitFindings || !strings.Contains(out, "ModA: ambiguous: 2 copies with 2 different GUIDs") || !strings.Contains(out, "; choose one with --pick ModA=GUID (needed by") {
		t.Errorf("ambiguous: code %d\n%s", code, out)
	}
	guid := format.GUID{0xF1C0 + 20, 20, 100, 0xC0DE}.String()
	// A download cache that has seen one of the versions decides.
	cacheIni := strings.Replace(fixIni, "[Core.System]\r\n", "[Core.System]\r\nCachePath=../Cache\r\nCacheExt=.uxx\r\n", 1)
	writeFixFile(t, filepath.Join(game, "System", "Cached.ini"), []byte(cacheIni))
	writeFixFile(t, filepath.Join(game, "Cache", "cache.ini"), []byte("[Cache]\r\n"+guid+"=ModA.u\r\n"))
	out, _, _ = runCLI(t, "fix", "--ini", filepath.Join(game, "System", "Cached.ini"), "--game", "ut99", "--index", db, "--dry-run", "--no-progress")
	if !strings.Contains(out, "planned  System/ModA.u <- "+filepath.Join(coll, "new", "ModA.u")) {
		t.Errorf("the cache's version:\n%s", out)
	}
	out, _, _ = runCLI(t, "fix", "--ini", ini, "--game", "ut99", "--index", db, "--dry-run", "--pick", "moda="+guid, "--no-progress")
	if !strings.Contains(out, "planned  System/ModA.u <- "+filepath.Join(coll, "new", "ModA.u")) || strings.Contains(out, "ModB") {
		t.Errorf("picked:\n%s", out)
	}
	// Something that is not the package where a copy would go (here a
	// folder, which the engine's lookup skips) is refused, never replaced.
	if err := os.MkdirAll(filepath.Join(game, "Textures", "Tex.utx"), 0o755); err != nil {
		t.Fatal(err)
	}
	out, _, code = runCLI(t, "fix", "--ini", ini, "--game", "ut99", "--index", db, "--pick", "moda="+guid, "--no-progress")
	if code != exitFindings || !strings.Contains(out, "refused  Textures/Tex.utx <- ") || !strings.Contains(out, "copied   System/ModA.u") {
		t.Errorf("refusal: code %d\n%s", code, out)
	}
	if st, err := os.Stat(filepath.Join(game, "Textures", "Tex.utx")); err != nil || !st.IsDir() {
		t.Error("the folder in the way was replaced")
	}
	if _, _, code := runCLI(t, "fix", "--ini", ini, "--index", db, "--pick", "nonsense"); code != exitError {
		t.Errorf("bad --pick: code %d", code)
	}
}

func TestIndexCommands(t *testing.T) {
	_, coll := fixWorld(t)
	db := filepath.Join(t.TempDir(), "index.db")
	out, _, code := runCLI(t, "index", "add", "--index", db, "--no-progress", coll)
	if code != exitOK || !strings.Contains(out, "(dir): 4 package(s) from 6 file(s); read 6, unchanged 0") {
		t.Errorf("add: code %d\n%s", code, out)
	}
	out, _, _ = runCLI(t, "index", "add", "--index", db, "--no-progress", coll)
	if !strings.Contains(out, "read 0, unchanged 3") {
		t.Errorf("re-add:\n%s", out)
	}
	out, _, _ = runCLI(t, "index", "list", "--index", db)
	if !strings.Contains(out, "1 source(s)") || !strings.Contains(out, coll) {
		t.Errorf("list:\n%s", out)
	}
	out, _, _ = runCLI(t, "index", "stats", "--index", db, "--json")
	var st struct{ Packages int }
	json.Unmarshal([]byte(out), &st)
	if st.Packages != 4 {
		t.Errorf("stats: %s", out)
	}
	out, _, code = runCLI(t, "find", "--index", db, "modc.thing")
	if code != exitOK || !strings.Contains(out, "modb.zip!ModC.umod!System/ModC.u  has thing (Class)") {
		t.Errorf("find object: code %d\n%s", code, out)
	}
	if _, _, code := runCLI(t, "find", "--index", db, "Nothing"); code != exitFindings {
		t.Errorf("find nothing: code %d", code)
	}
	if out, _, code := runCLI(t, "index", "remove", "--index", db, coll); code != exitOK || !strings.Contains(out, "removed") {
		t.Errorf("remove: %d %s", code, out)
	}
	if _, _, code := runCLI(t, "index", "remove", "--index", db, coll); code != exitError {
		t.Errorf("remove again: code %d", code)
	}
}
