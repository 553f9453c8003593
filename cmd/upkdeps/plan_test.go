package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/index/unrealarchive"
	"github.com/upkdeps/upkdeps/internal/testutil"
)

// planInstall writes a UT99 install whose map imports textures of SGTech1
// and music of K_vision, packages it lacks.
func planInstall(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for _, d := range []string{"System", "Maps"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	core := format.NewBuilder(69, 0)
	core.ExportSpec("Object:Class", 16)
	if err := format.WriteFile(filepath.Join(root, "System", "Core.u"), core.File); err != nil {
		t.Fatal(err)
	}
	engine := format.NewBuilder(69, 0)
	engine.ImportSpec("Core.Object:Core.Class")
	engine.ExportSpec("Texture:Class", 16)
	engine.ExportSpec("Music:Class", 16)
	engine.ExportSpec("Level:Class", 16)
	if err := format.WriteFile(filepath.Join(root, "System", "Engine.u"), engine.File); err != nil {
		t.Fatal(err)
	}
	m := format.NewBuilder(69, 0)
	m.ImportSpec("Core.Object:Core.Class")
	m.ImportSpec("SGTech1.Floor.F1:Engine.Texture")
	m.ImportSpec("K_vision.Song:Engine.Music")
	m.ExportSpec("MyLevel:Engine.Level", 16)
	if err := format.WriteFile(filepath.Join(root, "Maps", "MH-Plan.unr"), m.File); err != nil {
		t.Fatal(err)
	}
	ini := "[Core.System]\nPaths=../System/*.u\nPaths=../Maps/*.unr\n"
	p := filepath.Join(root, "System", "UnrealTournament.ini")
	if err := os.WriteFile(p, []byte(ini), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPlanCorpusSample: with the real Unreal Archive sample indexed, a
// UT99 install missing SGTech1 and K_vision gets downloads that bring
// them; find lists M1.utx's two versions and Bot32.u's one.
func TestPlanCorpusSample(t *testing.T) {
	sample := filepath.Join(testutil.Corpus(t), "unreal-archive-data__sample")
	if _, err := os.Stat(sample); err != nil {
		t.Skipf("no Unreal Archive sample: %v", err)
	}
	db := filepath.Join(t.TempDir(), "index.db")
	if _, errOut, code := runCLI(t, "index", "add", "--index", db, "--unreal-archive", sample); code != 0 {
		t.Fatalf("index add: exit %d: %s", code, errOut)
	}
	out, errOut, code := runCLI(t, "plan", "--index", db, "--ini", planInstall(t), "--game", "ut99", "--json")
	var rep unrealarchive.PlanReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	var brought []string
	for _, d := range rep.Downloads {
		brought = append(brought, d.Brings...)
		if d.Item.Game != "Unreal Tournament" || d.Item.Download == "" {
			t.Errorf("download %+v", d.Item)
		}
	}
	if !slices.Contains(brought, "SGTech1") || !slices.Contains(brought, "K_vision") {
		t.Errorf("exit %d, brought %q; report %+v", code, brought, rep)
	}
	out, _, _ = runCLI(t, "find", "--index", db, "M1", "--json")
	var found struct {
		Archive []archiveVersionJSON `json:"archive"`
	}
	if err := json.Unmarshal([]byte(out), &found); err != nil {
		t.Fatal(err)
	}
	var sizes []int64
	for _, v := range found.Archive {
		sizes = append(sizes, v.Size)
	}
	slices.Sort(sizes)
	if !slices.Equal(sizes, []int64{3668163, 71207356}) {
		t.Errorf("M1 versions: %v", sizes)
	}
	out, _, _ = runCLI(t, "find", "--index", db, "Bot32", "--json")
	if err := json.Unmarshal([]byte(out), &found); err != nil {
		t.Fatal(err)
	}
	if len(found.Archive) != 1 || len(found.Archive[0].Items) != 3 {
		t.Errorf("Bot32: %+v", found.Archive)
	}
}

// TestPlanGenerated: a generated metadata tree; the plan text, closure
// over a dependency hint, an unprovided package, and --verify.
func TestPlanGenerated(t *testing.T) {
	meta := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(meta, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sha := func(i int) string { return fmt.Sprintf("%040x", i) }
	item := `--- !<MAP_PACK>
contentType: "MAP_PACK"
game: "Unreal Tournament"
name: "%s"
originalFilename: "%s"
hash: "%s"
fileSize: %d
files:
- name: "%s"
  fileSize: 10
  hash: "%s"
dependencies:
  %s:
  - status: "MISSING"
    name: "%s"
downloads:
- url: "https://example.invalid/%s"
  direct: true
  state: "OK"
deleted: false
`
	// The real bytes of tech.zip, for --verify.
	dl := t.TempDir()
	techBytes := []byte("tech archive bytes")
	if err := os.WriteFile(filepath.Join(dl, "tech.zip"), techBytes, 0o644); err != nil {
		t.Fatal(err)
	}
	techSum, _, err := unrealarchive.SHA1File(context.Background(), filepath.Join(dl, "tech.zip"))
	if err != nil {
		t.Fatal(err)
	}
	write("content/Unreal Tournament/MapPacks/tech.yml", fmt.Sprintf(item, "Tech Pack", "tech.zip", techSum, len(techBytes), "SGTech1.utx", sha(11), "SGTech1.utx", "TechBase", "tech.zip"))
	write("content/Unreal Tournament/MapPacks/base.yml", fmt.Sprintf(item, "Base Pack", "base.zip", sha(2), 100, "TechBase.utx", sha(12), "TechBase.utx", "Core", "base.zip"))
	write("content/Unreal Tournament 2004/Maps/k.yml", strings.Replace(fmt.Sprintf(item, "UT2004 music", "k.zip", sha(3), 100, "K_vision.umx", sha(13), "K_vision.umx", "Core", "k.zip"), `game: "Unreal Tournament"`, `game: "Unreal Tournament 2004"`, 1))
	if err := os.WriteFile(filepath.Join(dl, "base.zip"), []byte("truncated"), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "index.db")
	if _, errOut, code := runCLI(t, "index", "add", "--index", db, "--unreal-archive", meta); code != 0 {
		t.Fatalf("index add: %s", errOut)
	}
	out, _, code := runCLI(t, "plan", "--index", db, "--ini", planInstall(t), "--game", "ut99")
	for _, want := range []string{"2 missing package(s); 2 download(s) bring 1 of them (the fewest possible)", "1. Tech Pack", "brings: SGTech1",
		"2. Base Pack", "brings: TechBase", "(TechBase: needed by the packages of the downloads above", "No item provides (1): K_vision"} {
		if !strings.Contains(out, want) {
			t.Errorf("plan text lacks %q:\n%s", want, out)
		}
	}
	if code != exitFindings {
		t.Errorf("exit %d, want 1 (K_vision unprovided: the only item is UT2004's)", code)
	}
	// check --index shows the archive's candidate after the (absent) local copies.
	out, _, _ = runCLI(t, "check", "--index", db, "--ini", planInstall(t), "--game", "ut99")
	if !strings.Contains(out, "index: no copy of SGTech1") || !strings.Contains(out, "unreal archive: SGTech1.utx (10 bytes) in Tech Pack, 1 version(s): https://example.invalid/tech.zip") {
		t.Errorf("check --index:\n%s", out)
	}
	out, _, code = runCLI(t, "plan", "--index", db, "--verify", dl)
	if code != exitFindings || !strings.Contains(out, "ok        tech.zip (Tech Pack)") || !strings.Contains(out, "MISMATCH  base.zip") {
		t.Errorf("verify: exit %d\n%s", code, out)
	}
}
