package graph

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/upkdeps/upkdeps/format"
	"github.com/upkdeps/upkdeps/ini"
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

// benchInstall generates (once per process) a UT99-style install of
// benchInstallSize packages with realistic table sizes: maps with thousands
// of exports importing textures, sounds, music and code; code packages
// importing Core, Engine and each other. Serial data are sparse holes.
func benchInstall(b *testing.B) string {
	benchOnce.Do(func() {
		// UPKDEPS_BENCH_DIR keeps the install for runs of the CLI
		// (/usr/bin/time -v upkdeps check --ini DIR/System/Bench.ini).
		if keep := os.Getenv("UPKDEPS_BENCH_DIR"); keep != "" {
			if _, err := os.Stat(filepath.Join(keep, "System", "Bench.ini")); err == nil {
				return
			}
			benchErr = writeBenchInstall(keep, benchInstallSize())
			return
		}
		benchDir, benchErr = os.MkdirTemp("", "upkdeps-bench-")
		if benchErr == nil {
			benchErr = writeBenchInstall(benchDir, benchInstallSize())
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

type benchKind struct {
	dir, ext                  string
	share                     int // per 20
	names, imports, exports   int
	texDeps, sndDeps, codeDep int
}

var benchKinds = []benchKind{
	{"System", ".u", 2, 300, 60, 250, 1, 1, 2},
	{"Textures", ".utx", 6, 120, 4, 100, 0, 0, 0},
	{"Sounds", ".uax", 3, 80, 4, 60, 0, 0, 0},
	{"Music", ".umx", 1, 10, 3, 2, 0, 0, 0},
	{"Maps", ".unr", 8, 900, 150, 1200, 8, 3, 2},
}

func writeBenchInstall(dir string, total int) error {
	ini := "[Core.System]\n"
	counts := map[string]int{}
	for _, k := range benchKinds {
		if err := os.MkdirAll(filepath.Join(dir, k.dir), 0o755); err != nil {
			return err
		}
		ini += "Paths=../" + k.dir + "/*" + k.ext + "\n"
		counts[k.dir] = max(1, total*k.share/20)
	}
	if err := os.WriteFile(filepath.Join(dir, "System", "Bench.ini"), []byte(ini), 0o644); err != nil {
		return err
	}
	name := func(kind string, i int) string { return fmt.Sprintf("%s%05d", kind[:3], i) }
	var wg sync.WaitGroup
	errs := make(chan error, len(benchKinds))
	for _, k := range benchKinds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range counts[k.dir] {
				b := format.NewBuilder(69, 0)
				b.File.GUID = format.GUID{uint32(i), 7, 7, uint32(len(k.dir))}
				for n := range k.names {
					b.Name("Name" + strconv.Itoa(n))
				}
				b.ImportPath("Engine.Actor", "Core", "Class")
				dep := func(kind string, n, j int) string { return name(kind, (i*31+j*17)%n) }
				for j := range k.texDeps {
					b.ImportPath(dep("Textures", counts["Textures"], j)+".Group.Tex"+strconv.Itoa(j%100), "Engine", "Texture")
				}
				for j := range k.sndDeps {
					b.ImportPath(dep("Sounds", counts["Sounds"], j)+".Snd"+strconv.Itoa(j%60), "Engine", "Sound")
				}
				for j := range k.codeDep {
					b.ImportPath(dep("System", counts["System"], j)+".Cls0", "Core", "Class")
				}
				for j := 0; len(b.File.Imports) < k.imports; j++ {
					b.ImportPath("Engine.Actor.Prop"+strconv.Itoa(j), "Core", "IntProperty")
				}
				cls := b.ImportPath("Engine.Texture", "Core", "Class")
				grp := b.ExportGroup(0, "Group")
				for j := 0; len(b.File.Exports) < k.exports; j++ {
					switch k.dir {
					case "System":
						b.Export(0, "Cls"+strconv.Itoa(j), 0, 0, 2000)
					case "Sounds":
						b.Export(0, "Snd"+strconv.Itoa(j), b.ImportPath("Engine.Sound", "Core", "Class"), 0, 20000)
					default:
						b.Export(grp, "Tex"+strconv.Itoa(j), cls, 0, 5000)
					}
				}
				if err := format.WriteFile(filepath.Join(dir, k.dir, name(k.dir, i)+k.ext), b.File); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	return <-errs
}

func benchSearcher(b *testing.B, dir string) *search.Searcher {
	f, err := ini.Load(filepath.Join(dir, "System", "Bench.ini"))
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
				g.Check(CheckOptions{})
			}
			b.ReportMetric(peakRSSMB(), "peak-RSS-MB")
		})
	}
}

func BenchmarkOpenAll(b *testing.B) {
	dir := benchInstall(b)
	var files []string
	for _, k := range benchKinds {
		ents, _ := os.ReadDir(filepath.Join(dir, k.dir))
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), k.ext) {
				files = append(files, filepath.Join(dir, k.dir, e.Name()))
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
