package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/cache"
	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/internal/fsutil"
	"github.com/upkdeps/upkdeps/internal/testutil"
	"github.com/upkdeps/upkdeps/uz"
)

// cacheGUID returns a GUID whose text form is the hex digit n repeated.
func cacheGUID(n uint32) format.GUID {
	v := n * 0x11111111
	return format.GUID{v, v, v, v}
}

func cachePkg(t *testing.T, guid format.GUID, version, licensee uint16) []byte {
	t.Helper()
	b := format.NewBuilder(version, licensee)
	b.File.GUID = guid
	b.Export(0, "Thing", b.ImportPath("Engine.Actor", "Core", "Class"), 0, 16)
	data, err := format.Marshal(b.File)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func put(t *testing.T, rel string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(rel), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rel, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeCacheInstall writes, in the current folder, a UE1 install
// (System/Game.ini) whose Cache has an entry in every state and a stray
// .uz download.
func writeCacheInstall(t *testing.T) {
	t.Helper()
	put(t, "System/Game.ini", []byte("[Core.System]\r\nCachePath=../Cache\r\nCacheExt=.uxx\r\nPaths=../System/*.u\r\nPaths=../Maps/*.unr\r\n"))
	put(t, "Cache/cache.ini", []byte("; the client's downloads\r\n[Cache]\r\n"+
		"11111111111111111111111111111111=Alpha.u\r\n"+
		"22222222222222222222222222222222=Gone.u\r\n"+
		"44444444444444444444444444444444=Wrong.u\r\n"+
		"66666666666666666666666666666666=Junk.u\r\n"+
		"77777777777777777777777777777777=\r\n"+
		"88888888888888888888888888888888=Same.u\r\n"+
		"99999999999999999999999999999999=Other.u\r\n"+
		"BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB=DM-Map.unr\r\n"))
	alpha := cachePkg(t, cacheGUID(1), 69, 0)
	put(t, "Cache/11111111111111111111111111111111.uxx", alpha)
	put(t, "Cache/33333333333333333333333333333333.uxx", cachePkg(t, cacheGUID(3), 69, 0))
	put(t, "Cache/44444444444444444444444444444444.uxx", cachePkg(t, cacheGUID(5), 69, 0))
	put(t, "Cache/66666666666666666666666666666666.uxx", []byte("not a package"))
	same := cachePkg(t, cacheGUID(8), 69, 0)
	put(t, "Cache/88888888888888888888888888888888.uxx", same)
	put(t, "System/Same.u", same)
	put(t, "Cache/99999999999999999999999999999999.uxx", cachePkg(t, cacheGUID(9), 69, 0))
	put(t, "System/Other.u", cachePkg(t, cacheGUID(0xA), 69, 0))
	put(t, "Cache/BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB.uxx", cachePkg(t, cacheGUID(0xB), 69, 0))
	var z bytes.Buffer
	w, err := uz.NewWriter(&z, "Alpha.u", uz.Sig1234)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(alpha)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	put(t, "Cache/0000.tmp", z.Bytes())
}

// scrub replaces the absolute test folder in JSON output.
func scrub(t *testing.T, s string) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	s = strings.ReplaceAll(s, wd, "$WORK")
	// JSON escapes the separators of a Windows path.
	return strings.ReplaceAll(s, strings.ReplaceAll(wd, `\`, `\\`), "$WORK")
}

// files lists the regular files under the current folder, but for the lock
// files writers leave (empty, or naming their last holder).
func files(t *testing.T) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() != fsutil.LockName {
			out = append(out, filepath.ToSlash(path))
		}
		return err
	})
	sort.Strings(out)
	return out
}

func TestCacheListVerify(t *testing.T) {
	t.Chdir(t.TempDir())
	writeCacheInstall(t)
	ini := []string{"--ini", "System/Game.ini"}

	out, _, code := runCLI(t, append([]string{"cache", "list"}, ini...)...)
	if code != exitOK {
		t.Errorf("list: code %d", code)
	}
	golden(t, "cache-list.txt", out)

	out, _, code = runCLI(t, append([]string{"cache", "list", "--json"}, ini...)...)
	if code != exitOK {
		t.Errorf("list --json: code %d", code)
	}
	golden(t, "cache-list.json", scrub(t, out))
	var list struct {
		SchemaVersion int              `json:"schema_version"`
		Entries       []map[string]any `json:"entries"`
		Stray         []map[string]any `json:"stray"`
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	if list.SchemaVersion != 1 || len(list.Entries) != 9 || len(list.Stray) != 1 {
		t.Errorf("list --json: schema %d, %d entries, %d stray", list.SchemaVersion, len(list.Entries), len(list.Stray))
	}
	for _, key := range []string{"guid", "generation", "name", "file", "size", "version", "state"} {
		if _, ok := list.Entries[0][key]; !ok {
			t.Errorf("entries lack %q", key)
		}
	}
	if list.Stray[0]["kind"] != "uz" || list.Stray[0]["original"] != "Alpha.u" {
		t.Errorf("stray: %v", list.Stray[0])
	}

	out, _, code = runCLI(t, append([]string{"cache", "verify"}, ini...)...)
	if code != exitFindings {
		t.Errorf("verify with errors: code %d, want %d", code, exitFindings)
	}
	golden(t, "cache-verify.txt", out)
	out, _, _ = runCLI(t, append([]string{"cache", "verify", "--json"}, ini...)...)
	golden(t, "cache-verify.json", scrub(t, out))

	// A bare cache folder: no installed_* states, generation from names.
	out, _, code = runCLI(t, "cache", "list", "--cache", "Cache")
	if code != exitOK || !strings.HasPrefix(out, "Cache: Cache (UE1; files GUID.uxx; Cache/cache.ini)") || strings.Contains(out, "installed") {
		t.Errorf("bare list: code %d\n%s", code, out)
	}

	// An empty cache: [] not null, verify clean.
	if err := os.Mkdir("Empty", 0o755); err != nil {
		t.Fatal(err)
	}
	out, _, code = runCLI(t, "cache", "list", "--json", "--cache", "Empty")
	if code != exitOK || !strings.Contains(out, `"entries": []`) || !strings.Contains(out, `"stray": []`) {
		t.Errorf("empty cache: code %d\n%s", code, out)
	}
	out, _, code = runCLI(t, "cache", "verify", "--json", "--cache", "Empty")
	if code != exitOK || !strings.Contains(out, `"problems": []`) {
		t.Errorf("empty verify: code %d\n%s", code, out)
	}
}

func TestCacheExtract(t *testing.T) {
	t.Chdir(t.TempDir())
	writeCacheInstall(t)
	args := []string{"cache", "extract", "--ini", "System/Game.ini"}

	dry, errOut, code := runCLI(t, append(args, "--dry-run")...)
	if code != exitFindings || !strings.Contains(errOut, "dry run") {
		t.Errorf("dry run: code %d, stderr %q (want %d: refusals)", code, errOut, exitFindings)
	}
	golden(t, "cache-extract.txt", dry)
	before := files(t)
	if again, _, _ := runCLI(t, append(args, "--dry-run")...); again != dry || !reflect.DeepEqual(files(t), before) {
		t.Error("a dry run changed something")
	}

	real, _, code := runCLI(t, args...)
	if code != exitFindings {
		t.Errorf("extract: code %d, want %d", code, exitFindings)
	}
	if real != dry {
		t.Errorf("the real run printed other lines than the dry run:\n--- real\n%s--- dry\n%s", real, dry)
	}
	for _, f := range []string{"System/Alpha.u", "Maps/DM-Map.unr"} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("%s not extracted", f)
		}
	}
	ini, _ := os.ReadFile("Cache/cache.ini")
	if !strings.Contains(string(ini), "; the client's downloads\r\n[Cache]\r\n11111111111111111111111111111111=\r\n") {
		t.Errorf("cache.ini after extract:\n%q", ini)
	}

	// Named, forced: the other version of Other.u is replaced.
	out, _, code := runCLI(t, append(args, "--force", "Other.u")...)
	if code != exitOK || !strings.HasPrefix(out, "replace  Cache/99999999999999999999999999999999.uxx -> System/Other.u") {
		t.Errorf("--force Other.u: code %d\n%s", code, out)
	}
	_, errOut, code = runCLI(t, append(args, "NoSuch.u")...)
	if code != exitError || !strings.Contains(errOut, `"NoSuch.u"`) {
		t.Errorf("unknown name: code %d, stderr %q", code, errOut)
	}
	_, errOut, code = runCLI(t, "cache", "extract", "--cache", "Cache")
	if code != exitError || !strings.Contains(errOut, "--to") {
		t.Errorf("bare extract without --to: code %d, stderr %q", code, errOut)
	}
}

func TestCacheExtractHostile(t *testing.T) {
	t.Chdir(t.TempDir())
	put(t, "Game/System/Game.ini", []byte("[Core.System]\nCachePath=../Cache\nCacheExt=.uxx\nPaths=../System/*.u\n"))
	names := []string{`..\..\System\Core.u`, "../../evil.u", "C:evil.u", "CON.u", "esc\x1b[2J.u"}
	var ini strings.Builder
	ini.WriteString("[Cache]\n")
	for i, name := range names {
		guid := cacheGUID(uint32(i + 1))
		ini.WriteString(guid.String() + "=" + name + "\n")
		put(t, "Game/Cache/"+guid.String()+".uxx", cachePkg(t, guid, 69, 0))
	}
	put(t, "Game/Cache/cache.ini", []byte(ini.String()))
	before := files(t)
	for _, extra := range [][]string{nil, {"--to", "Game/Out", "--force"}} {
		out, _, code := runCLI(t, append([]string{"cache", "extract", "--ini", "Game/System/Game.ini"}, extra...)...)
		if code != exitFindings || strings.Count(out, "refuse ") != len(names) || strings.Contains(out, "\x1b") {
			t.Errorf("hostile names: code %d\n%s", code, out)
		}
	}
	if after := files(t); !reflect.DeepEqual(after, before) {
		t.Errorf("files changed: %v", after)
	}
}

func TestCacheClean(t *testing.T) {
	t.Chdir(t.TempDir())
	writeCacheInstall(t)
	args := []string{"cache", "clean", "--ini", "System/Game.ini"}
	dry, _, code := runCLI(t, append(args, "--dry-run")...)
	if code != exitOK {
		t.Errorf("clean --dry-run: code %d", code)
	}
	golden(t, "cache-clean.txt", dry)
	real, _, code := runCLI(t, args...)
	if code != exitOK || real != dry {
		t.Errorf("clean: code %d, the real run printed:\n%s", code, real)
	}
	if out, _, _ := runCLI(t, args...); strings.Contains(out, "remove") {
		t.Errorf("second clean removes again:\n%s", out)
	}
}

func TestCacheAdd(t *testing.T) {
	t.Chdir(t.TempDir())
	put(t, "in/Foo.u", cachePkg(t, cacheGUID(1), 69, 0))
	put(t, "in/Map.ut2", cachePkg(t, cacheGUID(2), 128, 29))
	put(t, "in/junk.u", []byte("junk"))
	if err := os.Mkdir("Cache", 0o755); err != nil {
		t.Fatal(err)
	}
	args := []string{"cache", "add", "--cache", "Cache"}
	out, _, code := runCLI(t, append(args, "--dry-run", "in/Foo.u", "in/junk.u")...)
	if code != exitFindings {
		t.Errorf("add with a junk file: code %d", code)
	}
	golden(t, "cache-add.txt", out)
	real, _, _ := runCLI(t, append(args, "in/Foo.u", "in/junk.u")...)
	if real != out {
		t.Errorf("real add printed:\n%s", real)
	}
	ini, _ := os.ReadFile("Cache/cache.ini")
	if !strings.Contains(string(ini), "[Cache]") || !strings.Contains(string(ini), "11111111111111111111111111111111=Foo.u") {
		t.Errorf("cache.ini: %q", ini)
	}
	// UE2: a KF-style cache gets GUID-Generations.uxx.
	if err := os.Mkdir("Cache2", 0o755); err != nil {
		t.Fatal(err)
	}
	out, _, code = runCLI(t, "--game", "ut2004", "cache", "add", "--cache", "Cache2", "in/Map.ut2")
	if code != exitOK || !strings.Contains(out, "Cache2/22222222222222222222222222222222-1.uxx") {
		t.Errorf("UE2 add: code %d\n%s", code, out)
	}
}

func TestCacheUsage(t *testing.T) {
	t.Chdir(t.TempDir())
	_, errOut, code := runCLI(t, "cache", "list")
	if code != exitError || !strings.Contains(errOut, "no --ini") {
		t.Errorf("no ini, no cache: code %d, stderr %q", code, errOut)
	}
	_, _, code = runCLI(t, "cache", "list", "--cache", "nowhere")
	if code != exitError {
		t.Errorf("missing cache folder: code %d", code)
	}
	put(t, "System/Game.ini", []byte("[Core.System]\nPaths=../System/*.u\n"))
	_, errOut, code = runCLI(t, "cache", "list", "--ini", "System/Game.ini")
	if code != exitError || !strings.Contains(errOut, "CachePath") {
		t.Errorf("ini without CachePath: code %d, stderr %q", code, errOut)
	}
	_, _, code = runCLI(t, "cache", "add", "--cache", ".")
	if code != exitError {
		t.Errorf("add without files: code %d", code)
	}
}

func TestCacheCorpus(t *testing.T) {
	corpus := testutil.Corpus(t)
	adrak0 := filepath.Join(corpus, "adrak0__ut99")
	if _, err := os.Stat(adrak0); err != nil {
		t.Skip("adrak0__ut99 not in the corpus")
	}
	adrakIni := filepath.Join(adrak0, "System", "UnrealTournament.ini")

	out, _, code := runCLI(t, "cache", "list", "--ini", adrakIni)
	if code != exitOK || !strings.HasSuffix(out, "\n76 entries: 59 ok, 17 missing_file; 22 stray download files\n") {
		t.Errorf("adrak0 list: code %d, ends %q", code, out[max(0, len(out)-80):])
	}
	out, _, code = runCLI(t, "cache", "verify", "--ini", adrakIni)
	if code != exitOK || !strings.HasSuffix(out, "76 entries: 0 errors, 39 warnings\n") {
		t.Errorf("adrak0 verify: code %d, ends %q", code, out[max(0, len(out)-80):])
	}

	// The engine's target folder for each entry.
	out, _, code = runCLI(t, "cache", "extract", "--dry-run", "--ini", adrakIni)
	if code != exitOK {
		t.Errorf("adrak0 extract --dry-run: code %d", code)
	}
	folder := map[string]string{".u": "System/", ".unr": "Maps/", ".utx": "Textures/", ".uax": "Sounds/", ".umx": "Music/"}
	copies := 0
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.HasPrefix(line, "copy ") {
			continue
		}
		copies++
		dst := line[strings.Index(line, "-> ")+3:]
		if want := folder[strings.ToLower(filepath.Ext(dst))]; !strings.HasPrefix(dst, want) {
			t.Errorf("%s: want the folder %s", line, want)
		}
	}
	if copies != 59 {
		t.Errorf("adrak0 extract --dry-run: %d copies, want 59", copies)
	}

	// Nexgen112 is installed on nrempel's server with the GUID of the
	// cached copy.
	nrempelIni := filepath.Join(corpus, "nrempel__ut-server", "System", "UnrealTournament.ini")
	out, _, code = runCLI(t, "cache", "list", "--json", "--ini", nrempelIni, "--cache", filepath.Join(adrak0, "Cache"))
	var list cache.Listing
	if err := json.Unmarshal([]byte(out), &list); err != nil || code != exitOK {
		t.Fatalf("nrempel list: code %d, %v", code, err)
	}
	found := false
	for _, e := range list.Entries {
		if e.Name != nil && *e.Name == "Nexgen112.u" {
			found = e.State == "installed_same" && e.Installed == "System/Nexgen112.u"
		}
	}
	if !found {
		t.Error("Nexgen112.u is not installed_same as System/Nexgen112.u")
	}
}
