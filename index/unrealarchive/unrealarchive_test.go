package unrealarchive

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/internal/testutil"
)

func sha(i int) string { return fmt.Sprintf("%040x", i) }

// writeTree writes metadata files (path -> text) under a temporary root.
func writeTree(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for rel, text := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

const oldSchema = `--- !<MAP>
contentType: "MAP"
game: "Unreal Tournament"
name: "DM-Old"
author: "A"
releaseDate: "2001-01"
originalFilename: "dm-old.zip"
hash: "%s"
fileSize: 1000
files:
- name: "DM-Old.unr"
  fileSize: 900
  hash: "%s"
downloads:
- url: "https://example.invalid/dm-old.zip"
  main: true
  ok: true
  repack: false
  deleted: false
- url: "https://example.invalid/gone.zip"
  main: false
  ok: false
  deleted: true
deleted: false
`

const middleSchema = `--- !<MUTATOR>
contentType: "MUTATOR"
variationOf: "%s"
game: "Unreal Tournament 2004"
name: "Mut"
originalFilename: "mut.zip"
hash: "%s"
fileSize: 2000
files:
- name: "Mut.u"
  fileSize: 1500
  hash: "%s"
dependencies:
  Mut.u:
  - status: "MISSING"
    name: "Helper"
  - status: "OK"
    name: "Engine"
downloads:
- url: "https://example.invalid/mut.zip"
  main: true
  repack: false
  state: "OK"
deleted: false
`

const newestSchema = `--- !<MAP>
contentType: "MAP"
game: "Unreal Tournament"
name: "DM-New"
originalFilename: "dm-new.zip"
hash: "%s"
fileSize: 3000
files:
- name: "DM-New.unr"
  fileSize: 2900
  hash: "%s"
- name: "Bad.utx"
  fileSize: 1
  hash: "0123"
downloads:
- url: "https://example.invalid/direct.zip"
  direct: true
  state: "OK"
- url: "https://example.invalid/page"
  direct: false
  state: "MISSING"
deleted: true
`

const gametype = `--- !<GameType>
contentType: "GameType"
game: "Unreal Tournament"
name: "Hunt"
releases:
- title: "Full"
  version: "1"
  releaseDate: "2001-08"
  files:
  - title: "Zip Package"
    downloads:
    - url: "https://example.invalid/hunt.zip"
      main: true
      state: "OK"
    originalFilename: "hunt.zip"
    hash: "%s"
    fileSize: 4000
    files:
    - name: "Hunt.u"
      fileSize: 100
      hash: "%s"
`

const managed = `---
contentType: "MANAGED"
game: "Unreal Tournament"
name: "Bonus Pack 4"
downloads:
- title: "ZIP Package"
  version: "4"
  downloads:
  - url: "https://example.invalid/bp4.zip"
    direct: true
    state: "OK"
`

func TestParseSchemas(t *testing.T) {
	root := writeTree(t, map[string]string{
		"archive-content/Unreal Tournament/Maps/D/DM-Old_[1].yml":  fmt.Sprintf(oldSchema, sha(1), sha(11)),
		"content/Unreal Tournament/Maps/D/dm-old_[1].yml":          fmt.Sprintf(oldSchema, sha(1), sha(11)),
		"content/Unreal Tournament 2004/Mutators/M/mut_[2].yml":    fmt.Sprintf(middleSchema, sha(9), sha(2), sha(12)),
		"content/Unreal Tournament/Maps/D/dm-new_[3].yml":          fmt.Sprintf(newestSchema, sha(3), sha(13)),
		"gametypes/Unreal Tournament/hunt/gametype.yml":            fmt.Sprintf(gametype, sha(4), sha(14)),
		"managed/unreal-tournament/bonus/bonus-pack-4/managed.yml": managed,
		"content/Unreal Tournament/Maps/X/badhash_[5].yml":         fmt.Sprintf(oldSchema, "abc", sha(15)),
		"content/Unreal Tournament/Maps/X/broken.yml":              "--- !<MAP>\nname: [unterminated\n",
		"content/Unreal Tournament/Maps/X/bomb.yml":                yamlBomb,
		"content/readme.txt": "not metadata",
	})
	res, err := Walk(context.Background(), root, 2)
	if err != nil {
		t.Fatal(err)
	}
	if res.Files != 9 {
		t.Errorf("read %d files, want 9", res.Files)
	}
	var names []string
	for _, it := range res.Items {
		names = append(names, it.Type+" "+it.Name)
	}
	want := []string{"MANAGED Bonus Pack 4: ZIP Package", "MAP DM-Old", "MUTATOR Mut", "MAP DM-New", "GAMETYPE Hunt: Full Zip Package"}
	if !slices.Equal(names, want) {
		t.Errorf("items:\nhave %q\nwant %q", names, want)
	}
	byName := map[string]Item{}
	for _, it := range res.Items {
		byName[it.Name] = it
	}
	old := byName["DM-Old"]
	if !strings.HasPrefix(old.Path, "content/") {
		t.Errorf("DM-Old kept from %s, want the content/ description", old.Path)
	}
	if len(old.Downloads) != 2 || old.Downloads[0].State != "OK" || !old.Downloads[0].Main || old.Downloads[1].State != "DELETED" {
		t.Errorf("old schema downloads: %+v", old.Downloads)
	}
	mut := byName["Mut"]
	if mut.VariationOf != sha(9) || mut.Downloads[0].State != "OK" || len(mut.Files) != 1 || mut.Files[0].Hash != sha(12) {
		t.Errorf("middle schema: %+v", mut)
	}
	if d := mut.Dependencies["Mut.u"]; len(d) != 2 || d[0] != (Dependency{"Helper", "MISSING"}) {
		t.Errorf("dependencies: %+v", mut.Dependencies)
	}
	n := byName["DM-New"]
	if !n.Deleted || len(n.Files) != 1 || !n.Downloads[0].Direct || n.Downloads[1].OK() {
		t.Errorf("newest schema: %+v", n)
	}
	h := byName["Hunt: Full Zip Package"]
	if h.Hash != sha(4) || h.ArchiveName != "hunt.zip" || len(h.Files) != 1 || h.ReleaseDate != "2001-08" {
		t.Errorf("gametype release: %+v", h)
	}
	var warns []string
	for _, w := range res.Warnings {
		warns = append(warns, w.Path)
	}
	for _, p := range []string{"content/Unreal Tournament/Maps/D/dm-new_[3].yml", "content/Unreal Tournament/Maps/X/badhash_[5].yml",
		"content/Unreal Tournament/Maps/X/broken.yml", "content/Unreal Tournament/Maps/X/bomb.yml"} {
		if !slices.Contains(warns, p) {
			t.Errorf("no warning for %s in %v", p, res.Warnings)
		}
	}
}

// yamlBomb is a billion-laughs document: the decoder must refuse it
// instead of expanding it.
var yamlBomb = func() string {
	var b strings.Builder
	b.WriteString("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n")
	prev := "a"
	for i := 0; i < 9; i++ {
		name := string(rune('b' + i))
		fmt.Fprintf(&b, "%s: &%s [*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s]\n", name, name, prev, prev, prev, prev, prev, prev, prev, prev, prev)
		prev = name
	}
	b.WriteString("files: *" + prev + "\n")
	return b.String()
}()

func TestOversizeFile(t *testing.T) {
	big := strings.Repeat("# padding\n", MaxFileSize/10+1)
	root := writeTree(t, map[string]string{"content/big.yml": big})
	res, err := Walk(context.Background(), root, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].Msg, "size limit") {
		t.Errorf("warnings: %v", res.Warnings)
	}
}

