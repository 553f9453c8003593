package graph

import (
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
	f, err := ini.Load(filepath.Join(dir, filepath.FromSlash(demo.BenchIni)))
	if err != nil {
		b.Fatal(err)
	}
	s, err := search.New(f, search.Options{Generation: 1})
	if err != nil {
		b.Fatal(err)
	}
	return s
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
