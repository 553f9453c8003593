package format

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/upkdeps/upkdeps/internal/testutil"
)

// manifestEntry is one row of the corpus MANIFEST.tsv.
type manifestEntry struct {
	path              string // relative to the corpus folder
	size              int64
	magic             string
	version, licensee int
}

func readManifest(t testing.TB) []manifestEntry {
	t.Helper()
	dir := testutil.Corpus(t)
	fh, err := os.Open(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Skipf("corpus manifest: %v", err)
	}
	defer fh.Close()
	var out []manifestEntry
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for first := true; sc.Scan(); first = false {
		if first {
			continue
		}
		c := strings.Split(sc.Text(), "\t")
		if len(c) < 7 {
			continue
		}
		e := manifestEntry{path: corpusPath(dir, c[0], c[2]), magic: c[4]}
		e.size, _ = strconv.ParseInt(c[3], 10, 64)
		e.version, _ = strconv.Atoi(c[5])
		e.licensee, _ = strconv.Atoi(c[6])
		out = append(out, e)
	}
	return out
}

// corpusPath finds a manifest row's file: in the folder "owner__repo", or,
// for a repository kept under another folder name (a sample of a large
// repository: "unreal-archive-data__sample"), in the corpus folder that
// holds that path.
func corpusPath(dir, repo, file string) string {
	want := strings.ReplaceAll(repo, "/", "__") + "/" + file
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(want))); err == nil {
		return want
	}
	folders, _ := os.ReadDir(dir)
	for _, fo := range folders {
		cand := fo.Name() + "/" + file
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(cand))); fo.IsDir() && err == nil {
			return cand
		}
	}
	return want
}

func isPackageMagic(m string) bool { return m == "c1832a9e" || m == "c2832a9e" }

// TestCorpus reads every file of the corpus manifest: packages parse with
// consistent tables, the UE3 file is refused, everything else is not a package.
func TestCorpus(t *testing.T) {
	dir := testutil.Corpus(t)
	entries := readManifest(t)
	var parsed, unsupported, notPkg int
	for _, e := range entries {
		path := filepath.Join(dir, filepath.FromSlash(e.path))
		f, err := Open(path)
		switch {
		case isPackageMagic(e.magic) && e.version >= 178:
			var ue *UnsupportedError
			if !errors.As(err, &ue) || int(ue.Version) != e.version {
				t.Errorf("%s: have %v, want UnsupportedError for version %d", e.path, err, e.version)
			}
			unsupported++
			continue
		case isPackageMagic(e.magic):
			if err != nil {
				t.Errorf("%s: %v", e.path, err)
				continue
			}
		default:
			if !errors.Is(err, ErrNotPackage) {
				t.Errorf("%s (magic %s): have %v, want ErrNotPackage", e.path, e.magic, err)
			}
			notPkg++
			continue
		}
		parsed++
		if int(f.Version) != e.version || int(f.Licensee) != e.licensee {
			t.Errorf("%s: version %d/%d, manifest says %d/%d", e.path, f.Version, f.Licensee, e.version, e.licensee)
		}
		checkConsistent(t, e.path, f)
		f.Close()
	}
	t.Logf("corpus: %d packages parsed, %d unsupported, %d not packages", parsed, unsupported, notPkg)
	if parsed == 0 {
		t.Error("no corpus package parsed")
	}
}

// checkConsistent asserts the tables match the header and every reference
// resolves.
func checkConsistent(t *testing.T, name string, f *File) {
	t.Helper()
	if len(f.Names) != int(f.NameCount) || len(f.Imports) != int(f.ImportCount) || len(f.Exports) != int(f.ExportCount) {
		t.Errorf("%s: table lengths %d/%d/%d differ from header %d/%d/%d", name,
			len(f.Names), len(f.Imports), len(f.Exports), f.NameCount, f.ImportCount, f.ExportCount)
	}
	if f.GUID.IsZero() {
		t.Errorf("%s: zero GUID", name)
	}
	for i := range f.Imports {
		r := ImportRef(i)
		if f.ObjectPath(r) == "" || f.ImportPackage(r) == "" {
			t.Errorf("%s: import %d does not resolve", name, i)
		}
		if c, p := f.ClassOf(r); c == "" || p == "" {
			t.Errorf("%s: import %d has no class", name, i)
		}
	}
	for i := range f.Exports {
		r := ExportRef(i)
		if f.ObjectName(r) == "" {
			t.Errorf("%s: export %d has no name", name, i)
		}
		if c, _ := f.ClassOf(r); c == "" {
			t.Errorf("%s: export %d has no class", name, i)
		}
	}
}

func openCorpus(t *testing.T, rel string) *File {
	t.Helper()
	f, err := Open(testutil.CorpusFile(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func TestCorpusFacts(t *testing.T) {
	t.Run("Core imports its own Class", func(t *testing.T) {
		f := openCorpus(t, "adrak0__ut99/System/Core.u")
		found := false
		for i := range f.Imports {
			if f.ObjectPath(ImportRef(i)) == "Core.Class" {
				found = true
			}
		}
		if !found {
			t.Error("Core.u: no import Core.Class")
		}
		if deps := f.Dependencies(); len(deps) != 0 {
			t.Errorf("Core.u depends on %v, want nothing but itself", deps)
		}
		if have, want := f.GUID.String(), "4770B88411D38E3E100067B9F6F8975A"; have != want {
			t.Errorf("Core.u GUID: have %s, want %s", have, want)
		}
	})
	t.Run("cache file GUID equals its name", func(t *testing.T) {
		f := openCorpus(t, "adrak0__ut99/Cache/9316A7AB4CE79C187AC291AF8F8FD8D7.uxx")
		if f.GUID.String() != "9316A7AB4CE79C187AC291AF8F8FD8D7" {
			t.Errorf("GUID %s", f.GUID)
		}
	})
	t.Run("UT2004 map dependencies", func(t *testing.T) {
		f := openCorpus(t, "aldehir__ut2u/pkg/upkg/testdata/DM-Test.ut2")
		if f.Version != 128 || f.Licensee != 29 {
			t.Errorf("version %d/%d", f.Version, f.Licensee)
		}
		if have, want := f.Dependencies(), []string{"2K4Chargers", "Engine", "UT2004Weapons", "XGame"}; !slices.Equal(have, want) {
			t.Errorf("DM-Test.ut2 dependencies: have %v, want %v", have, want)
		}
	})
	t.Run("early UE1 names", func(t *testing.T) {
		f := openCorpus(t, "adrak0__ut99/Textures/BluffFX.utx")
		if f.Version != 61 || len(f.Heritage) == 0 || f.NameAt(0) == "" {
			t.Errorf("BluffFX.utx: version %d heritage %d first name %q", f.Version, len(f.Heritage), f.NameAt(0))
		}
	})
	t.Run("Killing Floor tag", func(t *testing.T) {
		f := openCorpus(t, "InsultingPros__KFRedirectTool/crates/tests/reference_files/KFMutators.u")
		if f.Tag != TagKF {
			t.Errorf("tag %08X, want %08X", f.Tag, TagKF)
		}
	})
	t.Run("swJumpPad imports Engine.Actor.Touching as ObjectProperty", func(t *testing.T) {
		f := openCorpus(t, "adrak0__ut99/System/swJumpPad.u")
		for i := range f.Imports {
			r := ImportRef(i)
			if f.ObjectPath(r) == "Engine.Actor.Touching" {
				if c, p := f.ClassOf(r); c != "ObjectProperty" || p != "Core" {
					t.Errorf("class %s.%s", p, c)
				}
				return
			}
		}
		t.Error("no import Engine.Actor.Touching")
	})
}