// TestCorpusSample reads the real sample: every file parses, M1.utx comes
// in two versions, three items ship the same Bot32.u bytes.
func TestCorpusSample(t *testing.T) {
	root := filepath.Join(testutil.Corpus(t), "unreal-archive-data__sample")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("no Unreal Archive sample: %v", err)
	}
	res, err := Walk(context.Background(), root, 2)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files, %d items, warnings: %v", res.Files, len(res.Items), res.Warnings)
	if res.Files != 40 {
		t.Errorf("%d files, want 40", res.Files)
	}
	versions := map[string]map[string]int64{} // file name -> hash -> size
	shipping := map[string]int{}              // hash -> items
	for _, it := range res.Items {
		for _, f := range it.Files {
			if versions[f.Name] == nil {
				versions[f.Name] = map[string]int64{}
			}
			versions[f.Name][f.Hash] = f.Size
			shipping[f.Hash]++
		}
	}
	var m1 []int64
	for _, size := range versions["M1.utx"] {
		m1 = append(m1, size)
	}
	slices.Sort(m1)
	if !slices.Equal(m1, []int64{3668163, 71207356}) {
		t.Errorf("M1.utx versions: %v", m1)
	}
	if len(versions["Bot32.u"]) != 1 {
		t.Errorf("Bot32.u versions: %v", versions["Bot32.u"])
	}
	for h := range versions["Bot32.u"] {
		if shipping[h] != 3 {
			t.Errorf("Bot32.u shipped by %d items, want 3", shipping[h])
		}
	}
}

