package search

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/upkdeps/upkdeps/ini"
)

// The benchmark install is written once per test binary (20,000 files take
// a while on a busy disk) and removed by TestMain.
var bench struct {
	once  sync.Once
	root  string
	names []string
	err   error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if bench.root != "" {
		os.RemoveAll(bench.root)
	}
	os.Exit(code)
}

// benchInstall writes 20,000 empty package files over the five UT99 Paths
// folders (4,000 each; every tenth name is in all five) and returns the ini
// path and names to look up: hits in each folder, names in all five, misses
// and wrong-case names.
func benchInstall(b *testing.B) (string, []string) {
	b.Helper()
	bench.once.Do(func() {
		root, err := os.MkdirTemp("", "upkdeps-search-bench-")
		if err != nil {
			bench.err = err
			return
		}
		bench.root = root
		folders := []struct{ dir, ext string }{{"System", ".u"}, {"Maps", ".unr"}, {"Textures", ".utx"}, {"Sounds", ".uax"}, {"Music", ".umx"}}
		for i, f := range folders {
			if bench.err = os.MkdirAll(filepath.Join(root, f.dir), 0o755); bench.err != nil {
				return
			}
			for j := range 4000 {
				name := fmt.Sprintf("Pkg%d_%d", i, j)
				if j%10 == 0 {
					name = fmt.Sprintf("Shared%d", j)
				}
				if bench.err = os.WriteFile(filepath.Join(root, f.dir, name+f.ext), nil, 0o644); bench.err != nil {
					return
				}
				if j%4 == 0 {
					bench.names = append(bench.names, name)
				}
			}
		}
		for j := range 500 {
			bench.names = append(bench.names, fmt.Sprintf("Missing%d", j), fmt.Sprintf("pkg4_%d", j+1))
		}
		bench.err = os.WriteFile(filepath.Join(root, "System", "UnrealTournament.ini"), []byte(ut99Ini), 0o644)
	})
	if bench.err != nil {
		b.Fatal(bench.err)
	}
	return filepath.Join(bench.root, "System", "UnrealTournament.ini"), bench.names
}

func benchSearcher(b *testing.B, iniPath string) *Searcher {
	b.Helper()
	cfg, err := ini.Load(iniPath)
	if err != nil {
		b.Fatal(err)
	}
	s, err := New(cfg, Options{})
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkFind is one lookup, with its trace and shadows, in a warm
// Searcher over 20,000 files.
func BenchmarkFind(b *testing.B) {
	iniPath, names := benchInstall(b)
	s := benchSearcher(b, iniPath)
	s.Find("warm-up")
	i := 0
	for b.Loop() {
		s.Find(names[i%len(names)])
		i++
	}
}

// BenchmarkFindCold builds a Searcher and looks 6,000 names up: the
// listings are read once, whatever the number of lookups.
func BenchmarkFindCold(b *testing.B) {
	iniPath, names := benchInstall(b)
	for b.Loop() {
		s := benchSearcher(b, iniPath)
		for _, n := range names {
			s.Find(n)
		}
	}
	b.ReportMetric(float64(len(names)), "lookups/op")
}

// BenchmarkCollisions builds a Searcher and scans 20,000 files into
// Packages and Collisions.
func BenchmarkCollisions(b *testing.B) {
	iniPath, _ := benchInstall(b)
	for b.Loop() {
		benchSearcher(b, iniPath).Collisions()
	}
}
