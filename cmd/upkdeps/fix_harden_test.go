package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/upkdeps/upkdeps/internal/dirlock"
	"github.com/upkdeps/upkdeps/internal/fsutil"
)

// fixIndexed writes fixWorld below dir and indexes its collection into
// dir/index.db; it returns the ini and the database.
func fixIndexed(t *testing.T, dir string) (ini, db string) {
	t.Helper()
	game, coll := filepath.Join(dir, "game"), filepath.Join(dir, "collection")
	g, c := fixWorld(t)
	for from, to := range map[string]string{g: game, c: coll} {
		if err := os.CopyFS(to, os.DirFS(from)); err != nil {
			t.Fatal(err)
		}
	}
	db = filepath.Join(dir, "index.db")
	if out, errOut, code := runCLI(t, "index", "add", "--index", db, "--no-progress", coll); code != exitOK {
		t.Fatalf("index add: code %d\n%s%s", code, out, errOut)
	}
	return filepath.Join(game, "System", "Game.ini"), db
}

// TestFixKillAtEveryStep kills fix at every step that changes the install
// (before and after each rename: a kill before one leaves a whole
// temporary copy), runs it again, and compares the install with one
// uninterrupted run: the same files, no temporary file left.
func TestFixKillAtEveryStep(t *testing.T) {
	if testing.Short() {
		t.Skip("runs fix a few dozen times")
	}
	run := func(dir string, at int) (int, int) {
		ini, db := filepath.Join(dir, "game", "System", "Game.ini"), filepath.Join(dir, "index.db")
		return runKilled(t, dir, at, "fix", "--ini", ini, "--game", "ut99", "--index", db, "--no-progress", "--jobs", "1")
	}
	ref := t.TempDir()
	fixIndexed(t, ref)
	_, steps := run(ref, 0)
	if steps < 4 {
		t.Fatalf("only %d steps: the hook sees nothing", steps)
	}
	want := snapshot(t, filepath.Join(ref, "game"))
	for at := 1; at <= steps; at++ {
		dir := t.TempDir()
		fixIndexed(t, dir)
		if code, _ := run(dir, at); code != killedCode {
			t.Fatalf("kill at step %d of %d: exit %d, not killed", at, steps, code)
		}
		run(dir, 0)
		if have := snapshot(t, filepath.Join(dir, "game")); !reflect.DeepEqual(have, want) {
			t.Errorf("killed at step %d of %d, then run again: the install differs from one uninterrupted run:\n%s",
				at, steps, diffSnapshots(have, want))
		}
	}
}

// TestFixRemovesItsTemps: a temporary file a killed fix left is removed by
// the next run, which says so.
func TestFixRemovesItsTemps(t *testing.T) {
	dir := t.TempDir()
	ini, db := fixIndexed(t, dir)
	stale := filepath.Join(dir, "game", "System", ".upkdeps-ModA.u-123456.tmp")
	writeFixFile(t, stale, []byte("half a package"))
	out, _, _ := runCLI(t, "fix", "--ini", ini, "--game", "ut99", "--index", db, "--no-progress")
	if _, err := os.Stat(stale); err == nil || !strings.Contains(out, "removed 1 temporary file(s) an interrupted fix left: System/.upkdeps-ModA.u-123456.tmp") {
		t.Errorf("the stale temporary file: %v\n%s", err, out)
	}
}