// BenchmarkWalk reads a generated tree of UPKDEPS_BENCH_ITEMS items
// (default 2,000; the figure is 100,000).
func BenchmarkWalk(b *testing.B) {
	n := 2000
	if v := os.Getenv("UPKDEPS_BENCH_ITEMS"); v != "" {
		fmt.Sscan(v, &n)
	}
	files := map[string]string{}
	for i := 0; i < n; i++ {
		files[fmt.Sprintf("content/Unreal Tournament/Maps/%d/%d/dm-%d.yml", i%97, i%89, i)] = fmt.Sprintf(middleSchema, sha(i+1<<28), sha(i), sha(i+1<<29))
	}
	root := writeTree(b, files)
	b.ResetTimer()
	for range b.N {
		res, err := Walk(context.Background(), root, 0)
		if err != nil || len(res.Items) != n {
			b.Fatalf("%v, %d items", err, len(res.Items))
		}
	}
}

// TestRefusedURLSchemes: downloads whose URL is not http(s) are kept with
// the state StateRefused and never offered as the best download, working or
// not; a plain https one beside them still is.
func TestRefusedURLSchemes(t *testing.T) {
	for _, u := range []string{"javascript:alert(1)", "file:///etc/passwd", "data:text/html,hi", "JavaScript://x%0aalert(1)", "//example.invalid/x.zip", "ftp://example.invalid/x.zip"} {
		body := strings.Replace(fmt.Sprintf(newestSchema, sha(3), sha(13)), `"https://example.invalid/direct.zip"`, fmt.Sprintf("%q", u), 1)
		root := writeTree(t, map[string]string{"content/Unreal Tournament/Maps/D/dm-new_[3].yml": body})
		res, err := Walk(context.Background(), root, 1)
		if err != nil || len(res.Items) != 1 {
			t.Fatalf("%s: %v %+v", u, err, res)
		}
		it := res.Items[0]
		if d := BestDownload(it); d != nil {
			t.Errorf("%s: offered as the best download: %+v", u, d)
		}
		if it.Downloads[0].State != StateRefused {
			t.Errorf("%s: state %q", u, it.Downloads[0].State)
		}
		// Read from an index made before the rule: the state says OK.
		it.Downloads[0].State = "OK"
		if BestDownload(it) != nil {
			t.Errorf("%s: offered when its state says OK", u)
		}
	}
	root := writeTree(t, map[string]string{"content/Unreal Tournament/Maps/D/dm-new_[3].yml": fmt.Sprintf(newestSchema, sha(3), sha(13))})
	res, _ := Walk(context.Background(), root, 1)
	if d := BestDownload(res.Items[0]); d == nil || d.URL != "https://example.invalid/direct.zip" {
		t.Errorf("https: %+v", d)
	}
}

// FuzzParse parses arbitrary metadata YAML, seeded with every schema and
// the alias bomb: never a panic or a hang; every item it returns has the
// path it was given, and no download it offers is other than http(s).
func FuzzParse(f *testing.F) {
	for _, seed := range []string{fmt.Sprintf(oldSchema, sha(1), sha(11)), fmt.Sprintf(middleSchema, sha(9), sha(2), sha(12)),
		fmt.Sprintf(newestSchema, sha(3), sha(13)), fmt.Sprintf(gametype, sha(4), sha(14)), managed, yamlBomb,
		"--- !<MAP>\nname: [unterminated\n", "downloads:\n- url: \"javascript:alert(1)\"\n  state: OK\n"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		items, _, err := Parse("x/y.yml", data)
		if err != nil {
			return
		}
		for _, it := range items {
			if it.Path != "x/y.yml" {
				t.Fatalf("item %q has path %q", it.Name, it.Path)
			}
			if d := BestDownload(it); d != nil && !WebURL(d.URL) {
				t.Fatalf("offered %q", d.URL)
			}
		}
	})
}
