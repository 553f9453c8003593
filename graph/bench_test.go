package graph

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/ini"
	"github.com/upkdeps/upkdeps/internal/demo"
	"github.com/upkdeps/upkdeps/internal/testutil"
	"github.com/upkdeps/upkdeps/search"
)

// benchInstallSize is the number of packages of the generated install; set
// UPKDEPS_BENCH_PACKAGES for another size.
func benchInstallSize() int {
	if n, err := strconv.Atoi(os.Getenv("UPKDEPS_BENCH_PACKAGES")); err == nil && n > 0 {
		return n
	}
	return 20000
}

var (
	benchOnce sync.Once
	benchDir  string
	benchErr  error
)

// benchInstall generates (once per process) the realistic benchmark install
// of benchInstallSize packages (demo.WriteBench: stock System packages
// exporting what the rest imports, texture and sound packages with groups,
// maps with hundreds to thousands of imports, a handful of true findings).
func benchInstall(b *testing.B) string {
	benchOnce.Do(func() {
		// UPKDEPS_BENCH_DIR keeps the install between runs (or names one
		// written by go run ./internal/demo/genbench -n N DIR).
		if keep := os.Getenv("UPKDEPS_BENCH_DIR"); keep != "" {
			if _, err := os.Stat(filepath.Join(keep, filepath.FromSlash(demo.BenchIni))); err == nil {
				return
			}
			benchErr = demo.WriteBench(keep, benchInstallSize())
			return
		}
		benchDir, benchErr = os.MkdirTemp("", "upkdeps-bench-")
		if benchErr == nil {
			benchErr = demo.WriteBench(benchDir, benchInstallSize())
		}
	})
	if keep := os.Getenv("UPKDEPS_BENCH_DIR"); keep != "" {
		return keep
	}
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchDir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

// benchFolders are the benchmark install's package folders and extensions.
var benchFolders = [][2]string{{"System", ".u"}, {"Textures", ".utx"}, {"Sounds", ".uax"}, {"Music", ".umx"}, {"Maps", ".unr"}}

func benchSearcher(b *testing.B, dir string) *search.Searcher {
	_, s := benchIni(b, dir)
	return s
}

// benchIni loads the ini of the benchmark install in dir and makes its
// searcher.
func benchIni(b testing.TB, dir string) (*ini.File, *search.Searcher) {
	b.Helper()
	f, err := ini.Load(filepath.Join(dir, filepath.FromSlash(demo.BenchIni)))
	if err != nil {
		b.Fatal(err)
	}
	s, err := search.New(f, search.Options{Generation: 1})
	if err != nil {
		b.Fatal(err)
	}
	return f, s
}

// BenchmarkCheck builds the graph of the generated install and checks it,
// with one worker and with one per core; BenchmarkOpenAll is the reference:
// opening every package with the reader and nothing else.
func BenchmarkCheck(b *testing.B) {
	dir := benchInstall(b)
	for _, jobs := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run("jobs="+strconv.Itoa(jobs), func(b *testing.B) {
			for b.Loop() {
				s := benchSearcher(b, dir)
				g, err := Build(context.Background(), FromSearcher(s), Options{Jobs: jobs})
				if err != nil {
					b.Fatal(err)
				}
				g.Check(context.Background(), CheckOptions{Jobs: jobs})
			}
			b.ReportMetric(peakRSSMB(), "peak-RSS-MB")
		})
	}
}

func BenchmarkOpenAll(b *testing.B) {
	dir := benchInstall(b)
	var files []string
	for _, k := range benchFolders {
		ents, _ := os.ReadDir(filepath.Join(dir, k[0]))
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), k[1]) {
				files = append(files, filepath.Join(dir, k[0], e.Name()))
			}
		}
	}
	jobs := runtime.GOMAXPROCS(0)
	for b.Loop() {
		work := make(chan string)
		var wg sync.WaitGroup
		for range jobs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for p := range work {
					f, err := format.Open(p)
					if err != nil {
						b.Error(err)
						continue
					}
					f.Close()
				}
			}()
		}
		for _, p := range files {
			work <- p
		}
		close(work)
		wg.Wait()
	}
}

// peakRSSMB reads the process's peak resident set size (Linux), 0 elsewhere.
func peakRSSMB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			return float64(kb) / 1024
		}
	}
	return 0
}