// TestFixLocked: while another process holds the install's lock, fix
// refuses (exit 2, naming the holder) instead of publishing beside it; a
// dry run, which writes nothing, still runs.
func TestFixLocked(t *testing.T) {
	dir := t.TempDir()
	ini, db := fixIndexed(t, dir)
	lock, err := dirlock.Dir(filepath.Join(dir, "game"), "upkdeps fix (test)")
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Unlock()
	_, errOut, code := runCLI(t, "fix", "--ini", ini, "--game", "ut99", "--index", db, "--no-progress")
	if code != exitError || !strings.Contains(errOut, "is being changed by pid") || !strings.Contains(errOut, "upkdeps fix (test)") {
		t.Errorf("locked: code %d\n%s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "game", "System", "ModA.u")); err == nil {
		t.Error("fix copied beside the lock holder")
	}
	if _, _, code := runCLI(t, "fix", "--ini", ini, "--game", "ut99", "--index", db, "--no-progress", "--dry-run"); code != exitFindings {
		t.Errorf("dry run while locked: code %d", code)
	}
}

// TestFixChangedKeepingSizeAndTime: a source whose bytes changed but whose
// size and modification time were kept (cp -p, rsync -t) is refused with
// advice that works: the next index add reads it again, and fix then
// copies the new bytes.
func TestFixChangedKeepingSizeAndTime(t *testing.T) {
	dir := t.TempDir()
	ini, db := fixIndexed(t, dir)
	src := filepath.Join(dir, "collection", "old", "System", "ModA.u")
	st, _ := os.Stat(src)
	data, _ := os.ReadFile(src)
	data[36] ^= 0xFF // a byte of the GUID: still a package
	if err := os.WriteFile(src, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(src, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	out, _, code := runCLI(t, "fix", "--ini", ini, "--game", "ut99", "--index", db, "--no-progress")
	if code != exitFindings || !strings.Contains(out, "ModA.u: content changed since it was indexed") ||
		!strings.Contains(out, "run upkdeps index add "+filepath.Join(dir, "collection")+" again") {
		t.Fatalf("changed source: code %d\n%s", code, out)
	}
	if out, _, _ := runCLI(t, "index", "add", "--index", db, "--no-progress", filepath.Join(dir, "collection")); !strings.Contains(out, "read 1,") {
		t.Errorf("the re-add did not read the changed file again:\n%s", out)
	}
	out, _, _ = runCLI(t, "fix", "--ini", ini, "--game", "ut99", "--index", db, "--no-progress")
	if have, _ := os.ReadFile(filepath.Join(dir, "game", "System", "ModA.u")); !bytes.Equal(have, data) {
		t.Errorf("after the re-add, ModA.u was not copied:\n%s", out)
	}
}

// TestFixVanishedSource: a source file gone since it was indexed is named,
// with the source to add again.
func TestFixVanishedSource(t *testing.T) {
	dir := t.TempDir()
	ini, db := fixIndexed(t, dir)
	os.Remove(filepath.Join(dir, "collection", "old", "System", "ModA.u"))
	os.Remove(filepath.Join(dir, "collection", "downloads", "modb.zip"))
	out, _, _ := runCLI(t, "fix", "--ini", ini, "--game", "ut99", "--index", db, "--no-progress")
	for _, want := range []string{
		"ModA.u: the file is gone since it was indexed",
		"modb.zip!System/ModB.u: the archive is gone since it was indexed",
		"run upkdeps index add " + filepath.Join(dir, "collection") + " again",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestFixBringsNativeBinaries: the .dll and .so named like a package beside
// it in the source come with it, and the plan says so (issue 25 item 10).
func TestFixBringsNativeBinaries(t *testing.T) {
	dir := t.TempDir()
	g, c := fixWorld(t)
	writeFixFile(t, filepath.Join(c, "old", "System", "ModA.dll"), []byte("MZ windows code"))
	writeFixFile(t, filepath.Join(c, "old", "System", "moda.so"), []byte("\x7fELF linux code"))
	writeFixFile(t, filepath.Join(c, "old", "System", "ModAB.dll"), []byte("MZ another package's"))
	for from, to := range map[string]string{g: filepath.Join(dir, "game"), c: filepath.Join(dir, "collection")} {
		if err := os.CopyFS(to, os.DirFS(from)); err != nil {
			t.Fatal(err)
		}
	}
	ini, db := filepath.Join(dir, "game", "System", "Game.ini"), filepath.Join(dir, "index.db")
	runCLI(t, "index", "add", "--index", db, "--no-progress", filepath.Join(dir, "collection"))
	out, _, _ := runCLI(t, "fix", "--ini", ini, "--game", "ut99", "--index", db, "--no-progress", "--dry-run")
	for _, want := range []string{"with its native binary: planned  System/ModA.dll <- ", "with its native binary: planned  System/moda.so <- "} {
		if !strings.Contains(out, want) {
			t.Errorf("the plan lacks %q:\n%s", want, out)
		}
	}
	out, _, _ = runCLI(t, "fix", "--ini", ini, "--game", "ut99", "--index", db, "--no-progress")
	for name, want := range map[string]string{"ModA.dll": "MZ windows code", "moda.so": "\x7fELF linux code"} {
		if have, _ := os.ReadFile(filepath.Join(dir, "game", "System", name)); string(have) != want {
			t.Errorf("%s: have %q\n%s", name, have, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "game", "System", "ModAB.dll")); err == nil {
		t.Error("another package's binary was copied")
	}
}

// TestFixInterrupted cancels fix (as Ctrl-C does) after its first copy:
// it stops before the next, prints what it copied and what it did not, and
// exits 130 with no temporary file left.
func TestFixInterrupted(t *testing.T) {
	dir := t.TempDir()
	ini, db := fixIndexed(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rename := fsutil.Rename
	t.Cleanup(func() { fsutil.Rename = rename })
	fsutil.Rename = func(a, b string) error {
		err := rename(a, b)
		cancel()
		return err
	}
	var out, errOut bytes.Buffer
	start := time.Now()
	code := run(ctx, []string{"fix", "--ini", ini, "--game", "ut99", "--index", db, "--no-progress"}, strings.NewReader(""), &out, &errOut)
	if code != exitInterrupted || !strings.Contains(errOut.String(), "interrupted") {
		t.Errorf("code %d, stderr %q: want 130, interrupted", code, errOut.String())
	}
	if n := strings.Count(out.String(), "copied "); n != 1 || strings.Count(out.String(), "not copied: interrupted") != 3 {
		t.Errorf("want one copy and three interrupted:\n%s", out.String())
	}
	t.Logf("stopped %v after the start", time.Since(start))
	temps, _ := fsutil.StaleTemps(filepath.Join(dir, "game", "System"), nil)
	if len(temps) > 0 {
		t.Errorf("left %v", temps)
	}
}
