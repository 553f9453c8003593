package uscript

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkScanTree scans a generated game root of 2,000 classes (20
// packages of 100, 100-400 lines each) the way upkdeps does before a
// build: every package with ScanPackage, then the index and every
// package's dependencies.
func BenchmarkScanTree(b *testing.B) {
	root := b.TempDir()
	names, size := genTree(b, root, 20, 100, 42)
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		idx := NewIndex(nil)
		pkgs := make([]*Package, 0, len(names))
		for _, name := range names {
			p, err := ScanPackage(root, name)
			if err != nil {
				b.Fatal(err)
			}
			if len(p.Classes) != 100 {
				b.Fatalf("%s: %d classes", name, len(p.Classes))
			}
			idx.AddSource(p)
			pkgs = append(pkgs, p)
		}
		for _, p := range pkgs {
			idx.Dependencies(p)
		}
	}
}

// BenchmarkScan measures the scanner alone on one generated class.
func BenchmarkScan(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 7))
	src := []byte(genClass(r, "Pkg", "Bench", "Actor", []string{"Pawn", "Weapon", "Info"}, 300))
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Scan("Bench.uc", src); err != nil {
			b.Fatal(err)
		}
	}
}

// TestGenTree keeps the benchmark's tree honest: it scans, and every
// package depends only on earlier ones.
func TestGenTree(t *testing.T) {
	root := t.TempDir()
	names, _ := genTree(t, root, 3, 5, 1)
	idx := NewIndex(map[string][]string{"Engine": {"Actor", "Pawn", "Weapon", "Inventory", "Info", "Controller", "PlayerController", "HUD"}})
	var pkgs []*Package
	for _, name := range names {
		p, err := ScanPackage(root, name)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Classes) != 5 || len(p.Diagnostics) > 0 {
			t.Fatalf("%s: %d classes, diagnostics %v", name, len(p.Classes), p.Diagnostics)
		}
		idx.AddSource(p)
		pkgs = append(pkgs, p)
	}
	for i, p := range pkgs {
		for _, d := range idx.Dependencies(p) {
			later := false
			for _, n := range names[i+1:] {
				later = later || n == d.Package
			}
			if later {
				t.Errorf("%s depends on later %s: %v", p.Name, d.Package, d.Evidence[0])
			}
		}
		if u := idx.Unresolved(p); len(u) > 0 {
			t.Errorf("%s: unresolved %v", p.Name, u)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "Pkg00", "Classes", "Pkg00Class000.uc")); err != nil {
		t.Error(err)
	}
}