// BenchmarkCheckOnly builds the generated install's graph once and times
// only Check (with the ini's roots, ServerPackages and EditPackages, as
// check passes them), with one worker and with one per core. The export
// sets Check makes on first use are unmade before each run (timer
// stopped), so that each run pays for them as a real check does.
func BenchmarkCheckOnly(b *testing.B) {
	f, s := benchIni(b, benchInstall(b))
	g, err := Build(context.Background(), FromSearcher(s), Options{Jobs: runtime.GOMAXPROCS(0), Roots: RootsOf(f, 1)})
	if err != nil {
		b.Fatal(err)
	}
	opt := CheckOptions{ServerPackages: f.ServerPackages(), EditPackages: f.EditPackages()}
	for _, jobs := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run("jobs="+strconv.Itoa(jobs), func(b *testing.B) {
			opt.Jobs = jobs
			cpu := cpuSeconds()
			for b.Loop() {
				b.StopTimer()
				unmakeExportSets(g)
				b.StartTimer()
				if _, err := g.Check(context.Background(), opt); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cpuSeconds()-cpu)*1000/float64(b.N), "cpu-ms/op")
		})
	}
}

// cpuSeconds reads the process's user and system CPU time (Linux, in
// clock ticks of 10 ms), 0 elsewhere.
func cpuSeconds() float64 {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return 0
	}
	// The fields after the command's ")": state is the first, utime and
	// stime the 12th and 13th.
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.Atoi(f[11])
	s, _ := strconv.Atoi(f[12])
	return float64(u+s) / 100
}

// unmakeExportSets undoes what Check's first questions to each package's
// exports made (the hash set's buckets are made again from the same
// hashes, in any order; the path set is read again from the file).
func unmakeExportSets(g *Graph) {
	for _, p := range g.pkgs {
		if p.scan != nil {
			x := &p.scan.exports
			x.once, x.pathOnce, x.paths = sync.Once{}, sync.Once{}, nil
		}
	}
}

// BenchmarkBuildReuse builds the generated install's graph again reusing
// every read of a first build (as check --with-cache's second build
// does): what is left is resolving the names and the serial link and
// finish of Build.
func BenchmarkBuildReuse(b *testing.B) {
	f, s := benchIni(b, benchInstall(b))
	opt := Options{Jobs: runtime.GOMAXPROCS(0), Roots: RootsOf(f, 1)}
	first, err := Build(context.Background(), FromSearcher(s), opt)
	if err != nil {
		b.Fatal(err)
	}
	opt.Reuse = first
	cpu := cpuSeconds()
	for b.Loop() {
		if _, err := Build(context.Background(), FromSearcher(s), opt); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cpuSeconds()-cpu)*1000/float64(b.N), "cpu-ms/op")
}

// BenchmarkHasPath is the first hasPath of a check against a large
// package (UT99 469's Engine.u): reading it again and hashing every
// export's path.
func BenchmarkHasPath(b *testing.B) {
	path := testutil.CorpusFile(b, "OldUnreal__UnrealTournamentPatches/System/Engine.u")
	b.ReportAllocs()
	for b.Loop() {
		x := &exportIndex{file: path}
		if !x.hasPath(path, "Actor") {
			b.Fatal("Engine.u exports no Actor")
		}
	}
}

// BenchmarkExportHashes is the scan's hashing of every export of a large
// package (UT99 469's Engine.u) and of a map (Roemer's DM-Mita]I[.unr),
// its scratch reused as a worker reuses it.
func BenchmarkExportHashes(b *testing.B) {
	for _, name := range []string{"OldUnreal__UnrealTournamentPatches/System/Engine.u", "Roemer__ut99-server/files/Maps/DM-Mita]I[.unr"} {
		b.Run(filepath.Base(name), func(b *testing.B) {
			var rd format.Reader
			v, err := rd.View(testutil.CorpusFile(b, name))
			if err != nil {
				b.Fatal(err)
			}
			var sc hashScratch
			b.ReportAllocs()
			for b.Loop() {
				if hs, _ := exportHashes(v, &sc, nil); len(hs) == 0 {
					b.Fatal("no exports")
				}
			}
		})
	}
}
